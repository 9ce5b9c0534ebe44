// One matrix as a heatmap on a canvas: row and column labels, numbers in the
// cells when they fit, −∞ hatched. Hover or keyboard focus picks a cell;
// arrow keys move it. Labels are drawn as text, never parsed as HTML.
import { diverging, maskedColor, sequential } from './colors.js';
import { rowsShown, softmaxPhase } from './timing.js';
import * as editor from './cell-editor.js';
import { clip, formatNumber, tokenText } from './format.js';
import * as layouts from './heatmap-layout.js';
import { paintCells, resize } from './heatmap-paint.js';
import * as legend from './heatmap-legend.js';
import * as overlays from './heatmap-overlays.js';
import { offScreen } from './on-screen.js';
import { create, element } from './dom.js';

export { formatNumber };
export { defaults } from './heatmap-layout.js';
export { hatchStyle, resize } from './heatmap-paint.js';

// Labels as the token chips and the graph show them: a space, a newline or
// another invisible character as its picture (␣, ↵), not a blank row. Kept
// per array: the same labels drawn again are the same array.
const shownLabels = new WeakMap();
function shown(labels) {
  if (!Array.isArray(labels)) return labels;
  let out = shownLabels.get(labels);
  if (!out) shownLabels.set(labels, (out = labels.map((l) => (l === undefined ? l : tokenText(l)))));
  return out;
}

export class Heatmap {
  constructor(parent, { name, hook, label, scale = 'diverging', onCell = () => {}, onEdit = null }) {
    this.name = name;
    this.scale = scale;
    this.onCell = onCell;
    this.onEdit = onEdit;  // (heatmap, cell, value): a learner typed a new value
    this.figure = create('figure', { className: 'heatmap' });
    // a public hook for tests and scripts: data-matrix="weights" (README.md, "Hooks")
    if (hook ?? name) this.figure.dataset.matrix = hook ?? name;
    this.caption = element(this.figure, 'figcaption');
    this.canvas = element(this.figure, 'canvas', { tabIndex: 0, attrs: { role: 'img' } });
    this.overlay = element(this.figure, 'div', { className: 'heatmap-overlay', attrs: { 'aria-hidden': 'true' } });
    this.legend = element(this.figure, 'div', { className: 'legend' });
    parent.append(this.figure);
    this.label = label;
    this.focus = null;     // {row, col} shown with an outline
    this.highlightRow = null;
    this.marks = null;  // what the step combines: {rows: Map(row → strength), cells: [{row, col}]}
    this.layout = null;

    this.canvas.addEventListener('mousemove', (e) => this.pick(this.cellAt(e)));
    this.canvas.addEventListener('mouseleave', () => this.pick(null));
    this.canvas.addEventListener('click', (e) => {
      const cell = this.cellAt(e);
      this.pick(cell, { click: true });
      if (this.onEdit) this.startEdit(cell);  // an editable matrix: a click types into the cell
    });
    this.canvas.addEventListener('focus', () => this.pick(this.focus ?? { row: 0, col: 0 }));
    this.canvas.addEventListener('blur', () => this.pick(null));
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.canvas.addEventListener('dblclick', (e) => this.startEdit(this.cellAt(e)));
    if (onEdit) this.figure.classList.add('editable');  // the caption says: click to edit
  }

  startEdit(cell) {
    return editor.startEdit(this, cell);
  }

  editorMessage(input, text) {
    return editor.editorMessage(this, input, text);
  }

  // matrix: {shape: [rows, cols], data}; options: {rowLabels, colLabels,
  // reveal: 0…1, revealBy: 'cell' | 'row', limit (diverging), note, patterns
  // (heatmap-overlays.js drawPatterns: a head's ideal cells, dashed),
  // cell: the px a view gave each cell, decimals: the view's one precision}
  // width: the container's px, read by a caller before its writes (else read here)
  draw(matrix, options = {}, { width } = {}) {
    this.prepare(matrix, options);
    if (width !== undefined) this.layout = this.measure({ width });
    this.render();
    this.drawLegend();
  }

  // The caption and hooks of a matrix, without painting it: a view that
  // sizes several matrices together prepares them all, then paints.
  prepare(matrix, options = {}) {
    this.matrix = matrix;
    this.options = { ...options, rowLabels: shown(options.rowLabels), colLabels: shown(options.colLabels) };
    this.layout = null;
    this.stale = false;
    delete this.figure.dataset.phase;
    const [rows, cols] = matrix.shape;
    const shape = `${rows} × ${cols}`;
    this.caption.textContent = '';
    element(this.caption, 'span', { className: 'matrix-name', text: this.label });
    if (options.shape !== false) element(this.caption, 'span', { className: 'matrix-shape', text: ` (${shape})` });
    // a line under the name that wraps to the matrix, never widens it
    if (options.note) element(this.caption, 'span', { className: 'matrix-phase matrix-note', text: options.note });
    const changed = options.changed ? options.changed.reduce((n, c) => n + c, 0) : null;
    if (changed !== null) {
      this.figure.dataset.changed = String(changed);
      element(this.caption, 'span', {
        className: 'matrix-changes',
        text: options.edited !== undefined ? 'your edit (dashed)' : changed ? `${changed} changed by your edit` : 'unchanged by your edit',
      });
    } else delete this.figure.dataset.changed;
    if (options.edited !== undefined) this.figure.dataset.edited = `${Math.floor(options.edited / cols)}.${options.edited % cols}`;
    else delete this.figure.dataset.edited;
    // softmax's phase line is part of the caption from the start: a view evens captions before painting
    if (options.mode === 'softmax') this.showPhase(options.exps && (options.reveal ?? 1) < 1 ? softmaxPhase(options.reveal) : null);
    this.canvas.setAttribute('aria-label', `${this.label}, ${shape} matrix; arrow keys move between cells`);
  }

  // The px beside the cells: the row labels and softmax's Σ column.
  chrome() {
    return layouts.chrome(this);
  }

  // The same matrix with new numbers (a model that trains): only the canvas
  // is painted again; its size, labels, caption and legend stay. Anything
  // else (another shape, nothing drawn yet) draws afresh.
  // lazy: off screen, the numbers are kept and painted when it comes on screen.
  update(matrix, { lazy = false } = {}) {
    if (!this.matrix || !this.layout || matrix.shape.join() !== this.matrix.shape.join()) {
      this.draw(matrix, this.options ?? {});
      return;
    }
    this.matrix = matrix;
    this.stale = lazy && offScreen(this.figure, () => this.paintStale());
    if (this.stale) return;
    // its boxes sit where they sat (no layout to read), its labels too: only the cells are painted
    this.render({ overlay: false, cellsOnly: true });
  }

  // Numbers an update() kept while off screen, painted now.
  paintStale() {
    if (!this.stale) return;
    this.stale = false;
    this.render({ overlay: false, cellsOnly: true });
  }

  // The ± bound of the diverging colours: the given limit, or the largest
  // magnitude shown, counting where a morph starts (scaled keeps the scores'
  // scale, so its cells visibly pale). Canvas, legend and SVG all use it.
  colorBound() {
    const { limit, from, mode } = this.options;
    if (limit !== undefined && limit !== null) return limit;
    const largest = (values) => Array.prototype.reduce.call(values, (m, v) => (Number.isFinite(v) ? Math.max(m, Math.abs(v)) : m), 0);
    return Math.max(largest(this.matrix.data), from && mode === 'morph' ? largest(from) : 0);
  }

  // The legend in words, for a picture without the page around it.
  legendText() {
    return legend.legendText(this);
  }

  drawLegend() {
    return legend.drawLegend(this);
  }

  // The layout (heatmap-layout.js); width: the container's, when the caller read it already.
  measure({ width } = {}) {
    return layouts.measure(this, { width });
  }

  // Prints `decimals` where they fit (the view's one rule), else none.
  precision(layout, decimals) {
    return layouts.precision(this, layout, decimals);
  }

  // Measures and sizes the canvas without painting it: a view lays out
  // several matrices (their captions wrap to the new widths) before painting.
  place() {
    layouts.place(this);
  }

  // overlay: whether to place the outlines again (which reads the layout);
  // cellsOnly: the labels the canvas holds stay, only the cells' area is painted
  render({ overlay = true, cellsOnly = false } = {}) {
    if (!this.matrix) return;
    this.stale = false;
    // measuring every label costs more than a frame's drawing: once per draw()
    const layout = (this.layout ??= this.measure());
    const { rows, cols, cell, left, top, width, height, rotate } = layout;
    const ratio = this.exportRatio ?? (window.devicePixelRatio || 1);  // exportRatio: see export/picture.js snapshot()
    const size = `${this.canvas.width}x${this.canvas.height}`;
    resize(this.canvas, width, height, ratio);
    const g = this.canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = getComputedStyle(this.canvas);
    const ink = style.color || '#222';
    // a resized canvas was cleared, another theme has another ink: the labels again
    const labelled = !cellsOnly || size !== `${this.canvas.width}x${this.canvas.height}` || layout.ink !== ink;
    layout.ink = ink;
    if (labelled) g.clearRect(0, 0, width, height);
    else g.clearRect(left, top, width - left, height - top);
    g.font = layouts.defaults.font;

    const { data } = this.matrix;
    const { rowLabels = [], colLabels = [], marked = null, underline, reveal = 1, revealBy = 'cell', mode = 'fill', from, exps } = this.options;
    const bound = this.colorBound();
    // softmax: the rows' exponentials appear row by row, then are divided by their sums
    const phase = mode === 'softmax' && exps && reveal < 1 ? softmaxPhase(reveal) : null;
    const shown = phase ? rowsShown(phase.exps, rows) * cols
      : mode !== 'fill' ? rows * cols : revealBy === 'row' ? rowsShown(reveal, rows) * cols : Math.round(reveal * rows * cols);
    this.showPhase(phase);
    // What a cell shows at this point of the animation (exact at reveal = 1).
    const valueAt = (i) => {
      const to = data[i];
      if (phase) return exps[i] + (to - exps[i]) * phase.normalized;
      if (!from || reveal >= 1) return to;
      if (mode === 'morph' && Number.isFinite(to)) return from[i] + (to - from[i]) * reveal;
      if (mode === 'mask' && to === -Infinity && Math.floor(i / cols) >= reveal * rows) return from[i];
      return to;
    };
    // −∞ cells: the theme's --masked (dark grey in light mode, light grey in
    // dark mode, so they stand out from either panel), hatched in the other tone
    const maskedVar = style.getPropertyValue('--masked').trim();
    const masked = { color: /^#[0-9a-f]{6}$/i.test(maskedVar) ? maskedVar : maskedColor };
    masked.rgb = [1, 3, 5].map((i) => parseInt(masked.color.slice(i, i + 2), 16));
    masked.light = masked.rgb[0] > 128;

    // labels: thinned out when cells are small, so they never overlap
    g.fillStyle = ink;
    g.textBaseline = 'middle';
    const every = Math.max(1, Math.ceil(14 / cell));
    g.textAlign = 'right';
    // marked[i]: label i is marked apart (a token Generate wrote), by underline()
    const label = (text, x, y, on) => {
      g.fillText(text, x, y);
      if (on) underline(g, text, x, y, g.textAlign);
    };
    if (labelled) for (let r = 0; r < rows; r += every) if (rowLabels[r] !== undefined) label(clip(g, rowLabels[r], left - 6), left - 4, top + (r + 0.5) * cell, marked?.[r]);
    for (let c = 0; c < cols && labelled; c += every) {
      if (colLabels[c] === undefined) continue;
      const x = left + (c + 0.5) * cell;
      if (rotate) {
        g.save();
        g.translate(x, top - 4);
        g.rotate(-Math.PI / 2);
        g.textAlign = 'left';
        label(clip(g, colLabels[c], top - 8), 0, 0, marked?.[c]);
        g.restore();
      } else {
        g.textAlign = 'center';
        label(clip(g, colLabels[c], cell + 6), x, top - 9, marked?.[c]);
      }
    }

    const rgbOf = (v) => (this.scale === 'sequential' ? sequential(v) : this.scale === 'binary' ? (v ? [53, 183, 121] : masked.rgb) : diverging(v, bound));
    paintCells(g, layout, { shown, valueAt, rgbOf, masked, binary: this.scale === 'binary' });
    if (layout.sums && this.options.sums) this.drawSums(g, layout, phase, shown / cols, ink);
    this.drawChanges(g, layout);
    overlays.drawPatterns(this, g, layout);
    g.lineWidth = 1;
    if (overlay) this.drawOverlay();
  }

  // Marks, the node's row and the focused cell as outlines over the cells
  // (elements, not paint): a frame that only moves a highlight repaints no cell.
  drawOverlay() {
    if (!this.layout || this.exportRatio !== undefined) return;
    const boxes = overlays.overlayBoxes(this, this.layout);
    // no outline to place, none placed: where the empty overlay sits does not matter (reading it forces a layout)
    if (!boxes.length && !this.overlay.children.length) return;
    this.overlay.style.left = `${this.canvas.offsetLeft}px`;
    this.overlay.style.top = `${this.canvas.offsetTop}px`;
    while (this.overlay.children.length > boxes.length) this.overlay.lastChild.remove();
    while (this.overlay.children.length < boxes.length) element(this.overlay, 'div');
    boxes.forEach((box, k) => {
      const div = this.overlay.children[k];
      div.className = box.kind;
      Object.assign(div.style, { left: `${box.x}px`, top: `${box.y}px`, width: `${box.w}px`, height: `${box.h}px`,
        opacity: String(0.35 + 0.65 * box.strength), borderWidth: `${box.kind === 'mark-row' ? 1.5 + 1.5 * box.strength : box.kind === 'mark-cell' ? 3 : box.kind === 'focus' ? 2.5 : 2}px` });
    });
  }

  cellAt(event) {
    if (!this.layout) return null;
    const box = this.canvas.getBoundingClientRect();
    const { left, top, cell, rows, cols } = this.layout;
    const col = Math.floor((event.clientX - box.left - left) / cell);
    const row = Math.floor((event.clientY - box.top - top) / cell);
    return row >= 0 && row < rows && col >= 0 && col < cols ? { row, col } : null;
  }

  pick(cell, { click = false } = {}) {
    const same = cell && this.focus && cell.row === this.focus.row && cell.col === this.focus.col;
    if (cell) this.focus = cell;
    else if (this.canvas.getRootNode().activeElement !== this.canvas) this.focus = null;
    if (!same || click) this.drawOverlay();
    this.onCell(this, this.focus, { click });
  }

  onKey(event) {
    if (!this.layout) return;
    if (event.key === 'Enter' && this.onEdit) {
      event.preventDefault();
      this.startEdit(this.focus ?? { row: 0, col: 0 });
      return;
    }
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    const { rows, cols } = this.layout;
    const at = this.focus ?? { row: 0, col: 0 };
    this.pick({ row: Math.max(0, Math.min(rows - 1, at.row + move[0])), col: Math.max(0, Math.min(cols - 1, at.col + move[1])) });
  }

  drawSums(g, layout, phase, shownRows, ink) {
    return overlays.drawSums(this, g, layout, phase, shownRows, ink);
  }

  drawChanges(g, layout) {
    return overlays.drawChanges(this, g, layout);
  }

  // The phase of softmax's animation, for the caption and for tests.
  showPhase(phase) {
    const name = !phase ? 'done' : phase.normalized > 0 ? 'normalizing' : 'exponentials';
    if (this.options.mode !== 'softmax' || this.figure.dataset.phase === name) return;
    this.figure.dataset.phase = name;
    const note = this.caption.querySelector('.matrix-phase') ?? element(this.caption, 'span');
    note.className = 'matrix-phase';
    note.textContent = name === 'exponentials' ? 'exp(masked − row max), row by row'
      : name === 'normalizing' ? 'each row ÷ its sum' : 'every row sums to 1';
  }

  // What the step combines into the cell it is filling: rows of its inputs
  // (a strength 0 … 1 each: how much that row counts) and single cells.
  setMarks(marks) {
    const key = marks ? `${[...marks.rows.keys()].join(',')}|${marks.cells.map((c) => `${c.row}.${c.col}`).join(',')}` : '';
    if (key === (this.figure.dataset.marks ?? '')) return;
    this.marks = marks;
    if (key) this.figure.dataset.marks = key;
    else delete this.figure.dataset.marks;
    this.drawOverlay();
  }

  setHighlightRow(row) {
    if (row === this.highlightRow) return;
    this.highlightRow = row;
    if (row === null) delete this.figure.dataset.highlightRow;
    else this.figure.dataset.highlightRow = String(row);
    this.drawOverlay();
  }

  async toSVG() {
    const svgOf = await import('./heatmap-svg.js');  // only an SVG export needs it
    return svgOf.toSVG(this);
  }

  remove() {
    this.figure.remove();
  }
}
