// All heads at once: small multiples of every head's matrix for the current
// step (its scores, scaled or masked; the weights at the other steps) and its
// graph, on one colour scale shared by all heads and said so in the legend.
// The selected head is drawn larger; clicking another selects it.
import { css, diverging, maskedColor, sequential } from './colors.js';
import { eachEdge } from './graph-edges.js';
import { layoutFor } from './graph-layout.js';
import { formatNumber } from './format.js';
import { create, element } from './dom.js';

const own = ['scores', 'scaled', 'masked'];  // steps whose own matrix each head shows

export class HeadsStrip {
  constructor(parent, { onHead }) {
    this.parent = parent;
    this.onHead = onHead;
    this.key = '';
  }

  // trace, {head, batch, step}: redrawn only when what it shows changes.
  show(trace, { head, batch, step }) {
    const s = trace.summary;
    const shown = own.includes(step) ? step : 'weights';
    const key = `${trace.id}|${head}|${batch}|${shown}|${this.parent.clientWidth}`;
    if (key === this.key) return;
    this.key = key;
    this.parent.textContent = '';
    this.parent.hidden = s.heads.length < 2;
    if (s.heads.length < 2) return;
    const matrices = s.heads.map((_, h) => trace.step(h, shown, batch));
    const sequentialScale = shown === 'weights';
    // one bound for every head: the largest finite magnitude among them
    const bound = sequentialScale ? 1 : matrices.reduce((m, x) => Array.prototype.reduce.call(x.data, (n, v) => (Number.isFinite(v) ? Math.max(n, Math.abs(v)) : n), m), 0) || 1;

    element(this.parent, 'h2', { className: 'small-heading', text: `All ${s.heads.length} heads: ${shown}` });
    const list = element(this.parent, 'div', { className: 'heads-grid', attrs: { role: 'group', 'aria-label': `Heads, ${shown}` } });
    element(this.parent, 'p', {
      className: 'heads-legend',
      text: sequentialScale
        ? 'One colour scale for all heads: 0 … 1 (viridis). Click a head to select it.'
        : `One colour scale for all heads: ${formatNumber(-bound, 2)} … ${formatNumber(bound, 2)} (blue to red). Click a head to select it.`,
    });
    this.parent.dataset.scale = sequentialScale ? '0…1' : `±${bound}`;

    const width = this.parent.clientWidth || 400;
    const [rows, cols] = matrices[0].shape;
    // the selected head half again as large as the others
    // (each button adds 10 px of padding and border, and 8 px of gap): one row
    const unit = (width - 20 * s.heads.length) / (s.heads.length + 0.5);
    s.heads.forEach((_, h) => {
      const selected = h === head;
      const size = Math.max(24, Math.min(selected ? 150 : 100, Math.floor(unit * (selected ? 1.5 : 1))));
      const cell = Math.max(1, Math.floor(size / Math.max(rows, cols)));
      const button = create('button', {
        type: 'button',
        className: 'head-thumb',
        attrs: { 'data-head': String(h), 'aria-pressed': String(selected), 'aria-label': `head ${h}${selected ? ' (selected)' : ''}` },
      });
      element(button, 'span', { text: size < 56 ? String(h) : `head ${h}` });  // narrow thumbnails keep one row
      const picture = element(button, 'canvas');
      const graph = element(button, 'canvas');
      button.addEventListener('click', () => this.onHead(h));
      list.append(button);
      drawMatrix(picture, matrices[h], cell, (v) => (sequentialScale ? sequential(v) : diverging(v, bound)));
      drawGraph(graph, trace, h, batch, step, cols * cell);
    });
  }
}

function drawMatrix(canvas, { shape: [rows, cols], data }, cell, color) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = cols * cell * ratio;
  canvas.height = rows * cell * ratio;
  canvas.style.width = `${cols * cell}px`;
  canvas.style.height = `${rows * cell}px`;
  const g = canvas.getContext('2d');
  g.scale(ratio, ratio);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const v = data[r * cols + c];
      g.fillStyle = v === -Infinity ? maskedColor : css(color(v));
      g.fillRect(c * cell, r * cell, cell, cell);
    }
}

// The head's graph at this step, as arcs without labels: the same edges and
// strengths as the large graph (graph-edges.js), in miniature.
function drawGraph(canvas, trace, head, batch, step, width) {
  const s = trace.summary;
  const model = {
    cross: s.cross, tq: s.query_length, tkv: s.context_length, keep: trace.keep.data, step, progress: 1, past: true, future: true,
    pools: [{ tokens: [], context: [], weights: trace.step(head, 'weights', batch).data }],
  };
  const L = layoutFor('arcs', model, Math.max(24, width), () => 0);
  const height = Math.min(90, L.height);
  const ratio = window.devicePixelRatio || 1;
  canvas.width = L.width * ratio;
  canvas.height = height * ratio;
  canvas.style.width = `${L.width}px`;
  canvas.style.height = `${height}px`;
  const g = canvas.getContext('2d');
  g.scale(ratio, ratio);
  g.scale(1, height / L.height);
  const [r, gr, b] = getComputedStyle(canvas).getPropertyValue('--edge').trim().split(/\s+/).map(Number);
  // edges bucketed by strength, one stroke a bucket: 8 heads of T = 64 stay cheap
  const buckets = Array.from({ length: 8 }, () => []);
  eachEdge(model, 0, (from, to, strength, gone) => {
    if (!gone) buckets[Math.min(7, Math.floor(strength * 8))].push(L.curve(0, from, to));
  });
  buckets.forEach((curves, k) => {
    if (!curves.length) return;
    const strength = (k + 0.5) / 8;
    g.strokeStyle = `rgba(${r || 11}, ${gr || 99}, ${b || 196}, ${0.15 + 0.85 * strength})`;
    g.lineWidth = 0.5 + 2.5 * strength;
    g.beginPath();
    for (const c of curves) {
      g.moveTo(c.x0, c.y0);
      if (c.loop) g.bezierCurveTo(c.c1x, c.c1y, c.c2x, c.c2y, c.x1, c.y1);
      else g.quadraticCurveTo(c.cx, c.cy, c.x1, c.y1);
    }
    g.stroke();
  });
  g.fillStyle = getComputedStyle(canvas).color || '#222';
  for (const chip of L.chips(0)) g.fillRect(chip.x, chip.y + chip.h / 2 - 2, chip.w, 4);
}
