// A step's matrices, laid out and animated: each line of the step's plan
// (stage-plan.js) shares the width with cells of one size, the first line
// fits the height the page allows it, and one precision holds for every
// matrix shown. The animation reveals them: the products filling scores,
// the scaling, −∞ appearing above the diagonal, rows of weights normalizing,
// the weighted sum building out.
import { viewDecimals } from './format.js';
import { Heatmap, defaults as heatmapDefaults } from './heatmap.js';
import { activeRow, changesOf, marksFor, outRow, plan } from './stage-plan.js';
import { create, element } from './dom.js';

// What each step makes: on the first screen whatever else does not fit.
const results = { x: ['x'], qkv: ['q', 'k', 'v'], rotate: ['q_rotated', 'k_rotated'], scores: ['scores'], scaled: ['scaled'], masked: ['masked'], weights: ['weights'], out: ['out'] };
const gap = 22;
const numbersCell = 42;  // px that print two decimals of most numbers (−1.23)  // px between the matrices of a line (views.css: .matrix-line's gap)
const legendHeight = 28;  // the legend under a matrix
const zoomedRows = 8;  // zoom-rows.js's block: a result with more rows than this, too small for numbers, gets one

export class Stage {
  // fitBottom(): the page's y (from the top of the document) that the first
  // line's matrices must end above, or null: they take the cells the width gives
  constructor(parent, { onCell, onEdit, fitBottom = () => null }) {
    this.parent = parent;
    // a cell the learner points at in the step's result shows what it combines
    this.onCell = (heatmap, cell, how) => {
      this.pinned = cell && heatmap.name === this.at?.step ? { ...cell } : null;
      this.mark();
      onCell(heatmap, cell, how);
    };
    this.onEdit = onEdit;  // (tensor name, flat index, value)
    this.fitBottom = fitBottom;
    this.views = [];
    this.key = '';
    // a result too large for numbers: its last rows again, numbered, above
    // it (zoom-rows.js, loaded when a step first needs it)
    this.zoom = null;
  }

  // Rebuilds the panels when the step, head, batch or trace changes; else
  // only redraws them at the new point of the animation.
  // edit: {baseline, name, index}: the trace before the learner's last edit
  // and that edit, to mark the cell and everything it changed
  show(trace, { head, batch, step, progress, edit = null }) {
    const key = `${trace.id}|${head}|${batch}|${step}|${edit?.baseline.id ?? ''}`;
    const fresh = key !== this.key;
    if (fresh) {
      this.key = key;
      this.pinned = null;
      this.outRowShown = null;
      // a new trace (an edit, a toggle) rebuilds the panels: keep the
      // learner's focus on the matrix of the same name
      const focused = this.views.find((v) => v.heatmap.figure.contains(document.activeElement))?.heatmap;
      const refocus = focused ? focused.name : null;
      for (const view of this.views) view.heatmap.remove();
      this.parent.textContent = '';
      if (this.zoom) this.parent.append(this.zoom.root);
      const panels = plan(trace, head, batch)[step].filter(Boolean);
      if (panels.length === 0) {
        element(this.parent, 'p', { className: 'note', text: 'This head names no query, key or value: every allowed position gets the same affinity, and it averages x itself.' });
      }
      const before = edit ? plan(edit.baseline, head, batch)[step].filter(Boolean) : [];
      for (const panel of panels) panel.changes = changesOf(panel, before, edit);
      const lines = new Map();
      const lineOf = (n) => {
        if (!lines.has(n)) lines.set(n, create('div', { className: 'matrix-line' }));
        return lines.get(n);
      };
      this.views = panels.map((panel) => ({
        panel,
        heatmap: new Heatmap(lineOf(panel.line ?? 0), {
          name: panel.name,
          hook: panel.hook ?? panel.name,
          label: panel.label,
          scale: panel.scale,
          onCell: this.onCell,
          onEdit: panel.tensor && this.onEdit
            ? (_, cell, value) => this.onEdit(panel.tensor.name, panel.tensor.offset + cell.row * panel.matrix.shape[1] + cell.col, value)
            : null,
        }),
      }));
      for (const n of [...lines.keys()].sort((a, b) => a - b)) this.parent.append(lines.get(n));
      this.at = { trace, head, batch, step, progress };
      if (step === 'out') this.fillOutRow(true);
      for (const { panel, heatmap } of this.views) {
        const animated = Object.keys(panel.animation).length > 0;
        heatmap.prepare(panel.matrix, { rowLabels: panel.rows, colLabels: panel.cols, note: panel.note, shape: panel.shape, ...panel.animation, ...panel.changes, reveal: animated ? progress : 1 });
      }
      this.layout();
      const again = this.views.find((v) => v.heatmap.name === refocus)?.heatmap;
      again?.canvas.focus();
    } else {
      for (const { panel, heatmap } of this.views) {
        const animated = Object.keys(panel.animation).length > 0;
        if (animated && heatmap.options.reveal !== progress) {
          // a frame of the animation: only the animated panels, only their canvas
          heatmap.options.reveal = progress;
          heatmap.render();
        }
      }
    }
    this.at = { trace, head, batch, step, progress };
    this.mark();
  }

  // Sizes every line's cells, then paints: one cell size per line (the
  // lines below no larger than the first), the first line ending above the
  // page's fitBottom(), the captions of a line equally tall so their rows
  // line up, and one precision for every matrix shown.
  layout() {
    const views = this.views.filter((v) => v.heatmap.matrix);
    const lines = new Map();
    for (const v of views) {
      const n = v.panel.line ?? 0;
      if (!lines.has(n)) lines.set(n, []);
      lines.get(n).push(v.heatmap);
    }
    const order = [...lines.keys()].sort((a, b) => a - b).map((n) => lines.get(n));
    const width = this.parent.clientWidth || 600;
    const bottom = this.fitBottom();
    let apart = false;  // the first line's matrices each on a row of their own
    const size = (limit) => {
      let first = limit;
      order.forEach((line, n) => {
        const { cells, alone } = lineCells(line, width, first);
        if (n === 0) apart = alone;
        line.forEach((h, i) => { h.options.cell = cells[i]; });
        first ??= Math.max(...cells);
        for (const h of line) h.place();
        if (!alone) evenCaptions(line);
      });
    };
    size(null);
    if (apart) {
      // too wide to share a row: the step's results lead, its inputs follow
      const made = results[this.at?.step] ?? [];
      const line = order[0];
      const lead = line.filter((h) => made.includes(h.name));
      for (const h of [...lead].reverse()) h.figure.parentElement.prepend(h.figure);
      order[0] = [...lead, ...line.filter((h) => !lead.includes(h))];
    }
    // the height the first line may take, now that its captions are set
    // (apart: the first matrix's; the rest scroll with the page)
    if (bottom !== null && order.length) {
      const fitted = apart ? order[0].slice(0, 1) : order[0];
      // never smaller than two decimals need: a page pushed down (a mask editor
      // above) scrolls rather than drop the numbers
      const room = Math.max(numbersCell, Math.min(...fitted.map((h) => roomForCells(h, bottom))));
      if (apart && room < fitted[0].options.cell) {
        fitted[0].options.cell = Math.max(heatmapDefaults.minCell, room);
        fitted[0].place();
      } else if (!apart && room < Math.max(...fitted.map((h) => h.options.cell))) size(room);
    }
    // one precision for the view: 4 decimals only where all fit them
    const decimals = viewDecimals(views.map(({ heatmap }) => heatmap.layout.fit));
    for (const { heatmap } of views) {
      heatmap.options.decimals = decimals;
      heatmap.precision(heatmap.layout, decimals);
      heatmap.render();
      heatmap.drawLegend();
    }
    const made = results[this.at?.step] ?? [];
    const result = views.find((v) => made.includes(v.heatmap.name))?.heatmap;
    // more rows than the block shows (a real model's head): the presets' few rows keep their one view
    const large = result && !result.layout.numbers && result.matrix.shape[0] > zoomedRows;
    if (large || this.zoom) this.showZoom(large ? result : null);
  }

  // The zoomed rows of `result` (null: none), once their module is here.
  async showZoom(result) {
    if (!this.zoom) {
      const { ZoomRows } = await import('./zoom-rows.js');
      this.zoom ??= new ZoomRows(this.parent, { onCell: this.onCell });
    }
    if (result && !this.views.some((v) => v.heatmap === result)) return;  // the stage was rebuilt meanwhile
    if (!this.zoom.root.isConnected) this.parent.prepend(this.zoom.root);
    this.zoom.show(result);
  }

  // The out step's weights row and products follow the row being built.
  fillOutRow(fresh = false) {
    const { trace, head, batch, step, progress } = this.at;
    if (step !== 'out') return;
    const result = trace.step(head, 'out', batch);
    const row = activeRow(step, progress, result, this.pinned)?.row ?? 0;
    if (row === this.outRowShown) return;
    this.outRowShown = row;
    const filled = outRow(trace, head, batch, row);
    for (const { panel, heatmap } of this.views) {
      const next = filled[panel.name];
      if (!next) continue;
      panel.matrix = next.matrix;
      heatmap.label = next.label;
      if (next.cols) panel.cols = next.cols;
      panel.note = next.note;
      if (fresh) continue;  // show() prepares and lays out every panel
      heatmap.prepare(panel.matrix, { ...heatmap.options, colLabels: panel.cols, note: panel.note });
      heatmap.layout = heatmap.measure();
      heatmap.render();
      heatmap.drawLegend();
    }
  }

  // Light up what the step combines: the animation's current cell or row,
  // or the one the learner points at; the end state keeps the last one.
  mark() {
    if (!this.at) return;
    const { trace, head, batch, step, progress } = this.at;
    const rowWise = step === 'qkv' || step === 'rotate';  // marked by progress, row after row
    const result = this.views.find((v) => v.panel.name === ({ qkv: 'q', rotate: 'q_rotated' }[step] ?? step))?.panel.matrix;
    if (!result && !rowWise) return;
    this.fillOutRow();
    const active = rowWise ? null : activeRow(step, progress, result, this.pinned);
    const marks = marksFor(step, active, trace, head, batch, progress);
    for (const { panel, heatmap } of this.views) heatmap.setMarks(marks[panel.name] ?? null);
  }

  redraw() {
    if (this.views.length) this.layout();
  }

  heatmaps() {
    return this.views.map((v) => v.heatmap);
  }
}

// The cells of one line: the width shared in proportion to the columns, at
// most `limit` px (the height the page allows) and maxCell. Sharing that
// would cost the numbers each matrix shows alone gives each the whole width.
function lineCells(line, width, limit) {
  for (const h of line) h.caption.style.minHeight = '';
  const chrome = line.map((h) => h.chrome());
  const cols = line.map((h) => h.matrix.shape[1]);
  const rows = line.map((h) => h.matrix.shape[0]);
  const cap = (c, i) => Math.max(heatmapDefaults.minCell, Math.min(c, heatmapDefaults.maxCell,
    Math.floor(heatmapDefaults.maxHeight / rows[i]), limit ?? Infinity));
  const fixed = chrome.reduce((n, c) => n + c.left + c.sums + 4, 0) + gap * (line.length - 1);
  const shared = Math.floor((width - fixed) / cols.reduce((a, b) => a + b, 0));
  const one = Math.min(...line.map((_, i) => cap(shared, i)));
  const alone = line.map((_, i) => cap(Math.floor((width - chrome[i].left - chrome[i].sums - 4) / cols[i]), i));
  if (line.length > 1 && one < heatmapDefaults.numbersFrom && alone.some((c) => c >= heatmapDefaults.numbersFrom)) {
    const free = line.map((_, i) => Math.max(heatmapDefaults.minCell, Math.min(heatmapDefaults.maxCell,
      Math.floor(heatmapDefaults.maxHeight / rows[i]), Math.floor((width - chrome[i].left - chrome[i].sums - 4) / cols[i]))));
    return { cells: free, alone: true };
  }
  return { cells: line.map(() => one), alone: false };
}

// How large a cell may be for the matrix to end above `bottom`: its canvas
// starts under its caption; the column labels and the legend take their room.
function roomForCells(heatmap, bottom) {
  const top = heatmap.canvas.getBoundingClientRect().top + window.scrollY;
  return Math.floor((bottom - top - heatmap.layout.top - legendHeight) / heatmap.matrix.shape[0]);
}

// The captions of a line as tall as its tallest (a phase note, a count of
// changes), so the first rows of its matrices line up.
function evenCaptions(line) {
  for (const h of line) h.caption.style.minHeight = '';
  const tallest = Math.max(...line.map((h) => h.caption.offsetHeight));
  for (const h of line) h.caption.style.minHeight = `${tallest}px`;
}
