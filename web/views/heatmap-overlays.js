// What a heatmap draws over its cells: softmax's Σ column, the rows and
// cells a step combines (its marks), and what the learner's edit changed.
import { formatNumber } from './format.js';

// softmax's Σ column: each row's sum of exponentials (from the core's
// explanation) while they show, "÷ sum" as they are divided, then "= 1".
export function drawSums(heatmap, g, { left, top, cols, cell, rows }, phase, shownRows, ink) {
  const x = left + cols * cell + 6;
  g.textAlign = 'left';
  g.fillStyle = ink;
  g.fillText(phase ? (phase.normalized > 0 ? '÷ Σ' : 'Σ exp') : 'Σ', x, top - 9);
  const every = Math.max(1, Math.ceil(14 / cell));  // thinned as the row labels are, so no two overlap
  for (let r = 0; r < rows && r < shownRows; r += every) {
    const sum = heatmap.options.sums[r];
    const text = !phase ? '= 1' : phase.normalized > 0 ? `÷ ${formatNumber(sum, 2)}` : formatNumber(sum, 2);
    g.fillText(text, x, top + (r + 0.5) * cell);
  }
}

// After an edit: the edited cell outlined twice, every cell the edit
// changed with a corner tab, so a learner sees what flowed downstream.
export function drawChanges(heatmap, g, { left, top, cols, cell }) {
  const { changed, edited } = heatmap.options;
  if (!changed && edited === undefined) return;  // nothing to mark: no style to read
  const color = getComputedStyle(heatmap.canvas).getPropertyValue('--mark').trim() || '#d9480f';
  g.fillStyle = color;
  if (changed) {
    const size = Math.max(3, Math.min(9, cell / 4));
    changed.forEach((c, i) => {
      if (!c) return;
      const x = left + (i % cols + 1) * cell, y = top + Math.floor(i / cols) * cell;
      g.beginPath();
      g.moveTo(x - size, y);
      g.lineTo(x, y);
      g.lineTo(x, y + size);
      g.fill();
    });
  }
  if (edited !== undefined) {
    const x = left + (edited % cols) * cell, y = top + Math.floor(edited / cols) * cell;
    // dark and light dashes: visible on any colour of the scale
    g.lineWidth = 3;
    g.strokeStyle = '#111';
    g.strokeRect(x + 1.5, y + 1.5, cell - 3, cell - 3);
    g.strokeStyle = '#fff';
    g.setLineDash([4, 3]);
    g.strokeRect(x + 1.5, y + 1.5, cell - 3, cell - 3);
    g.setLineDash([]);
    g.lineWidth = 1;
  }
}

// The ideal patterns a trained head is measured against (the core's
// head_scores.hpp), drawn over its cells: the previous-token diagonal as a
// dashed line through its cells, the induction cells as dashed squares,
// each in a dark and a light dash so it reads on any colour of the scale.
// options.patterns: {previous?: [[row, col], …], induction?: [[row, col], …]}
export function drawPatterns(heatmap, g, { left, top, cell }) {
  const { patterns } = heatmap.options;
  if (!patterns) return;
  const centre = ([r, c]) => [left + (c + 0.5) * cell, top + (r + 0.5) * cell];
  const twice = (dash, paint) => {
    for (const [color, width, offset] of [['#111', 3, 0], ['#fff', 1.5, dash[0]]]) {
      g.strokeStyle = color;
      g.lineWidth = width;
      g.setLineDash(dash);
      g.lineDashOffset = offset;
      g.beginPath();
      paint();
      g.stroke();
    }
    g.setLineDash([]);
    g.lineDashOffset = 0;
    g.lineWidth = 1;
  };
  const previous = patterns.previous ?? [];
  if (previous.length) twice([4, 4], () => previous.forEach((c, k) => (k ? g.lineTo(...centre(c)) : g.moveTo(...centre(c)))));
  const induction = patterns.induction ?? [];
  const inset = Math.max(1, cell * 0.15);
  if (induction.length) twice([3, 2], () => induction.forEach(([r, c]) => g.rect(left + c * cell + inset, top + r * cell + inset, cell - 2 * inset, cell - 2 * inset)));
}

// The outlines over the cells, as boxes for the heatmap's overlay: the rows
// and cells the step combines (as strong as they count), the graph node's row
// and the focused cell. {x, y, w, h, kind, strength}
export function overlayBoxes(heatmap, { left, top, cols, rows, cell }) {
  const boxes = [];
  for (const [row, strength] of heatmap.marks?.rows ?? [])
    if (row < rows) boxes.push({ x: left - 3, y: top + row * cell, w: cols * cell + 3, h: cell, kind: 'mark-row', strength });
  for (const { row, col } of heatmap.marks?.cells ?? [])
    if (row < rows && col < cols) boxes.push({ x: left + col * cell, y: top + row * cell, w: cell, h: cell, kind: 'mark-cell', strength: 1 });
  if (heatmap.highlightRow !== null && heatmap.highlightRow < rows)
    boxes.push({ x: left, y: top + heatmap.highlightRow * cell, w: cols * cell, h: cell, kind: 'node-row', strength: 1 });
  const f = heatmap.focus;
  if (f && f.row < rows && f.col < cols) boxes.push({ x: left + f.col * cell, y: top + f.row * cell, w: cell, h: cell, kind: 'focus', strength: 1 });
  return boxes;
}
