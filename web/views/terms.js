// The words a first-time learner meets on the first screen, each with one
// line that explains it: shown beside the word on hover and on keyboard
// focus (term-tip.js), read by a screen reader as the word's description
// (aria-describedby on a line kept in the page).
import { create, element } from './dom.js';

export const glossary = {
  query: 'query: what a token looks for, its row of q = x · W_query.',
  key: 'key: what a token offers to be found by, its row of k = x · W_key.',
  value: 'value: what a token passes on to whoever listens to it, its row of v = x · W_value.',
  scores: 'scores: how well each query matches each key, their dot product q · k.',
  softmax: 'softmax: turns a row of scores into positive weights that sum to 1 (exp, then ÷ the sum).',
  mask: 'mask: which tokens each token may listen to; causal hides the future (−∞ before softmax).',
};

// the forms our own sentences use, each pointing at its entry
const forms = { query: 'query', queries: 'query', key: 'key', keys: 'key', value: 'value', values: 'value',
  scores: 'scores', softmax: 'softmax', mask: 'mask' };
const pattern = new RegExp(`\\b(${Object.keys(forms).join('|')})\\b`, 'gi');

let installed = false;

// The lines the terms point at, once a document; the line's display
// (term-tip.js) loads when a term is first pointed at or focused.
function install() {
  if (installed) return;
  installed = true;
  const lines = create('div', { hidden: true });
  for (const [name, line] of Object.entries(glossary)) element(lines, 'span', { id: `term-${name}`, text: line });
  document.body.append(lines);
  const first = (e) => {
    if (!(e.target instanceof Element && e.target.closest('[data-term]'))) return;
    document.removeEventListener('mouseover', first);
    document.removeEventListener('focusin', first);
    const term = e.target.closest('[data-term]');
    import('./term-tip.js').then((tip) => (term.matches(':hover') || term === document.activeElement) && tip.show(e));
  };
  document.addEventListener('mouseover', first);
  document.addEventListener('focusin', first);
}

// element explained by the terms named ('query key value'): its description and its hover line.
export function describe(element, names) {
  install();
  element.dataset.term = names;
  element.setAttribute('aria-describedby', names.split(' ').map((name) => `term-${name}`).join(' '));
  return element;
}

// One word of the glossary as a focusable term.
export function term(name, text = name) {
  const span = create('span', { className: 'term', tabIndex: 0, text });
  return describe(span, name);
}

// Our own sentence written into parent, the first use of each term in it explained.
export function withTerms(parent, text) {
  const parts = [];
  const seen = new Set();
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    const name = forms[match[0].toLowerCase()];
    if (seen.has(name)) continue;
    seen.add(name);
    parts.push(text.slice(at, match.index), term(name, match[0]));
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  parent.replaceChildren(...parts);
}
