// A custom mask: one toggle button per (query, key) cell. Clicking flips it;
// the page recomputes at once. A row with nothing allowed is the core's error
// to report, and the editor keeps what the learner clicked. The grid is one
// tab stop: arrow keys, Home and End move between its cells (a roving
// tabindex), so a 64 × 64 mask is not 4,096 stops.

import { maskLimit } from '../state/state.js';
import { create, element } from './dom.js';

export class MaskEditor {
  constructor(parent, { onChange }) {
    this.parent = parent;
    this.onChange = onChange;
  }

  show(mask, rowLabels, colLabels) {
    this.parent.textContent = '';
    // sizes before any button: one per cell, so a large mask would freeze the tab
    const columns = Math.max(0, ...mask.map((row) => row.length));
    if (mask.length > maskLimit || columns > maskLimit) {
      element(this.parent, 'p', { className: 'mask-editor-title', text: `The mask editor shows masks of up to ${maskLimit} × ${maskLimit}; this one is ${mask.length} × ${columns}.` });
      return;
    }
    this.mask = mask.map((row) => [...row]);
    const title = create('p', { id: 'mask-editor-title', className: 'mask-editor-title', text: 'Custom mask: click a cell to allow (1) or hide (0) that position; arrow keys move between cells' });
    // the cell that takes the tab stop: the last one used, else the first
    const rows = this.mask.length;
    const at = this.active && this.active.row < rows && this.active.col < columns ? this.active : { row: 0, col: 0 };
    this.active = at;
    const table = create('table', { className: 'mask-editor', attrs: { 'aria-labelledby': title.id } });
    const head = table.createTHead().insertRow();
    element(head, 'td');
    for (const label of colLabels) element(head, 'th', { scope: 'col', text: label });
    const body = table.createTBody();
    this.mask.forEach((row, i) => {
      const tr = body.insertRow();
      element(tr, 'th', { scope: 'row', text: rowLabels[i] ?? String(i) });
      row.forEach((value, j) => {
        const button = create('button', {
          type: 'button',
          className: 'mask-cell',
          text: String(value),
          tabIndex: i === at.row && j === at.col ? 0 : -1,
          // the visible 0/1 starts the accessible name (WCAG 2.5.3, label in name)
          attrs: { 'aria-pressed': value ? 'true' : 'false', 'aria-label': `${value}: ${rowLabels[i] ?? i} may attend to ${colLabels[j] ?? j}`, 'data-row': i, 'data-col': j },
        });
        button.addEventListener('click', () => {
          this.mask[i][j] = this.mask[i][j] ? 0 : 1;
          this.active = { row: i, col: j };
          this.refocus = { row: i, col: j };  // the table is rebuilt: focus comes back to this cell
          this.onChange(this.mask.map((r) => [...r]));
        });
        tr.insertCell().append(button);
      });
    });
    table.addEventListener('keydown', (e) => this.onKey(e, table, rows, columns));
    this.parent.append(title, table);
    if (this.refocus) {
      table.querySelector(`.mask-cell[data-row="${this.refocus.row}"][data-col="${this.refocus.col}"]`)?.focus();
      this.refocus = null;
    }
  }

  // Arrow keys, Home and End move the one tab stop between the cells.
  onKey(event, table, rows, columns) {
    const { row, col } = this.active;
    const moves = {
      ArrowUp: [row - 1, col], ArrowDown: [row + 1, col], ArrowLeft: [row, col - 1], ArrowRight: [row, col + 1],
      Home: [row, 0], End: [row, columns - 1],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();  // the player's keys stay out of the grid
    const next = { row: Math.max(0, Math.min(rows - 1, move[0])), col: Math.max(0, Math.min(columns - 1, move[1])) };
    const cell = (p) => table.querySelector(`.mask-cell[data-row="${p.row}"][data-col="${p.col}"]`);
    cell(this.active).tabIndex = -1;
    cell(next).tabIndex = 0;
    cell(next).focus();
    this.active = next;
  }

  hide() {
    this.parent.textContent = '';
  }
}
