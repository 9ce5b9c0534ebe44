// A custom mask: one toggle button per (query, key) cell. Clicking flips it;
// the page recomputes at once. A row with nothing allowed is the core's error
// to report, and the editor keeps what the learner clicked.

export class MaskEditor {
  constructor(parent, { onChange }) {
    this.parent = parent;
    this.onChange = onChange;
  }

  show(mask, rowLabels, colLabels) {
    this.mask = mask.map((row) => [...row]);
    this.parent.textContent = '';
    const title = document.createElement('p');
    title.id = 'mask-editor-title';
    title.className = 'mask-editor-title';
    title.textContent = 'Custom mask: click a cell to allow (1) or hide (0) that position';
    const table = document.createElement('table');
    table.className = 'mask-editor';
    table.setAttribute('aria-labelledby', title.id);
    const head = table.createTHead().insertRow();
    head.append(document.createElement('td'));
    for (const label of colLabels) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = label;
      head.append(th);
    }
    const body = table.createTBody();
    this.mask.forEach((row, i) => {
      const tr = body.insertRow();
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = rowLabels[i];
      tr.append(th);
      row.forEach((value, j) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'mask-cell';
        button.textContent = String(value);
        button.setAttribute('aria-pressed', value ? 'true' : 'false');
        button.setAttribute('aria-label', `${rowLabels[i]} may attend to ${colLabels[j]}`);
        button.dataset.row = i;
        button.dataset.col = j;
        button.addEventListener('click', () => {
          this.mask[i][j] = this.mask[i][j] ? 0 : 1;
          this.onChange(this.mask.map((r) => [...r]));
        });
        tr.insertCell().append(button);
      });
    });
    this.parent.append(title, table);
  }

  hide() {
    this.parent.textContent = '';
  }
}
