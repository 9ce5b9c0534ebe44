// Where a heatmap's parts go: the px its labels take beside the cells, the
// size of a cell (from the width its container gives, or the one a view
// gives), the decimals printed, and the canvas sized to all that.
import { decimalsThatFit } from './format.js';
import { resize } from './heatmap-paint.js';
import { fontWidth } from './text-width.js';

export const defaults = {
  maxCell: 54,
  fourDigitsFrom: 50,  // cell size (px) from which 4 decimals fit, as PyTorch prints
  minCell: 5,
  numbersFrom: 30,  // cell size (px) from which numbers are printed
  spare: 4,  // px a cell keeps around its widest number
  font: '12px system-ui, sans-serif',
  labelWidth: 84,
  maxHeight: 560,  // a tall matrix shrinks its cells rather than the page growing without end
};

// The px beside the cells: the row labels and softmax's Σ column.
export function chrome(h) {
  const labels = h.options.rowLabels ?? [];
  const widest = labels.reduce((w, l) => Math.max(w, fontWidth(defaults.font, l)), 0);
  return { left: Math.min(defaults.labelWidth, Math.ceil(widest) + 8), sums: h.options.mode === 'softmax' ? 64 : 0 };
}

// width: the px the heatmap's container gives, when its caller read it
// already (reading it after writes forces a layout); else it is read here.
export function measure(h, { width: given } = {}) {
  const [rows, cols] = h.matrix.shape;
  const { colLabels = [] } = h.options;
  const textWidth = (t) => fontWidth(defaults.font, t);
  const widest = (labels) => labels.reduce((w, l) => Math.max(w, textWidth(l)), 0);
  const { left, sums } = chrome(h);  // softmax shows each row's Σ to its right
  // row: {count, columns}: the matrices that share this row (a step's input
  // beside its output) split it in proportion to their columns, so their
  // cells come out the same size
  const { count = 1, columns = cols } = h.options.row ?? {}, gap = 26;
  // a view that gave the cell size needs no width (reading it forces a layout)
  const width = h.options.cell ? 0 : given ?? h.figure.parentElement?.clientWidth ?? 600;
  const cellIn = (space) => Math.max(defaults.minCell, Math.min(h.options.maxCell ?? defaults.maxCell,
    Math.floor((space - sums - left) / cols), Math.floor(defaults.maxHeight / rows)));
  const shared = ((width - (count - 1) * gap) * cols) / columns - 8;
  // too narrow to share (a phone, a sidebar), or sharing would cost the
  // numbers that a row of its own shows: each matrix takes the whole row
  const alone = cellIn(width - 8);
  const share = shared >= 140 && !(cellIn(shared) < defaults.numbersFrom && alone >= defaults.numbersFrom);
  // maxCell: a caller may match another matrix's cells (a 6 × 1 out beside 6 × 6 weights)
  // a view that lays out its matrices together says the size (stage.js)
  const cell = h.options.cell ?? (share ? cellIn(shared) : cellIn(Math.max(160, width - 8)));
  const rotate = widest(colLabels) > cell - 4;
  const top = rotate ? Math.min(defaults.labelWidth, Math.ceil(widest(colLabels)) + 8) : 18;
  // a mask's 0/1 always fit; other numbers only where the widest does.
  // The view's precision, else the most that fits: data-numbers says which.
  const fit = h.scale === 'binary' ? (cell >= defaults.numbersFrom ? 4 : 0)
    : decimalsThatFit(h.matrix.data, cell, textWidth, defaults);
  const layout = { rows, cols, cell, left, top, sums, fit, width: left + cols * cell + 1 + sums, height: top + rows * cell + 1, rotate };
  h.figure.dataset.cell = String(cell);
  return precision(h, layout);
}

// Prints `decimals` where they fit (the view's one rule), else none.
export function precision(h, layout, decimals = h.options.decimals ?? layout.fit) {
  layout.decimals = layout.fit >= decimals ? decimals : 0;
  layout.numbers = layout.decimals > 0;
  h.figure.dataset.numbers = String(layout.decimals);
  return layout;
}

// Measures and sizes the canvas without painting it: a view lays out
// several matrices (their captions wrap to the new widths) before painting.
export function place(h) {
  h.layout = measure(h);
  resize(h.canvas, h.layout.width, h.layout.height, h.exportRatio ?? (window.devicePixelRatio || 1));
}
