// The communication graph's edges on its canvas: which are drawn (every
// edge, or one query's incoming edges), their colour (the score before
// softmax at scores, scaled and masked; the weight after), the mask's edges
// fading, the lit ones, and one query's edges labelled with their numbers.
// Edges are bucketed into one stroke per colour, so T = 64 stays fluid.
import { eachEdge } from './graph-edges.js';
import { pointOn } from './graph-layout.js';
import { arrow, highlight, traceCurve } from './graph-paint.js';
import { formatNumber } from './format.js';
import { textWidth } from './text-width.js';

const buckets = 24;
const removedColor = '#d9480f';  // the mask's edges, fading out

// An edge's opacity for its strength w. Up to T = 16 an edge carrying a tenth
// of its row's weight or more (and every edge before the weights) is at least
// 0.7 opaque: 3:1 against the panel in both themes; weaker ones fade out.
// Past T = 16 opacity follows the strength, so thin edges fade and the
// strong ones stand out of hundreds.
export function edgeAlpha(w, dense, faint = 0.08) {
  if (dense) return faint + (1 - faint) * w;
  return w >= 0.1 ? 0.7 + 0.3 * Math.sqrt(w) : faint + (0.7 - faint) * (w / 0.1);
}

// Draws pool p's edges. view: {query (one query's edges, or null for all),
// focus (a node hovered), edgeFocus ({from, to} lit from a matrix), edge,
// up, down ([r, g, b]: the theme's weights, scores above 0 and below), dense,
// weighted, thickness, fade (edges weaker are drawn faint, under the rest)}.
// Returns {live, removed, faded, labelled}: what was drawn (live counts the
// faded), and the labels to print.
export function drawEdges(model, g, L, p, view) {
  const { query, focus, edgeFocus, edge: [r, gr, b], dense, weighted, thickness, fade } = view;
  const scores = model.scores;
  const values = scores?.values[p];
  const strokes = Array.from({ length: buckets }, () => []);
  const potential = ['x', 'qkv', 'rotate'].includes(model.step);  // no score yet
  const removed = [];
  const picked = [];
  const labelled = [];
  const faded = [];
  let live = 0;
  eachEdge(model, p, (from, to, strength, gone) => {
    if (query !== null && to !== query) return;
    if (gone) {
      removed.push({ from, to, gone });
      return;
    }
    const lit = (focus !== null && query === null && to === focus) || (edgeFocus && to === edgeFocus.to && from === edgeFocus.from);
    if (lit) picked.push({ from, to, strength });
    const dimmed = Boolean(((focus !== null && query === null) || edgeFocus) && !lit);
    const value = values ? values[to * model.tkv + from] : null;
    // scored: the bucket of the value on −bound … bound; else of the strength
    const t = values ? (value / scores.bound + 1) / 2 : dimmed ? Math.min(strength, 0.04) : strength;
    const weak = strength < fade;
    (weak ? faded : strokes[Math.max(0, Math.min(buckets - 1, Math.floor(t * buckets)))]).push({ from, to, dimmed });
    live++;
    if (query !== null && (values || weighted)) labelled.push({ from, to, value: values ? value : strength, weak });
  });
  if (faded.length) {
    g.strokeStyle = `rgba(${r}, ${gr}, ${b}, 0.12)`;
    g.lineWidth = 0.6;
    g.beginPath();
    for (const e of faded) traceCurve(g, L.curve(p, e.from, e.to));
    g.stroke();
  }
  const count = strokes.reduce((n, list) => n + list.length, 0) || 1;
  const faint = Math.min(0.08, 6 / count);
  strokes.forEach((list, k) => {
    if (!list.length) return;
    const w = (k + 0.5) / buckets;
    for (const dimmed of [false, true]) {
      const group = list.filter((e) => e.dimmed === dimmed);
      if (!group.length) continue;
      let strength;
      if (potential) {
        // before any score: who could talk to whom, faint and thin, no weight implied
        strength = 0;
        g.strokeStyle = `rgba(${r}, ${gr}, ${b}, ${dimmed ? 0.06 : dense ? 0.12 : 0.3})`;
      } else if (values) {
        // red above 0, blue below (the matrix's ends), as thick and opaque as the score is far from 0
        strength = Math.abs(2 * w - 1);
        const [cr, cg, cb] = w >= 0.5 ? view.up : view.down;
        g.strokeStyle = `rgba(${cr}, ${cg}, ${cb}, ${dimmed ? 0.08 : (dense ? 0.12 : 0.3) + 0.7 * strength})`;
      } else {
        strength = w;
        g.strokeStyle = `rgba(${r}, ${gr}, ${b}, ${edgeAlpha(w, dense, faint)})`;
      }
      g.fillStyle = g.strokeStyle;
      g.lineWidth = (dense ? 0.4 : 0.7) + (values ? 3.5 : 4.5) * strength * thickness;
      g.beginPath();
      for (const e of group) traceCurve(g, L.curve(p, e.from, e.to));
      g.stroke();
      // arrowheads where they can be told apart: not on hundreds of edges without weight
      if ((values || w > 0.05) && !potential && !(dense && !weighted && query === null)) {
        g.beginPath();
        for (const e of group) arrow(g, L.curve(p, e.from, e.to), (4.5 + 5 * strength) * Math.max(0.6, thickness));
        g.fill();
      }
    }
  });
  // the mask's edges: dashed, fading from full to a ghost as the mask reaches their row
  if (removed.length) {
    g.setLineDash([4, 3]);
    g.lineWidth = 1.2;
    for (const e of removed) {
      g.strokeStyle = removedColor;
      g.globalAlpha = 0.9 - 0.65 * e.gone;
      g.beginPath();
      traceCurve(g, L.curve(p, e.from, e.to));
      g.stroke();
    }
    g.globalAlpha = 1;
    g.setLineDash([]);
  }
  for (const e of picked) {
    g.strokeStyle = highlight;
    g.fillStyle = highlight;
    g.lineWidth = 1 + 4 * e.strength;
    g.beginPath();
    traceCurve(g, L.curve(p, e.from, e.to));
    g.stroke();
    g.beginPath();
    arrow(g, L.curve(p, e.from, e.to), 7);
    g.fill();
  }
  return { live, removed: removed.length, faded: faded.length, labelled };
}

// Where one query's numbers stand, strongest first, in one row, each within
// 12 px of its sender, on no other number and off the strongest edge: in the
// arcs under the chips when that edge arcs above (else over them), in the
// columns along the edge. No room: left out. measure(text): px at 10.5 px;
// low: px kept under the chips (out_i's bars); cuts: x no number straddles.
export function placeNumbers(L, p, labelled, measure, low = 0, cuts = []) {
  const sorted = [...labelled].sort((a, b) => Math.abs(b.value) - Math.abs(a.value));
  const top = sorted[0];
  const path = top ? Array.from({ length: 41 }, (_, t) => pointOn(L.curve(p, top.from, top.to), t / 40)) : [];
  const under = top && top.from <= top.to;
  const h = 13;
  const placed = [];
  const free = (box, own) => (own || !path.some((q) => q.x > box.x && q.x < box.x + box.w && q.y > box.y && q.y < box.y + box.h))
    && !cuts.some((x) => box.x < x && x < box.x + box.w)
    && !placed.some((q) => box.x < q.x + q.w && q.x < box.x + box.w && box.y < q.y + q.h && q.y < box.y + box.h);
  for (const e of sorted) {
    const c = L.curve(p, e.from, e.to);
    const text = formatNumber(e.value, 2);
    const w = measure(text) + 6;
    let spots;
    if (L.anchor) {
      const a = L.anchor(p, e.from);
      const y = under ? a.low + low + 3 : a.y - 3 - h;
      spots = [0, -6, 6, -12, 12].map((d) => {
        const x = Math.max(1, Math.min(L.width - w - 1, a.x - w / 2 + d));
        return { x, y, w, h, at: { x: x + w / 2 }, anchor: { x: a.x, y: under ? a.low + 1 : a.y - 1 } };
      });
    } else {
      spots = (c.loop ? [0.5] : L.name === 'columns' ? [0.25, 0.15, 0.4] : [0.5, 0.33, 0.2, 0.66]).map((t) => {
        const at = pointOn(c, t);
        return { x: at.x - w / 2, y: at.y - (c.loop ? h : h / 2), w, h, at };
      });
    }
    const box = spots.find((b) => free(b, e === top && !L.anchor));
    if (box) placed.push({ ...box, text, weak: e.weak });
  }
  return placed;
}

// One query's numbers (2 decimals, as the matrices), a tick to the chip,
// a faded edge's muted. {shown, drift}: how many, and the farthest a number
// sits across from its sender (px, the arcs').
export function drawEdgeLabels(g, L, p, labelled, { panel, ink, muted, low, cuts }) {
  g.font = '10.5px system-ui, sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  const placed = placeNumbers(L, p, labelled, (t) => textWidth(g, t), low, cuts);
  // the ticks first (to the chip), then the numbers over them
  g.strokeStyle = 'rgba(128, 128, 128, 0.7)';
  g.lineWidth = 1;
  for (const box of placed) {
    if (!box.anchor) continue;
    g.beginPath();
    g.moveTo(box.anchor.x, box.anchor.y > box.y ? box.y + box.h : box.y);
    g.lineTo(box.anchor.x, box.anchor.y);
    g.stroke();
  }
  for (const box of placed) {
    g.fillStyle = panel;
    g.strokeStyle = 'rgba(128, 128, 128, 0.6)';
    g.beginPath();
    g.roundRect(box.x, box.y, box.w, box.h, 3);
    g.fill();
    g.stroke();
    g.fillStyle = box.weak ? muted : ink;
    g.fillText(box.text, box.at.x, box.y + box.h / 2 + 0.5);
  }
  const drift = placed.reduce((d, box) => (box.anchor ? Math.max(d, Math.abs(box.at.x - box.anchor.x)) : d), 0);
  return { shown: placed.length, drift };
}
