// The logit lens (lens-v1.md section 3) as a grid: a row a layer (after the
// embeddings, then after each block), a column a position; each cell the
// core's top token there and its probability, coloured by the probability
// of the model's final choice at that position (viridis, the heads' scale).
// A cell is a button: it opens its top 5 under the grid.
import { css, sequential } from '../views/colors.js';
import { percent } from '../views/next-tokens.js';
import { tokenText } from '../views/format.js';
import { element, inkOn } from './dom.js';

export class LogitLens {
  constructor(body, panel) {
    this.panel = panel;
    this.about = 'Each row reads the residual stream after one more layer through the model’s final norm and unembedding, as if the model stopped there: '
      + 'a cell shows the top next-token guess at that position and its probability, and its colour is the probability of the model’s final choice (bottom row), so you can see at which layer the answer appears; click a cell for its top 5.';
    this.named = null;
    const legend = element(body, 'p', { className: 'legend lens-legend' });
    element(legend, 'span', { className: 'legend-label', textContent: 'probability of the final choice 0' });
    element(legend, 'span', { className: 'legend-bar legend-sequential' });
    element(legend, 'span', { className: 'legend-label', textContent: '1' });
    const scroll = element(body, 'div', { className: 'lens-scroll' });
    this.table = element(scroll, 'table', { className: 'lens-table lens-grid' });
    element(this.table, 'caption', { className: 'visually-hidden', textContent: 'The logit lens: top guess per layer and position' });
    this.table.addEventListener('click', (event) => {
      const cell = event.target.closest('button[data-row]');
      if (cell) this.open(Number(cell.dataset.row), Number(cell.dataset.position), cell);
    });
    this.detail = element(body, 'div', { className: 'lens-cell-detail' });
    this.detail.setAttribute('aria-live', 'polite');
    this.json = null;
    this.cell = null;  // the cell open: [row, position]
  }

  request() { return { what: 'logit-lens' }; }

  clear() {
    this.json = null;
    this.table.replaceChildren(this.table.caption);
    this.detail.textContent = '';
  }

  rowName(row) { return row === 0 ? 'embeddings' : `after layer ${row - 1}`; }

  draw(json, view) {
    this.json = json;
    const label = (id) => tokenText(this.panel.label([id])[0]);
    const T = json.tokens.length;
    this.table.replaceChildren(this.table.caption);
    const head = element(element(this.table, 'thead'), 'tr');
    element(head, 'th', { scope: 'col', className: 'lens-corner', textContent: 'layer \\ position' });
    view.labels.slice(0, T).forEach((text, t) => {
      const th = element(head, 'th', { scope: 'col' });
      element(th, 'span', { className: 'lens-position', textContent: String(t) });
      element(th, 'span', { className: 'lens-input', textContent: tokenText(text) });
    });
    const rows = element(this.table, 'tbody');
    json.layers.forEach((cells, row) => {
      const tr = element(rows, 'tr');
      if (row === json.layers.length - 1) tr.className = 'lens-last-row';
      element(tr, 'th', { scope: 'row', textContent: this.rowName(row) });
      cells.forEach(({ top, final }, t) => {
        const td = element(tr, 'td');
        const colour = sequential(final);
        const button = element(td, 'button', { type: 'button', className: 'lens-cell' });
        Object.assign(button.dataset, { row: String(row), position: String(t), top: String(top[0][0]), final: String(final) });
        button.style.background = css(colour);
        button.style.color = inkOn(colour);
        element(button, 'span', { className: 'lens-cell-token', textContent: label(top[0][0]) });
        element(button, 'span', { className: 'lens-cell-p', textContent: percent(top[0][1]) });
        button.setAttribute('aria-label', `${this.rowName(row)}, position ${t}: ${label(top[0][0])} ${percent(top[0][1])}; the final choice ${percent(final)}`);
      });
    });
    const foot = element(element(this.table, 'tfoot'), 'tr');
    element(foot, 'th', { scope: 'row', textContent: 'final choice' });
    for (const id of json.final) element(foot, 'td', { className: 'lens-final', textContent: label(id) }).dataset.id = String(id);
    const [row, t] = this.cell ?? [];
    if (this.cell && row < json.layers.length && t < T) this.open(row, t);
    else this.detail.textContent = '';
  }

  // A cell's top 5 under the grid.
  open(row, t, button = null) {
    if (!this.json) return;
    this.cell = [row, t];
    for (const on of this.table.querySelectorAll('.lens-cell[aria-pressed="true"]')) on.setAttribute('aria-pressed', 'false');
    (button ?? this.table.querySelector(`.lens-cell[data-row="${row}"][data-position="${t}"]`))?.setAttribute('aria-pressed', 'true');
    const { top, final } = this.json.layers[row][t];
    const label = (id) => tokenText(this.panel.label([id])[0]);
    const input = tokenText(this.panel.view.labels[t] ?? '');
    this.detail.textContent = '';
    element(this.detail, 'p', { className: 'lens-cell-title', textContent: `${this.rowName(row)[0].toUpperCase()}${this.rowName(row).slice(1)}, position ${t} (${JSON.stringify(input)}): its top 5; the model’s final choice here, ${JSON.stringify(label(this.json.final[t]))}, has ${percent(final)}` });
    const list = element(this.detail, 'ol', { className: 'lens-top5' });
    for (const [id, p] of top) {
      const item = element(list, 'li');
      item.dataset.id = String(id);
      item.dataset.p = String(p);
      element(item, 'span', { className: 'lens-top5-token', textContent: label(id) });
      const track = element(item, 'span', { className: 'lens-top5-bar' });
      element(track, 'span').style.width = `${p * 100}%`;
      element(item, 'span', { className: 'lens-top5-p', textContent: percent(p) });
    }
  }
}
