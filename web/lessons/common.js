// Small builders the lesson views share: headings, prose, code from the
// notebooks, a matrix figure with a readout of the picked cell, and a badge
// for a yes/no the core computed. Text goes in as text, never as HTML.
import { Heatmap, defaults as heatmapDefaults, formatNumber } from '../views/heatmap.js';
import { viewDecimals } from '../views/format.js';

// A lesson's cells: as large as prints two decimals comfortably, smaller
// only where the lesson is too narrow for the matrix.
const lessonCell = 44;

import { element } from '../views/dom.js';

export { element };

export function prose(parent, text) {
  return element(parent, 'p', { className: 'lesson-text', text });
}

export function code(parent, text) {
  const pre = element(parent, 'pre', { className: 'pytorch' });
  pre.tabIndex = 0;  // it scrolls sideways in a narrow column: the keyboard must reach it
  element(pre, 'code', { text });
  return pre;
}

export function row(parent, className = 'lesson-row') {
  return element(parent, 'div', { className });
}

// A verdict from the core: "allclose: True". expected: what the lesson
// predicts; a verdict that matches it is the lesson's point, never an error.
export function badge(parent, label, ok, { expected = true, because = '' } = {}) {
  const kind = ok !== expected ? 'badge-no' : ok ? 'badge-yes' : 'badge-expected';
  const span = element(parent, 'p', { className: `badge ${kind}` });
  span.textContent = `${label}: ${ok ? 'True' : 'False'}${ok === expected && because ? ` (${because})` : ''}`;
  return span;
}

// "Open in the playground": the lesson's scenario in the full page, at the
// step where the lesson's idea shows (href: a hash on the page, the full
// page's URL in a figure).
export function playgroundLink(parent, href, text = 'Open in the playground') {
  const a = element(parent, 'a', { className: 'lesson-open', text });
  a.href = href;
  return a;
}

// {shape, data} as a heatmap in its own column; hovering writes the cell to `readout`.
export function matrix(parent, { label, value, rows, cols, scale = 'diverging', readout, highlightRow = null, name, limit, maxCell }) {
  const column = element(parent, 'div', { className: 'lesson-figure' });
  const width = column.closest('.lesson-content, .lesson-body')?.clientWidth || 600;
  const [n, m] = value.shape;
  const cell = Math.max(heatmapDefaults.minCell, Math.min(maxCell ?? lessonCell, Math.floor((width - 60) / m), Math.floor(heatmapDefaults.maxHeight / n)));
  const labels = (n, given) => given ?? Array.from({ length: n }, (_, i) => String(i));
  const heatmap = new Heatmap(column, {
    name: name ?? label,
    label,
    scale,
    onCell: (_, cell) => {
      if (!readout) return;
      readout.textContent = cell
        ? `${label} [${cell.row}, ${cell.col}] = ${formatNumber(value.data[cell.row * value.shape[1] + cell.col])}`
        : 'Hover a cell to read its value.';
    },
  });
  heatmap.highlightRow = highlightRow;
  heatmap.draw(value, { rowLabels: labels(value.shape[0], rows), colLabels: labels(value.shape[1], cols), limit, cell });
  settleLater(heatmap);
  return heatmap;
}

// One precision for a lesson: once its matrices are drawn (a microtask
// later), every one prints the decimals all of them fit.
let drawn = [];
function settleLater(heatmap) {
  if (!drawn.length) queueMicrotask(settle);
  drawn.push(heatmap);
}

function settle() {
  const groups = new Map();
  for (const h of drawn) {
    const root = h.figure.closest('.lesson-content, .lesson-body');
    if (!root) continue;
    if (!groups.has(root)) groups.set(root, []);
    groups.get(root).push(h);
  }
  drawn = [];
  for (const [root, made] of groups) {
    const all = [...new Set([...(root.lessonHeatmaps ?? []).filter((h) => h.figure.isConnected), ...made])];
    root.lessonHeatmaps = all;
    const decimals = viewDecimals(all.map((h) => h.layout.fit));
    for (const h of all) {
      if (h.options.decimals === decimals) continue;
      h.options.decimals = decimals;
      h.precision(h.layout, decimals);
      h.render();
    }
  }
}

export function readoutLine(parent) {
  return element(parent, 'p', { className: 'lesson-readout', text: 'Hover a cell to read its value.' });
}

// One batch element of a whole (B, T, C) or (T, C) tensor from the core.
export function slice(value, batch) {
  if (value.shape.length < 3) return value;
  const [, rows, cols] = value.shape;
  const data = ArrayBuffer.isView(value.data) ? value.data : Float32Array.from(value.data);  // JSON from a lesson
  return { shape: [rows, cols], data: data.subarray(batch * rows * cols, (batch + 1) * rows * cols) };
}

// Radio buttons bound to a state value; `choices` = [[value, label], …].
export function choice(parent, { legend, name, choices, value, onChange }) {
  const fieldset = element(parent, 'fieldset', { className: 'lesson-choice' });
  element(fieldset, 'legend', { text: legend });
  for (const [option, text] of choices) {
    const label = element(fieldset, 'label');
    const input = element(label, 'input');
    input.type = 'radio';
    input.name = name;
    input.value = option;
    input.checked = option === value;
    input.addEventListener('change', () => onChange(option));
    label.append(` ${text}`);
  }
  return fieldset;
}
