// A step's result too large for numbers (a real model's head: 26 queries ×
// 26 keys, or 26 × 64) is only colour at any width. Its last few rows are
// drawn again above it, at a cell size that prints their numbers (the block
// scrolls sideways when the page is narrower), with one line saying which
// rows they are; the whole matrix stays below as the heatmap it was. The
// numbers are the trace's, the same array's rows: nothing is computed here.
import { Heatmap } from './heatmap.js';
import { create, element } from './dom.js';

const shownRows = 8;  // the queries a learner can read at once (stage.js's zoomedRows)
const cell = 40;      // px: two decimals and a sign (−0.12) with room around them; at least heatmap's numbersFrom

export class ZoomRows {
  // onCell(heatmap, cell, how): a cell picked in the block, in the whole matrix's rows
  constructor(parent, { onCell = () => {} } = {}) {
    this.root = create('section', { className: 'zoom-rows', hidden: true });
    this.line = element(this.root, 'p', { className: 'zoom-rows-line' });
    this.box = element(this.root, 'div', { className: 'zoom-rows-box' });
    parent.prepend(this.root);
    this.onCell = onCell;
    this.heatmap = null;
    this.source = null;
  }

  // source: the step's result as drawn (a Heatmap); whether its numbers
  // print decides whether the block is needed.
  show(source) {
    const { matrix, options } = source ?? {};
    const needed = matrix && source.layout && !source.layout.numbers && matrix.shape[0] > shownRows;
    this.root.hidden = !needed;
    this.root.dataset.shown = String(Boolean(needed));
    if (!needed) return;
    const [rows, cols] = matrix.shape;
    const count = Math.min(shownRows, rows);
    const first = rows - count;
    const labels = options.rowLabels ?? [];
    const name = (r) => `‘${labels[r] ?? r}’`;
    // a step's rows are its query tokens (x's: its tokens)
    const whose = source.name === 'x' ? 'tokens’' : 'queries’';
    this.line.textContent = `Showing the last ${count} ${whose} rows of ${source.name}, ${name(first)} to ${name(rows - 1)}, with their numbers; `
      + `all ${rows} are in the heatmap below, too small for numbers. Point at a cell of either for how it was computed.`;
    this.root.dataset.rows = `${first}-${rows - 1}`;
    const block = { shape: [count, cols], data: matrix.data.subarray(first * cols, rows * cols) };  // the same numbers, rows first … rows − 1
    this.first = first;
    this.source = source;
    if (!this.heatmap) {
      this.heatmap = new Heatmap(this.box, {
        name: source.name,
        hook: 'zoom',
        label: '',
        scale: source.scale,
        onCell: (h, c, how) => this.onCell(this.source, c && { row: c.row + this.first, col: c.col }, how),
      });
    }
    this.heatmap.name = source.name;
    this.heatmap.scale = source.scale;
    this.heatmap.label = `${source.label}, rows ${first} to ${rows - 1}`;
    const fromRows = (values) => (values?.length === rows * cols ? values.slice(first * cols, rows * cols) : undefined);
    const blockOptions = {
      rowLabels: labels.slice(first),
      colLabels: options.colLabels,
      maxCell: cell,  // as large as the width gives, up to this
      decimals: 2,
      // diverging colours on the whole matrix's scale, so the block and the heatmap agree
      limit: source.colorBound(),
      // softmax's column of row sums ("= 1") beside the rows, as below
      mode: options.mode === 'softmax' ? 'softmax' : 'fill',
      sums: options.sums?.slice(first),
      exps: fromRows(options.exps),
      reveal: 1,
    };
    this.heatmap.draw(block, blockOptions);
    // narrower than the numbers need (a phone): cells that print them, scrolled sideways
    if (!this.heatmap.layout.numbers) this.heatmap.draw(block, { ...blockOptions, cell });
  }

  hide() {
    this.root.hidden = true;
    this.root.dataset.shown = 'false';
  }

  remove() {
    this.heatmap?.remove();
    this.root.remove();
  }
}
