// Attention as a directed graph: one node per token, each batch element its
// own pool, an edge j → i for every position i may attend to, as thick and
// opaque as weights[i, j]. In self-attention, edges from the past arc above
// the row of nodes and edges from the future arc below it (a causal mask
// leaves only the upper ones); in cross-attention they run from the context
// row down to the query row. At the out step, values travel along the edges
// and each node's out fills in. Drawn on a canvas, the edges bucketed by
// weight so T = 64 stays fluid; toSVGPart() writes the same picture as SVG.

import { resize } from './heatmap.js';

export const defaults = {
  width: 460,
  selfPoolHeight: 170,
  crossPoolHeight: 150,
  maxPools: 8,
  nodeRadius: 7,
  buckets: 24,
  edgeColor: [11, 99, 196],
  highlight: '#ff7f0e',
};

const weightedSteps = ['weights', 'out'];

export class Graph {
  constructor(parent, { onNode = () => {} } = {}) {
    this.onNode = onNode;
    this.figure = document.createElement('figure');
    this.figure.className = 'graph';
    this.figure.dataset.view = 'graph';  // a public hook (README.md, "Hooks")
    this.caption = document.createElement('figcaption');
    this.canvas = document.createElement('canvas');
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('role', 'img');
    this.key = document.createElement('p');
    this.key.className = 'graph-key';
    this.figure.append(this.caption, this.canvas, this.key);
    parent.append(this.figure);
    this.focus = null;  // {pool, node}
    this.edgeFocus = null;  // {pool, from, to}
    this.canvas.addEventListener('mousemove', (e) => this.pick(this.nodeAt(e)));
    this.canvas.addEventListener('mouseleave', () => this.pick(null));
    this.canvas.addEventListener('focus', () => this.pick(this.focus ?? { pool: 0, node: 0 }));
    this.canvas.addEventListener('blur', () => this.pick(null));
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
  }

  // trace, {head, step, progress, batch}: builds the model, then draws it.
  show(trace, { head, step, progress, batch }) {
    // The pools and their edges depend on the trace, head and batch only; a
    // step or a frame of the animation just redraws them.
    const structure = `${trace.id}|${head}|${batch}`;
    if (structure === this.built && this.model) {
      const weighted = weightedSteps.includes(step);
      if (step === this.model.step && progress === this.model.progress) return;
      const changed = step !== this.model.step;
      Object.assign(this.model, { step, progress, weighted });
      if (changed || weighted) this.render();  // other steps do not depend on progress
      return;
    }
    this.built = structure;
    const s = trace.summary;
    const pools = Math.min(s.batch, defaults.maxPools);
    const first = Math.min(Math.max(0, batch - Math.floor(pools / 2)), s.batch - pools);
    this.model = {
      cross: s.cross,
      step,
      progress,
      current: batch,
      tq: s.query_length,
      tkv: s.context_length,
      pools: Array.from({ length: pools }, (_, k) => {
        const b = first + k;
        return { batch: b, tokens: s.tokens[b], context: s.context_tokens[b],
          weights: trace.step(head, 'weights', b).data, out: trace.step(head, 'out', b) };
      }),
      keep: trace.keep.data,
      weighted: weightedSteps.includes(step),
      // which sides of the row have arcs: a causal mask has none from the future
      ...sides(trace.keep),
    };
    this.edges = this.model.pools.map((pool) => edgeList(this.model, pool));
    this.figure.dataset.edges = this.edges.map((e) => e.length).join(',');
    this.figure.dataset.pools = String(s.batch);
    this.caption.textContent = '';
    const title = document.createElement('span');
    title.className = 'matrix-name';
    title.textContent = s.cross ? 'Communication graph: context → queries' : 'Communication graph';
    const note = document.createElement('span');
    note.className = 'matrix-shape';
    note.textContent = s.batch > pools
      ? ` (batch elements ${first}–${first + pools - 1} of ${s.batch}; pools never talk)`
      : ` (${s.batch} pool${s.batch > 1 ? 's' : ''}, one per batch element; pools never talk)`;
    this.caption.append(title, note);
    this.key.textContent = s.cross
      ? 'Each query (circle) aggregates a weighted sum of the context’s values (squares) along the edges pointing to it; thicker means more weight.'
      : `Each node aggregates a weighted sum from the nodes that point to it, itself included (the loop). Edges from the past arc above the tokens${this.model.future ? ', edges from the future below' : '; with a causal mask there are none from the future'}; thicker means more weight.`;
    this.canvas.setAttribute('aria-label',
      `Directed graph of attention, ${pools} pool${pools > 1 ? 's' : ''} of ${s.query_length} nodes; ${this.edges[0].length} edges per pool. Arrow keys move between nodes.`);
    this.render();
  }

  layout() {
    const { cross, tq, tkv, pools, past, future } = this.model;
    const width = Math.max(220, Math.min(defaults.width, this.figure.parentElement?.clientWidth ?? defaults.width));
    const glyphs = this.model.step === 'out' && tq <= 16;  // out_i drawn under each node
    const poolHeight = (cross ? defaults.crossPoolHeight : future && past ? defaults.selfPoolHeight : defaults.selfPoolHeight * 0.8) + (glyphs ? 30 : 0);
    const rowShare = !future ? 0.8 : !past ? 0.25 : 0.58;
    const margin = 18;
    const spacing = (n) => (width - 2 * margin) / Math.max(1, n);
    const xOf = (n) => (k) => margin + (k + 0.5) * spacing(n);
    return {
      width,
      height: pools.length * poolHeight,
      poolHeight,
      queryX: xOf(tq),
      contextX: cross ? xOf(tkv) : xOf(tq),
      radius: Math.max(2, Math.min(defaults.nodeRadius, spacing(Math.max(tq, tkv)) * 0.32)),
      // self: the node row sits low enough for arcs above, high enough for arcs below
      glyphs,
      rowY: (p) => p * poolHeight + (cross ? poolHeight - 34 : (poolHeight - (glyphs ? 30 : 0)) * rowShare),
      rowShare,
      contextY: (p) => p * poolHeight + 42,
      labelEvery: Math.max(1, Math.ceil(34 / spacing(Math.max(tq, tkv)))),
    };
  }

  // Every edge's curve: start, control, end points.
  curve(L, p, from, to) {
    const { cross } = this.model;
    if (cross) {
      const x0 = L.contextX(from), y0 = L.contextY(p) + L.radius, x1 = L.queryX(to), y1 = L.rowY(p) - L.radius;
      return { x0, y0, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, x1, y1 };
    }
    const y = L.rowY(p);
    const x0 = L.queryX(from), x1 = L.queryX(to);
    if (from === to) {
      // a teardrop above the node, leaving and entering its top
      const r = L.radius;
      return { loop: true, x0: x0 - 0.55 * r, y0: y - 0.85 * r, c1x: x0 - 2.4 * r, c1y: y - 3.4 * r,
        c2x: x0 + 2.4 * r, c2y: y - 3.4 * r, x1: x0 + 0.55 * r, y1: y - 0.85 * r, cx: x0 + 2.4 * r, cy: y - 3.4 * r };
    }
    const above = from < to;  // from the past: above the row
    const span = Math.abs(x1 - x0);
    // room on that side of the row, less the pool's label line at the top
    const room = above ? L.poolHeight * L.rowShare - 30 : L.poolHeight * (1 - L.rowShare) - 24;
    const lift = Math.min(room, 12 + span * 0.55);
    const sign = above ? -1 : 1;
    return { x0, y0: y + sign * L.radius, cx: (x0 + x1) / 2, cy: y + sign * (L.radius + lift), x1, y1: y + sign * L.radius };
  }

  render() {
    if (!this.model) return;
    const L = (this.L = this.layout());
    const ratio = this.exportRatio ?? (window.devicePixelRatio || 1);  // exportRatio: see export.js snapshot()
    resize(this.canvas, L.width, L.height, ratio);
    const g = this.canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, L.width, L.height);
    const style = getComputedStyle(this.canvas);
    const ink = style.color || '#222';
    // the theme's edge colour (--edge: "r g b"); a detached export canvas has none: the light one
    const themed = style.getPropertyValue('--edge').trim().split(/\s+/).map(Number);
    const edgeColor = themed.length === 3 && themed.every(Number.isFinite) ? themed : defaults.edgeColor;
    const { pools, weighted, step, progress, current } = this.model;

    pools.forEach((pool, p) => {
      const top = p * L.poolHeight;
      if (pools.length > 1) {
        g.strokeStyle = pool.batch === current ? ink : 'rgba(128,128,128,0.35)';
        g.lineWidth = pool.batch === current ? 1.5 : 1;
        g.setLineDash(pool.batch === current ? [] : [4, 4]);
        g.strokeRect(2.5, top + 2.5, L.width - 5, L.poolHeight - 5);
        g.setLineDash([]);
      }
      g.fillStyle = ink;
      g.font = '11px system-ui, sans-serif';
      g.textAlign = 'left';
      g.textBaseline = 'top';
      g.fillText(`batch element ${pool.batch}`, 8, top + 6);

      const focus = this.focus?.pool === p ? this.focus.node : null;
      const edgeFocus = this.edgeFocus?.pool === p ? this.edgeFocus : null;
      // edges bucketed by strength: one path and one stroke per bucket
      const buckets = Array.from({ length: defaults.buckets }, () => []);
      for (const edge of this.edges[p]) {
        const w = weighted ? edge.weight * (step === 'weights' ? Math.min(1, 0.25 + progress) : 1) : 0.18;
        const dimmed = (focus !== null && edge.to !== focus) || (edgeFocus && !(edge.to === edgeFocus.to && edge.from === edgeFocus.from));
        const strength = dimmed ? Math.min(w, 0.04) : w;
        buckets[Math.min(defaults.buckets - 1, Math.floor(strength * defaults.buckets))].push(edge);
      }
      // Many edges stack up: the faintest get fainter as their number grows,
      // and past T = 16 opacity follows the weight itself, so thin edges fade.
      const count = this.edges[p].length;
      const faint = Math.min(0.08, 6 / count);
      const dense = this.model.tq > 16;
      // strokes as thick as the nodes are far apart: T = 64 must not blot
      const thickness = Math.min(1, (L.width - 36) / Math.max(this.model.tq, this.model.tkv) / 28);
      buckets.forEach((list, k) => {
        if (!list.length) return;
        const w = (k + 0.5) / defaults.buckets;
        const [r, gr, b] = edgeColor;
        g.strokeStyle = `rgba(${r}, ${gr}, ${b}, ${faint + (1 - faint) * (dense ? w : Math.sqrt(w))})`;
        g.fillStyle = g.strokeStyle;
        g.lineWidth = (dense ? 0.4 : 0.6) + 4.5 * w * thickness;
        g.beginPath();
        for (const edge of list) this.trace(g, this.curve(L, p, edge.from, edge.to), L.radius);
        g.stroke();
        if (w > 0.05 || !weighted) for (const edge of list) arrowhead(g, this.curve(L, p, edge.from, edge.to), (3 + 5 * w) * Math.max(0.5, thickness), L.radius);
      });
      const picked = this.edges[p].filter((e) => (focus !== null && e.to === focus) || (edgeFocus && e.to === edgeFocus.to && e.from === edgeFocus.from));
      for (const edge of picked) {
        g.strokeStyle = defaults.highlight;
        g.fillStyle = defaults.highlight;
        g.lineWidth = 1 + 4 * (weighted ? edge.weight : 0.2);
        g.beginPath();
        this.trace(g, this.curve(L, p, edge.from, edge.to), L.radius);
        g.stroke();
        arrowhead(g, this.curve(L, p, edge.from, edge.to), 6, L.radius);
      }

      // messages in flight at the out step: v_j travelling to i
      if (step === 'out' && progress < 1) {
        g.fillStyle = defaults.highlight;
        for (const edge of this.edges[p]) {
          if (edge.weight < 0.02) continue;
          const at = pointOn(this.curve(L, p, edge.from, edge.to), progress, L.radius);
          g.beginPath();
          g.arc(at.x, at.y, 1.5 + 3 * Math.sqrt(edge.weight), 0, 2 * Math.PI);
          g.fill();
        }
      }
      this.drawNodes(g, L, p, pool, ink, focus);
    });
  }

  drawNodes(g, L, p, pool, ink, focus) {
    const { cross, tq, tkv, step, progress } = this.model;
    const halo = getComputedStyle(this.canvas).getPropertyValue('--panel').trim() || '#ffffff';
    const node = (x, y, label, filled, highlighted, fill) => {
      g.beginPath();
      g.arc(x, y, L.radius, 0, 2 * Math.PI);
      g.fillStyle = highlighted ? defaults.highlight : filled ? `rgba(53, 183, 121, ${0.25 + 0.75 * fill})` : '#ffffff';
      g.fill();
      g.strokeStyle = ink;
      g.lineWidth = highlighted ? 2 : 1;
      g.stroke();
      if (label) haloText(g, label, x, y + L.radius + 3, ink, halo);
    };
    g.font = '11px system-ui, sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'top';
    const label = (list, k) => (k % L.labelEvery === 0 ? clip(g, list[k] ?? String(k), L.labelEvery * (L.width - 36) / Math.max(tq, tkv) - 2) : null);
    if (cross) {
      for (let k = 0; k < tkv; k++) {
        g.textBaseline = 'bottom';
        const x = L.contextX(k), y = L.contextY(p);
        g.beginPath();
        g.rect(x - L.radius, y - L.radius, 2 * L.radius, 2 * L.radius);
        g.fillStyle = '#fde9c9';
        g.fill();
        g.strokeStyle = ink;
        g.lineWidth = 1;
        g.stroke();
        const text = label(pool.context, k);
        if (text) haloText(g, text, x, y - L.radius - 2, ink, halo);
      }
      g.textBaseline = 'top';
    }
    const receiving = step === 'out';
    for (let k = 0; k < tq; k++) node(L.queryX(k), L.rowY(p), label(pool.tokens, k), receiving, focus === k, receiving ? progress : 0);
    if (L.glyphs && pool.out) this.drawOutVectors(g, L, p, pool.out, progress);
  }

  // out_i as a little bar chart under node i, growing with the animation
  // (a tween of the core's out towards its value, not a recomputation).
  drawOutVectors(g, L, p, out, progress) {
    const [rows, width] = out.shape;
    const shown = Math.min(width, 8);
    const limit = Array.from(out.data).reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1;
    const spacing = (L.width - 36) / rows;
    const bar = Math.max(1, Math.min(4, (spacing - 4) / shown));
    const baseline = L.rowY(p) + L.radius + 28;
    for (let i = 0; i < rows; i++) {
      const x0 = L.queryX(i) - (bar * shown) / 2;
      for (let c = 0; c < shown; c++) {
        const v = out.data[i * width + c] * progress;
        const h = (Math.abs(v) / limit) * 12;
        g.fillStyle = v >= 0 ? '#b2182b' : '#2166ac';
        g.fillRect(x0 + c * bar, v >= 0 ? baseline - h : baseline, Math.max(1, bar - 0.5), h);
      }
      g.fillStyle = 'rgba(128, 128, 128, 0.6)';
      g.fillRect(x0, baseline, bar * shown, 0.6);
    }
  }

  trace(g, c, radius) {
    if (c.loop) {
      g.moveTo(c.x0, c.y0);
      g.bezierCurveTo(c.c1x, c.c1y, c.c2x, c.c2y, c.x1, c.y1);
      return;
    }
    g.moveTo(c.x0, c.y0);
    g.quadraticCurveTo(c.cx, c.cy, c.x1, c.y1);
  }

  nodeAt(event) {
    if (!this.L) return null;
    const box = this.canvas.getBoundingClientRect();
    const x = event.clientX - box.left, y = event.clientY - box.top;
    const p = Math.floor(y / this.L.poolHeight);
    if (p < 0 || p >= this.model.pools.length) return null;
    let best = null;
    for (let k = 0; k < this.model.tq; k++) {
      const d = Math.hypot(x - this.L.queryX(k), y - this.L.rowY(p));
      if (d <= Math.max(10, this.L.radius + 4) && (!best || d < best.d)) best = { pool: p, node: k, d };
    }
    return best && { pool: best.pool, node: best.node };
  }

  pick(target) {
    const same = target && this.focus && target.pool === this.focus.pool && target.node === this.focus.node;
    if (target) this.focus = target;
    else if (this.canvas.getRootNode().activeElement !== this.canvas) this.focus = null;
    this.edgeFocus = null;
    if (!same) this.render();
    const f = this.focus;
    const pool = f && this.model.pools[f.pool];
    // the weights are told once the learner has reached them
    this.onNode(f ? { batch: pool.batch, node: f.node, pool: this.model.weighted ? pool : { ...pool, weights: null } } : null);
  }

  onKey(event) {
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = moves[event.key];
    if (!move || !this.model) return;
    event.preventDefault();
    event.stopPropagation();
    const at = this.focus ?? { pool: 0, node: 0 };
    this.pick({
      pool: Math.max(0, Math.min(this.model.pools.length - 1, at.pool + move[0])),
      node: Math.max(0, Math.min(this.model.tq - 1, at.node + move[1])),
    });
  }

  // A matrix cell (row i, column j) of batch element b: light up edge j → i.
  highlightEdge(batch, to, from) {
    if (!this.model) return;
    const p = this.model.pools.findIndex((pool) => pool.batch === batch);
    this.edgeFocus = p >= 0 && to !== null ? { pool: p, to, from } : null;
    if (this.edgeFocus) this.figure.dataset.focusEdge = `${from}→${to}`;
    else delete this.figure.dataset.focusEdge;
    if (!this.edgeFocus) this.focus = this.canvas.getRootNode().activeElement === this.canvas ? this.focus : null;
    this.render();
  }

  // The picture as an SVG group for pictureSVG.
  toSVGPart() {
    const L = this.L ?? this.layout();
    return { svg: `<g class="graph">${this.svgBody(L)}</g>`, width: L.width, height: L.height };
  }

  // Every edge a <path class="edge">, every node a circle, labels as text.
  svgBody(L) {
    const parts = [];
    const [r, g, b] = defaults.edgeColor;
    this.model.pools.forEach((pool, p) => {
      parts.push(`<g class="pool" data-batch="${pool.batch}"><text x="8" y="${p * L.poolHeight + 16}">batch element ${pool.batch}</text>`);
      for (const edge of this.edges[p]) {
        const c = this.curve(L, p, edge.from, edge.to);
        const w = this.model.weighted ? edge.weight : 0.18;
        const d = c.loop
          ? `M ${f(c.x0)} ${f(c.y0)} C ${f(c.c1x)} ${f(c.c1y)} ${f(c.c2x)} ${f(c.c2y)} ${f(c.x1)} ${f(c.y1)}`
          : `M ${f(c.x0)} ${f(c.y0)} Q ${f(c.cx)} ${f(c.cy)} ${f(c.x1)} ${f(c.y1)}`;
        parts.push(`<path class="edge" data-from="${edge.from}" data-to="${edge.to}" d="${d}" fill="none" stroke="rgb(${r},${g},${b})" stroke-opacity="${f(0.08 + 0.92 * Math.sqrt(w))}" stroke-width="${f(0.6 + 4.5 * w)}"/>`);
      }
      for (let k = 0; k < this.model.tq; k++) {
        parts.push(`<circle class="node" cx="${f(L.queryX(k))}" cy="${f(L.rowY(p))}" r="${f(L.radius)}" fill="#fff" stroke="#222"/>`);
        parts.push(`<text x="${f(L.queryX(k))}" y="${f(L.rowY(p) + L.radius + 12)}" text-anchor="middle">${escapeXml(pool.tokens[k] ?? String(k))}</text>`);
      }
      if (this.model.cross) {
        for (let k = 0; k < this.model.tkv; k++) {
          parts.push(`<rect class="context-node" x="${f(L.contextX(k) - L.radius)}" y="${f(L.contextY(p) - L.radius)}" width="${f(2 * L.radius)}" height="${f(2 * L.radius)}" fill="#fde9c9" stroke="#222"/>`);
          parts.push(`<text x="${f(L.contextX(k))}" y="${f(L.contextY(p) - L.radius - 3)}" text-anchor="middle">${escapeXml(pool.context[k] ?? String(k))}</text>`);
        }
      }
      parts.push('</g>');
    });
    return parts.join('\n');
  }

  remove() {
    this.figure.remove();
  }
}

// Edges of one pool: j → i wherever the mask lets i see j, with its weight.
function edgeList(model, pool) {
  const edges = [];
  for (let i = 0; i < model.tq; i++)
    for (let j = 0; j < model.tkv; j++)
      if (model.keep[i * model.tkv + j]) edges.push({ from: j, to: i, weight: pool.weights ? pool.weights[i * model.tkv + j] : 0 });
  return edges;
}

// Text over edges stays readable: a halo of the page's background first.
function haloText(g, text, x, y, ink, background) {
  g.save();
  g.lineWidth = 3;
  g.lineJoin = 'round';
  g.strokeStyle = background;
  g.strokeText(text, x, y);
  g.fillStyle = ink;
  g.fillText(text, x, y);
  g.restore();
}

function sides({ shape: [tq, tkv], data }) {
  let past = false;
  let future = false;
  for (let i = 0; i < tq; i++)
    for (let j = 0; j < tkv; j++)
      if (data[i * tkv + j]) {
        if (j < i) past = true;
        if (j > i) future = true;
      }
  return { past, future };
}

function f(n) {
  return Number(n.toFixed(2));
}

function escapeXml(text) {
  return String(text).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);
}

function clip(g, text, width) {
  if (width <= 6) return '';
  if (g.measureText(text).width <= width) return text;
  let t = text;
  while (t.length > 1 && g.measureText(t + '…').width > width) t = t.slice(0, -1);
  return t + '…';
}

function pointOn(c, t, radius) {
  const u = 1 - t;
  if (c.loop) {
    return {
      x: u * u * u * c.x0 + 3 * u * u * t * c.c1x + 3 * u * t * t * c.c2x + t * t * t * c.x1,
      y: u * u * u * c.y0 + 3 * u * u * t * c.c1y + 3 * u * t * t * c.c2y + t * t * t * c.y1,
    };
  }
  return { x: u * u * c.x0 + 2 * u * t * c.cx + t * t * c.x1, y: u * u * c.y0 + 2 * u * t * c.cy + t * t * c.y1 };
}

function arrowhead(g, c, size) {
  // direction of the curve at its end: from the control point to the end
  const dx = c.x1 - c.cx, dy = c.y1 - c.cy;
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length, uy = dy / length;
  g.beginPath();
  g.moveTo(c.x1, c.y1);
  g.lineTo(c.x1 - ux * size - uy * size * 0.5, c.y1 - uy * size + ux * size * 0.5);
  g.lineTo(c.x1 - ux * size + uy * size * 0.5, c.y1 - uy * size - ux * size * 0.5);
  g.closePath();
  g.fill();
}
