// The communication graph's painting on its canvas, past the edges: the
// messages travelling at the out step, the token chips, out_i's bars; and the
// curve and arrowhead strokes graph.js shares.
import { arrowPoints, pointOn } from './graph-layout.js';
import { buildingRow, rowsShown } from './timing.js';
import { clip } from './format.js';

export const highlight = '#ff7f0e';  // the focused node, its edges, the messages in flight

// At out: v_j travelling along j → i into the row being built, a dot as
// large as the weight it carries, landing as the out row appears.
export function drawMessages(graph, g, L, p) {
  const { tq, tkv, progress, keep } = graph.model;
  if (progress >= 1) return;
  const { row, travel } = buildingRow(progress, tq);
  const weights = graph.model.pools[p].weights;
  graph.figure.dataset.receiving = String(row);
  if (travel >= 1) return;
  g.fillStyle = highlight;
  g.strokeStyle = highlight;
  for (let j = 0; j < tkv; j++) {
    const w = weights[row * tkv + j];
    if (!keep[row * tkv + j] || w < 0.02) continue;
    // the edge it travels, lit as the heatmaps light the v row it carries
    g.globalAlpha = 0.55;
    g.lineWidth = 1 + 3 * w;
    g.beginPath();
    traceCurve(g, L.curve(p, j, row));
    g.stroke();
    g.globalAlpha = 1;
    const at = pointOn(L.curve(p, j, row), travel);
    g.beginPath();
    g.arc(at.x, at.y, 1.5 + 3.5 * Math.sqrt(w), 0, 2 * Math.PI);
    g.fill();
  }
}

// Chips carry their tokens' text, so no edge crosses a label. Receivers
// turn green as their out is built; the focused node is orange.
export function drawChips(graph, g, L, p, pool, ink, focus) {
  const { step, progress, tq } = graph.model;
  const filled = step === 'out' ? rowsShown(progress, tq) : 0;
  const receiving = step === 'out' && progress < 1 ? buildingRow(progress, tq).row : -1;
  g.font = `${L.font}px system-ui, sans-serif`;
  let labels = 0;
  for (const chip of L.chips(p)) {
    const sender = chip.role === 'from';
    const text = sender ? pool.context?.[chip.k] ?? String(chip.k) : pool.tokens[chip.k] ?? String(chip.k);
    const mark = pool.marked?.[chip.k] ? pool.underline : null;  // a token Generate wrote (head-trace.js)
    const lit = !sender && focus === chip.k;
    g.fillStyle = lit ? '#ffc078' : sender ? '#fde9c9' : chip.k < filled ? '#b9e6cc' : '#ffffff';
    g.beginPath();
    g.roundRect(chip.x, chip.y, chip.w, chip.h, Math.min(4, chip.w / 3));
    g.fill();
    g.strokeStyle = chip.k === receiving && !sender ? highlight : ink;
    g.lineWidth = lit || (chip.k === receiving && !sender) ? 2 : 1;
    g.stroke();
    if (!chip.shown || chip.w < 6) continue;
    labels++;
    g.fillStyle = '#1a1a1a';
    g.textBaseline = 'middle';
    if (chip.flat) {
      g.textAlign = chip.align ?? 'center';
      const x = chip.align === 'right' ? chip.x + chip.w - 4 : chip.align === 'left' ? chip.x + 4 : chip.x + chip.w / 2;
      const shown = clip(g, text, chip.w - 6);
      g.fillText(shown, x, chip.y + chip.h / 2 + 0.5);
      mark?.(g, shown, x, chip.y + chip.h / 2 + 0.5, g.textAlign);
    } else {
      g.save();
      g.translate(chip.x + chip.w / 2 + 0.5, chip.y + chip.h - 4);
      g.rotate(-Math.PI / 2);
      g.textAlign = 'left';
      const shown = clip(g, text, chip.h - 7);
      g.fillText(shown, 0, 0);
      mark?.(g, shown, 0, 0, 'left', Math.min(L.font / 2 + 1, chip.w / 2 - 2.5));  // inside its narrow chip
      g.restore();
    }
  }
  return labels;
}

// out_i as a little bar chart under chip i, growing as its row is built
// (the core's out, scaled for the animation, not a recomputation).
export function drawOutVectors(graph, g, L, p, out) {
  const [rows, width] = out.shape;
  const shown = Math.min(width, 8);
  const done = rowsShown(graph.model.progress, rows);
  const limit = Array.from(out.data).reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1;
  const bar = Math.max(1, Math.min(4, (L.spacing - 4) / shown));
  const baseline = L.glyphBase(p);
  const xs = L.chips(p).filter((c) => c.role !== 'from');
  for (let i = 0; i < rows; i++) {
    const x0 = xs[i].x + xs[i].w / 2 - (bar * shown) / 2;
    for (let c = 0; c < shown && i < done; c++) {
      const v = out.data[i * width + c];
      const h = (Math.abs(v) / limit) * 12;
      g.fillStyle = v >= 0 ? '#b2182b' : '#2166ac';
      g.fillRect(x0 + c * bar, v >= 0 ? baseline - h : baseline, Math.max(1, bar - 0.5), h);
    }
    g.fillStyle = 'rgba(128, 128, 128, 0.6)';
    g.fillRect(x0, baseline, bar * shown, 0.6);
  }
}

export function traceCurve(g, c) {
  g.moveTo(c.x0, c.y0);
  if (c.loop) g.bezierCurveTo(c.c1x, c.c1y, c.c2x, c.c2y, c.x1, c.y1);
  else g.quadraticCurveTo(c.cx, c.cy, c.x1, c.y1);
}

export function arrow(g, c, size) {
  const [[ax, ay], [bx, by], [cx, cy]] = arrowPoints(c, size);
  g.moveTo(ax, ay);
  g.lineTo(bx, by);
  g.lineTo(cx, cy);
  g.closePath();
}

