// The lenses' DOM helper (views/dom.js's), how their numbers read, and how a token is said.

// A new element (under parent) with the given properties.
export { create, element } from '../views/dom.js';

// A score or probability in [0, 1] as the tables print it; null as a dash.
export const fixed = (v, digits = 2) => (v === null || v === undefined ? '—' : v.toFixed(digits));

// A signed logit part: the minus sign typeset, 3 decimals.
export const signed = (v) => `${v < 0 ? '−' : v > 0 ? '+' : ''}${Math.abs(v).toFixed(3)}`;

// A head's name in the lenses and the core's JSON: "layer.head".
export const headName = (layer, head) => `${layer}.${head}`;

// The heads a link's `ablate` names ("0.1,1.2") as [[layer, head] …].
export function headsOf(text) {
  if (!text) return [];
  return text.split(',').map((pair) => pair.split('.').map(Number));
}

// Black or white text on a cell of colour [r, g, b], whichever has the higher
// WCAG contrast (at least 4.58:1 on any colour: a cell's small print stays readable).
export function inkOn(rgb) {
  const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? '#000' : '#fff';
}

// A label of tokenText's as a voice should say it: ␣, ↵ and ⇥ as words
// ("space", "newline", "tab": a screen reader says "open box" for ␣, or
// nothing), anything else quoted as it reads. (Here, not in views/format.js:
// only the lenses name cells by it, and a first visit carries format.js.)
const spoken = { '␣': 'space', '↵': 'newline', '⇥': 'tab' };
export function spokenToken(label) {
  const text = String(label);
  return text && [...text].every((c) => spoken[c]) ? [...text].map((c) => spoken[c]).join(' ') : JSON.stringify(text);
}
