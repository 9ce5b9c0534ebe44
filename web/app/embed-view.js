// "Embed this view": the page's current state as the two snippets an author
// pastes into a documentation page, the <attention-playground> tag and the
// iframe, each ready to copy, and what a figure cannot carry.
import { attributesOfState, embedSnippets } from '../element/settings.js';
import { modelPresets } from '../engine/presets.js';
import { create, element } from '../views/dom.js';

function block(parent, id, label, text) {
  const wrap = create('div', { className: 'embed-snippet' });
  element(wrap, 'label', { htmlFor: id, className: 'code-label', text: label });
  const area = element(wrap, 'textarea', {
    id,
    readOnly: true,
    spellcheck: false,
    rows: Math.min(6, text.split('\n').length + Math.ceil(text.length / 90)),
    value: text,
  });
  const copy = element(wrap, 'button', { type: 'button', text: 'Copy', attrs: { 'aria-label': `Copy ${label}` } });
  copy.addEventListener('click', async () => {
    area.select();
    try {
      await navigator.clipboard.writeText(text);
      copy.textContent = 'Copied';
    } catch {
      copy.textContent = 'Selected: press Ctrl+C';  // no clipboard permission (an insecure origin)
    }
  });
  parent.append(wrap);
}

// A model's URL as the link gives it is relative to this page; on an
// author's page the element reads it relative to that page, so the snippets
// carry it from the site's root (model files load from the same site only).
function siteRooted(state) {
  if (!state.model || state.file || Object.hasOwn(modelPresets, state.model)) return state;
  const url = new URL(state.model, document.baseURI);
  return url.origin === window.location.origin ? { ...state, model: url.pathname + url.search } : state;
}

// Fills `box` for `state`; embed.html is found beside the page. The text
// areas' ids: embed-element and embed-iframe in the playground's box
// (#embed-code), prefixed by another box's id (the Model view's).
export function showEmbedCode(box, state) {
  const { attributes, left } = attributesOfState(siteRooted(state));
  const { element, iframe } = embedSnippets(attributes, new URL('embed.html', window.location.href).href.split('#')[0]);
  const prefix = box.id === 'embed-code' ? 'embed' : box.id;
  box.replaceChildren();
  block(box, `${prefix}-element`, 'The element (copy dist/ to assets/attention-playground/ of your site)', element);
  block(box, `${prefix}-iframe`, 'The iframe', iframe);
  if (left.length) {
    box.append(create('p', { className: 'embed-left', text: `Not carried into a figure: ${left.join('; ')}.` }));
  }
}
