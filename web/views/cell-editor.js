// Typing into a cell of an editable matrix (x, a weight): an input over the
// cell; Enter keeps a finite value, Escape or leaving drops it, and a bad
// value gets a message under the input, read out as its description.
import { create } from './dom.js';

// An input over the cell; Enter keeps the value, Escape or leaving drops it.
export function startEdit(heatmap, cell) {
  if (!heatmap.onEdit || !cell || !heatmap.layout) return;
  heatmap.editor?.remove();
  const { left, top, cell: size } = heatmap.layout;
  const input = create('input', {
    type: 'number',
    step: 'any',
    className: 'cell-editor',
    value: String(heatmap.matrix.data[cell.row * heatmap.matrix.shape[1] + cell.col]),
    attrs: { 'aria-label': `New value for ${heatmap.label} [${cell.row}, ${cell.col}]` },
  });
  input.style.left = `${heatmap.canvas.offsetLeft + left + cell.col * size - 10}px`;
  input.style.top = `${heatmap.canvas.offsetTop + top + cell.row * size}px`;
  input.style.width = `${Math.max(size + 20, 76)}px`;
  input.style.height = `${Math.max(size, 26)}px`;
  heatmap.figure.append(input);
  heatmap.editor = input;
  input.focus();
  input.select();
  let closed = false;
  const close = () => {  // removing the input fires blur, which closes again
    if (closed) return;
    closed = true;
    input.remove();
    heatmap.figure.querySelector('.field-error.cell-error')?.remove();
    if (heatmap.editor === input) heatmap.editor = null;
  };
  input.addEventListener('keydown', (e) => {
    e.stopPropagation();
    if (e.key === 'Escape') {
      close();
      heatmap.canvas.focus();
    } else if (e.key === 'Enter') {
      const value = Number(input.value);
      if (input.value.trim() === '' || !Number.isFinite(value) || Math.abs(value) > 1e6) {
        input.setAttribute('aria-invalid', 'true');
        heatmap.editorMessage(input, 'a finite number from −1,000,000 to 1,000,000');
        return;
      }
      close();
      heatmap.canvas.focus();  // focus stays on the matrix the learner was editing
      heatmap.onEdit(heatmap, cell, value);
    }
  });
  input.addEventListener('blur', close);
}

// A visible message under the editor, read out as the input's description.
export function editorMessage(heatmap, input, text) {
  let message = heatmap.figure.querySelector('.field-error.cell-error');
  if (!message) {
    message = create('span', { className: 'field-error cell-error', id: `cell-error-${Math.random().toString(36).slice(2)}`, attrs: { role: 'alert' } });
    message.style.left = input.style.left;
    message.style.top = `${parseFloat(input.style.top) + parseFloat(input.style.height) + 4}px`;
    heatmap.figure.append(message);
    input.setAttribute('aria-describedby', message.id);
  }
  message.textContent = text;
}
