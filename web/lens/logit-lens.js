// The logit lens (lens-v1.md section 3) as a grid: a row a layer (after the
// embeddings, then after each block), a column a position; each cell the
// core's top token there and its probability, coloured by the probability
// of the model's final choice at that position (viridis, the heads' scale).
// A cell is a button: it opens its top 5 under the grid.
import { css, sequential } from '../views/colors.js';
import { percent } from '../views/next-tokens.js';
import { escapeXml, tokenText } from '../views/format.js';
import { element, inkOn } from './dom.js';

export class LogitLens {
  constructor(body, panel) {
    this.panel = panel;
    this.about = 'What you see: each row reads the residual stream (the running sum each layer adds its output to) after one more layer, '
      + 'through the model’s final norm and unembedding (the matrix that turns it into a score, a logit, for each token), as if the model stopped there: '
      + 'a cell shows the top next-token guess at that position and its probability, coloured by the probability of the model’s final choice (bottom row). '
      + 'What to do: look down a column for the layer where the answer appears; click a cell for its top 5.';
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
    });
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
