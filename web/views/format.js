import { textWidth } from './text-width.js';

// Text as it goes into SVG or HTML markup (an attribute or an element).
export function escapeXml(text) {
  return String(text).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);
}

// A label shortened with … to fit `width` px in canvas context g's font
// (nothing where not even one letter fits).
export function clip(g, text, width) {
  if (width <= 6) return '';
  if (textWidth(g, text) <= width) return text;
  let t = text;
  while (t.length > 1 && textWidth(g, t + '…') > width) t = t.slice(0, -1);
  return t + '…';
}

// How many decimals of a matrix's numbers fit a cell of `cell` px: 4, as
// PyTorch prints them, where the widest fits with `spare` px to spare; else
// 2; else 0 (none). textWidth(text) measures in the cells' font.
export function decimalsThatFit(values, cell, textWidth, { numbersFrom = 30, fourDigitsFrom = 50, spare = 4 } = {}) {
  const room = cell - spare;
  const widestAt = (d) => Math.max(0, ...Array.from(new Set(Array.from(values, (v) => formatNumber(v, d))), textWidth));
  if (cell < numbersFrom) return 0;
  if (cell >= fourDigitsFrom && widestAt(4) <= room) return 4;
  return widestAt(2) <= room ? 2 : 0;
}

// One precision for a whole view (a step's matrices, a lesson): 4 decimals
// only if every matrix that prints numbers fits 4, else 2; a matrix that
// cannot fit 2 prints none. fits: what fits each matrix (decimalsThatFit).
export function viewDecimals(fits) {
  const printing = fits.filter((d) => d > 0);
  return printing.length && printing.every((d) => d >= 4) ? 4 : 2;
}

// How a number reads in a cell, a legend or an explanation: as PyTorch prints
// it (4 decimals), whole numbers whole, the minus sign and −∞ typeset.
export function formatNumber(v, decimals = 4) {
  if (v === -Infinity) return '−∞';
  // whole numbers (a mask's 0/1, the a @ b demos' sums) as whole numbers: 7 beside 11, not 7.0000 beside 11.0
  if (Number.isInteger(v) && Math.abs(v) < 1e6) return String(v).replace('-', '−');
  const a = Math.abs(v);
  const text = a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(Math.min(decimals, 2) - 1) : v.toFixed(decimals);
  return text.replace('-', '−');
}

// A token as a label shows it (heatmap axes, graph chips, details, the
// training view's characters): a character model's newline, tab and space
// become ↵, ⇥ and ␣ so they are visible and distinct, other control
// characters their control pictures (␀ … ␟, ␡), and what would be invisible
// or would reorder the text around it (C1 controls, no-break and zero-width
// spaces, line separators, bidirectional controls, the byte-order mark) a
// \uXXXX escape. A space inside a longer label ("New York") stays a space.
const pictures = { '\n': '↵', '\t': '⇥', ' ': '␣', '\u007f': '␡' };
const controls = /[\u0000-\u001f\u007f]/g;
const invisible = /[\u0080-\u00a0\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\ufff9-\ufffb]/g;
const picture = (c) => pictures[c] ?? String.fromCharCode(0x2400 + c.charCodeAt(0));
const escaped = (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

export function tokenText(label) {
  const text = String(label);
  const blank = /^[ \n\t]*$/.test(text);
  return text.replace(controls, picture).replace(/ /g, (c) => (blank ? pictures[c] : c)).replace(invisible, escaped);
}

// Running text as a page shows it (a model's sample, the learner's own text):
// lines and tabs as they are, every other control or invisible character as
// for labels, so nothing in it hides, reorders or passes as markup.
export function printedText(text) {
  return String(text).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, picture).replace(invisible, escaped);
}
