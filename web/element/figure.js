// What every <attention-playground> figure shares, whatever its view: the
// stylesheets (adopted, never a <style>: a strict style-src 'self'), the link
// of "Open in the playground", the footer under a figure, and make():
// views/dom.js's element() by class name and text, for its shadow tree.
import { quoteText } from '../state/state.js';
import { create, element } from '../views/dom.js';
import { playgroundHash } from './settings.js';

// Both stylesheets once per page, adopted by every element (a <style> in
// Shadow DOM would break a strict style-src 'self').
let sheets = null;
export function loadSheets() {
  sheets ??= Promise.all(['../views/views.css', 'element.css'].map(async (name) => {
    const response = await fetch(new URL(name, import.meta.url));
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(await response.text());
    return sheet;
  }));
  return sheets;
}

// The full page a figure links to: the playground attribute, else the
// index.html beside this script; a bad one throws RangeError naming it.
export function playgroundPage(s) {
  let page;
  try {
    page = new URL(s.playground ?? new URL('../index.html', import.meta.url), document.baseURI);
  } catch {
    throw new RangeError(`playground must be the URL of the playground's page; got ${quoteText(s.playground)}`);
  }
  if (!['http:', 'https:'].includes(page.protocol)) throw new RangeError(`playground must be an http or https URL; got ${quoteText(s.playground)}`);
  return page.href;
}

// Where a lesson's own links go (hash → URL): the full page, as the figure's
// link (`link`, or the playground's page when the figure has none), or null
// with no page to open (a notebook's figure without playground=).
export function lessonLinks(s, link) {
  let page = link;
  try {
    page ??= playgroundPage(s);
  } catch {
    page = null;
  }
  return (hash) => (page === null ? null : Object.assign(new URL(page), { hash }).href);
}

// The link of "Open in the playground", or null when the page cannot show
// the figure's settings (a scenario or training file given by URL, given
// weights, a model file on another origin than the page's).
export function playgroundLink(s) {
  const hash = playgroundHash(s);
  if (hash === null) return null;
  const page = new URL(playgroundPage(s));
  let model = s.model;
  // a model file by URL is the host page's: named from the site's root, which the playground resolves alike
  if (s.view === 'model' && model !== null && !/^[a-z0-9-]+$/.test(model)) {
    let url;
    try {
      url = new URL(model, document.baseURI);
    } catch {
      return null;  // the figure's own line says why
    }
    if (url.origin !== page.origin) return null;  // the playground opens its own origin's models only
    model = url.pathname + url.search;
  }
  page.hash = model === s.model ? hash : playgroundHash({ ...s, model });
  return page.href;
}

export function make(parent, tag, className, text) {
  return element(parent, tag, { className: className || undefined, text });
}

// Under the figure: the author's caption and the way to the full page.
export function footer(root, s, link) {
  if (s.caption === null && link === null) return;
  const footer = make(root, 'div', 'footer');
  if (s.caption !== null) make(footer, 'p', 'caption', s.caption);
  if (link === null) return;
  const a = make(footer, 'a', 'open', 'Open in the playground');
  a.href = link;
  a.target = '_blank';
  a.rel = 'noopener';
  a.setAttribute('part', 'open');
}

// The theme a notebook's front end says it shows, or null: JupyterLab (and
// nbconvert's lab template) marks <body data-jp-theme-light="true|false">,
// VS Code's notebook outputs <body data-vscode-theme-kind="vscode-dark|…">
// (and the class of that name). theme="auto" follows it before
// prefers-color-scheme, which a dark notebook in a light OS contradicts.
export function hostTheme(body = document.body) {
  const jupyter = body?.dataset.jpThemeLight;
  if (jupyter === 'true' || jupyter === 'false') return jupyter === 'true' ? 'light' : 'dark';
  const kind = body?.dataset.vscodeThemeKind ?? [...(body?.classList ?? [])].find((c) => c.startsWith('vscode-'));
  if (!kind) return null;
  return /light/.test(kind) ? 'light' : /dark|high-contrast/.test(kind) ? 'dark' : null;
}

// Every figure on the page marked data-host-theme, again when the front end
// switches its theme (one observer for the page).
const figures = new Set();
let watching = null;
export function followHostTheme(element, on = true) {
  if (!on) return figures.delete(element);
  figures.add(element);
  const mark = (e, theme = hostTheme()) => (theme ? (e.dataset.hostTheme = theme) : delete e.dataset.hostTheme);
  mark(element);
  if (watching || !document.body) return;
  // its canvases take the new colours when painted again
  watching = new MutationObserver(() => figures.forEach((e) => {
    mark(e);
    requestAnimationFrame(() => e.views?.redraw());
  }));
  watching.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-jp-theme-light', 'data-vscode-theme-kind'] });
}

// The figure of a refusal: one line naming it, read out as an alert, with
// the author's fallback (what the tag holds) under it.
export function messageFigure(message) {
  const root = create('div', { className: 'root' });
  const box = make(root, 'p', 'message', `Attention Playground: ${message}`);
  box.setAttribute('role', 'alert');
  make(root, 'slot');
  return root;
}
