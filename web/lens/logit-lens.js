// The logit lens (lens-v1.md section 3) as a grid: a row a layer (after the
// embeddings, then after each block), a column a position; each cell the
// core's top token there and its probability, coloured by the probability
// of the model's final choice at that position (viridis, the heads' scale).
// A cell is a button: it opens its top 5 under the grid. The grid is one tab
// stop (roving tabindex, as the heads grid): the arrows move between cells,
// Home and End along a row, Ctrl+Home and Ctrl+End to its corners, the top 5
// following; the stop starts on the output's last position, where Generate
// continues. Only that cell carries a spoken name (its row, position and
// guess): 1,560 of them in the markup would lengthen the draw.
import { css, sequential } from '../views/colors.js';
import { percent } from '../views/next-tokens.js';
import { escapeXml, tokenText } from '../views/format.js';
import { touchScreen } from '../views/touch.js';
import { element, inkOn, spokenToken } from './dom.js';

export class LogitLens {
  constructor(body, panel) {
    this.panel = panel;
    this.about = 'What you see: each row reads the residual stream (the running sum each layer adds its output to) after one more layer, '
      + 'through the model’s final norm and unembedding (the matrix that turns it into a score, a logit, for each token), as if the model stopped there: '
      + 'a cell shows the top next-token guess at that position and its probability, coloured by the probability of the model’s final choice (bottom row). '
      + `What to do: look down a column for the layer where the answer appears; ${touchScreen() ? 'tap a cell' : 'click a cell, or move with the arrow keys,'} for its top 5.`;
    this.named = null;
    const legend = element(body, 'p', { className: 'legend lens-legend' });
    element(legend, 'span', { className: 'lens-legend-text', textContent: 'Colour: how likely the final choice (bottom row) already is. Number: this guess’s own probability.' });
    element(legend, 'span', { className: 'legend-label', textContent: '0' });
    element(legend, 'span', { className: 'legend-bar legend-sequential' });
    element(legend, 'span', { className: 'legend-label', textContent: '1' });
    const scroll = element(body, 'div', { className: 'lens-scroll' });
    this.table = element(scroll, 'table', { className: 'lens-table lens-grid' });
    this.table.addEventListener('click', (event) => {
      const cell = event.target.closest('button[data-row]');
      if (!cell) return;
      this.open(Number(cell.dataset.row), Number(cell.dataset.position), cell);
      // the top 5 under a tall grid can be past the window's bottom: a click that changed nothing in sight
      this.detail.scrollIntoView({ block: 'nearest' });
    });
    this.table.addEventListener('keydown', (event) => this.onKey(event));
    this.detail = element(body, 'div', { className: 'lens-cell-detail' });
    this.detail.setAttribute('aria-live', 'polite');
    this.json = null;
    this.cell = null;  // the cell open: [row, position]
    this.stop = null;  // the one cell Tab reaches
  }

  request() { return { what: 'logit-lens' }; }

  clear() {
    this.json = null;
    this.table.textContent = '';
    this.detail.textContent = '';
  }

  // the last row is what the model outputs: named so
  rowName(row) {
    const last = this.json && row === this.json.layers.length - 1;
    return row === 0 ? 'embeddings' : `after layer ${row - 1}${last ? ' (the output)' : ''}`;
  }

  // The grid as one piece of markup (every text escaped): 13 layers × 120
  // positions is 1,560 buttons, which element by element took the page a long task.
  draw(json, view) {
    // a cell focused while a new answer came (typing, Generate): focused again once redrawn
    const had = this.table.contains(document.activeElement) ? document.activeElement.dataset : null;
    this.json = json;
    const label = (id) => escapeXml(tokenText(this.panel.label([id])[0]));
    const T = json.tokens.length;
    const head = view.labels.slice(0, T).map((text, t) => `<th scope="col"><span class="lens-position">${t}</span><span class="lens-input">${escapeXml(tokenText(text))}</span></th>`);
    const rows = json.layers.map((cells, row) => {
      const tds = cells.map(({ top, final }, t) => {
        const [id, p] = top[0];
        return `<td><button type="button" class="lens-cell" data-row="${row}" data-position="${t}" data-top="${id}" data-final="${final}" title="the final choice ${percent(final)}">`
          + `<span class="lens-cell-token">${label(id)}</span><span class="lens-cell-p">${percent(p)}</span></button></td>`;
      });
      return `<tr${row === json.layers.length - 1 ? ' class="lens-last-row"' : ''}><th scope="row">${this.rowName(row)}</th>${tds.join('')}</tr>`;
    });
    const final = json.final.map((id) => `<td class="lens-final" data-id="${id}">${label(id)}</td>`);
    this.table.innerHTML = '<caption class="visually-hidden">The logit lens: the top guess at each layer and position</caption>'
      + `<colgroup><col class="lens-row-names">${'<col>'.repeat(T)}</colgroup>`
      + `<thead><tr><th scope="col" class="lens-corner">position</th>${head.join('')}</tr></thead>`
      + `<tbody>${rows.join('')}</tbody><tfoot><tr><th scope="row">final choice</th>${final.join('')}</tr></tfoot>`;
    this.table.style.width = `${7.2 + 4.4 * T}em`;
    // new tokens: the grid opens on its last positions, the one Generate
    // continues from (a long text's end was past the box's right edge)
    const tokens = json.tokens.join(',');
    const scroll = this.table.parentElement;
    // in the frame's own layout: set now, it forced the 1,560 cells' layout into this task
    if (tokens !== this.drawnTokens) requestAnimationFrame(() => { scroll.scrollLeft = scroll.scrollWidth; });
    this.drawnTokens = tokens;
    // the colours through the CSSOM: a strict CSP (style-src 'self') refuses style attributes in markup
    const cells = this.table.querySelectorAll('.lens-cell');
    json.layers.flat().forEach(({ final }, n) => {
      const colour = sequential(final);
      cells[n].style.background = css(colour);
      cells[n].style.color = inkOn(colour);
      cells[n].tabIndex = -1;
    });
    this.stop = null;
    const [row, t] = this.cell ?? [];
    if (this.cell && row < json.layers.length && t < T) this.open(row, t);
    else {
      this.detail.textContent = '';
      this.rove(this.button(json.layers.length - 1, T - 1));
    }
    if (had) {
      this.rove(this.button(had.row, had.position) ?? this.stop);
      this.stop?.focus({ preventScroll: true });
    }
  }

  button(row, t) {
    return this.table.querySelector(`.lens-cell[data-row="${row}"][data-position="${t}"]`);
  }

  // The tab stop moves to `button`, named for a screen reader.
  rove(button) {
    if (!button || !this.json) return;
    if (this.stop && this.stop !== button) {
      this.stop.tabIndex = -1;
      this.stop.removeAttribute('aria-label');
    }
    const row = Number(button.dataset.row), t = Number(button.dataset.position);
    const [id, p] = this.json.layers[row][t].top[0];
    const input = tokenText(this.panel.view.labels[t] ?? '');
    button.tabIndex = 0;
    button.setAttribute('aria-label', `${this.rowName(row)}, position ${t} (${spokenToken(input)}): top guess ${spokenToken(tokenText(this.panel.label([id])[0]))}, ${percent(p)}`);
    this.stop = button;
  }

  // Arrows, Home and End (with Ctrl: the grid's corners) open the next cell and focus it.
  onKey(event) {
    const cell = event.target.closest('button[data-row]');
    if (!cell || !this.json || event.altKey || event.shiftKey) return;
    const corner = event.ctrlKey || event.metaKey;
    if (corner && event.key !== 'Home' && event.key !== 'End') return;  // Cmd+← is the browser's Back
    const L = this.json.layers.length, T = this.json.tokens.length;
    const row = Number(cell.dataset.row), t = Number(cell.dataset.position);
    const to = {
      ArrowUp: [row - 1, t], ArrowDown: [row + 1, t], ArrowLeft: [row, t - 1], ArrowRight: [row, t + 1],
      Home: corner ? [0, 0] : [row, 0], End: corner ? [L - 1, T - 1] : [row, T - 1],
    }[event.key];
    if (!to) return;
    event.preventDefault();
    event.stopPropagation();  // the view's own keys stay out of the grid
    const next = [Math.max(0, Math.min(L - 1, to[0])), Math.max(0, Math.min(T - 1, to[1]))];
    this.open(next[0], next[1]);
    this.stop?.focus();
  }

  // A cell's top 5 under the grid.
  open(row, t, button = null) {
    if (!this.json) return;
    this.cell = [row, t];
    // the cell open is the current one of the grid (one at a time: not a toggle)
    for (const on of this.table.querySelectorAll('.lens-cell[aria-current]')) on.removeAttribute('aria-current');
    const cell = button ?? this.button(row, t);
    cell?.setAttribute('aria-current', 'true');
    this.rove(cell);
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
