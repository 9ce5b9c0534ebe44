// The Model view's way into the lenses: one section under the views with a
// button that opens them. The lenses themselves (panel.js and what it draws)
// load when the section is first opened, or when a link names a lens: a
// learner who never opens them never fetches them.
import { create, element } from '../views/dom.js';

// view: the ModelView (model/view.js); parent: where the section goes;
// label(ids): the tokens' texts as the view's chips show them.
// Only the page's Model view has them (the one that can open a head in the
// playground): an author's figure (the element's view="model") stays as it was.
export function buildLens(view, parent, label) {
  if (!view.onOpenHead) return { update() {}, open() {} };
  const section = create('section', { className: 'lens-section', attrs: { 'aria-label': 'What each head does' } });
  const open = element(section, 'button', {
    type: 'button',
    className: 'lens-open',
    text: 'What does each head do? Open the lenses: head scores, ablation, logit lens, attribution',
    attrs: { 'aria-expanded': 'false' },
  });
  parent.append(section);
  const hook = { section, open, panel: null, loading: null };
  // opened (this button, or a line of "Start here" or "Try:"): the panel in
  // view, and the focus on its tab (not left on <body> when the button hides)
  const show = async () => {
    if (!view.settings.lens) view.change({ lens: 'scores' });
    await updateLens(view, hook, label);
    section.scrollIntoView({ block: 'start' });
    section.querySelector('.lens-tab[aria-selected="true"]')?.focus();
  };
  open.addEventListener('click', show);
  return { update: () => updateLens(view, hook, label), open: show };
}

// After each run the view drew (a keystroke, another model, a link followed):
// the lens the settings name, on the tokens drawn; nothing while it is closed.
async function updateLens(view, hook, label) {
  if (!view.settings.lens && !hook.panel) return;
  hook.loading ??= import('./panel.js').then(({ LensPanel }) => {
    hook.panel = new LensPanel(view, hook.section, label, {
      onClose: () => {
        hook.open.hidden = false;
        hook.open.setAttribute('aria-expanded', 'false');
        hook.panel.update();
        hook.open.focus();
      },
    });
    return hook.panel;
  });
  const panel = await hook.loading;
  hook.open.hidden = Boolean(view.settings.lens);
  hook.open.setAttribute('aria-expanded', String(Boolean(view.settings.lens)));
  panel.update();
}
