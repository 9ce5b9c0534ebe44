// A heatmap as SVG for the export: the same cells, colours, numbers and
// labels as its canvas, on the same colour bound.
import { css, diverging, sequential, textOn } from './colors.js';
import { escapeXml, formatNumber } from './format.js';

// The matrix as SVG (cells, numbers when they fit, labels), for export.
// heatmap: a Heatmap, or anything with its name, label, scale, matrix,
// options, layout and colorBound() (the static figures of `make dist`).
export function toSVG(heatmap) {
  const L = heatmap.layout ?? heatmap.measure();
  const { data } = heatmap.matrix;
  const { rowLabels = [], colLabels = [] } = heatmap.options;
  const bound = heatmap.colorBound();
  const text = (x, y, t, anchor = 'middle', fill = '#222') =>
    `<text x="${x}" y="${y}" text-anchor="${anchor}" dominant-baseline="middle" fill="${fill}">${escapeXml(t)}</text>`;
  // the caption on a line of its own, above the column labels
  const parts = [`<g class="heatmap" data-name="${escapeXml(heatmap.name)}">`, text(0, 8, `${heatmap.label} (${L.rows} × ${L.cols})`, 'start'), '<g transform="translate(0 18)">'];
  for (let r = 0; r < L.rows; r++) if (rowLabels[r] !== undefined) parts.push(text(L.left - 4, L.top + (r + 0.5) * L.cell, rowLabels[r], 'end'));
  for (let c = 0; c < L.cols; c++) if (colLabels[c] !== undefined) parts.push(text(L.left + (c + 0.5) * L.cell, L.top - 8, colLabels[c]));
  for (let r = 0; r < L.rows; r++)
    for (let c = 0; c < L.cols; c++) {
      const v = data[r * L.cols + c];
      const rgb = v === -Infinity ? [58, 58, 58] : heatmap.scale === 'sequential' ? sequential(v) : heatmap.scale === 'binary' ? (v ? [53, 183, 121] : [58, 58, 58]) : diverging(v, bound);
      const x = L.left + c * L.cell, y = L.top + r * L.cell;
      parts.push(`<rect class="cell" x="${x}" y="${y}" width="${L.cell}" height="${L.cell}" fill="${css(rgb)}"/>`);
      if (L.numbers) parts.push(text(x + L.cell / 2, y + L.cell / 2, heatmap.scale === 'binary' ? String(v) : formatNumber(v, L.decimals), 'middle', v === -Infinity ? '#fff' : textOn(rgb)));
    }
  parts.push('</g></g>');
  return { svg: parts.join('\n'), width: L.width, height: L.height + 18 };
}
