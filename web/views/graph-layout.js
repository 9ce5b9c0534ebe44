// Where the communication graph puts its nodes and edges, in the two layouts
// learners know: arcs over a row of token chips (edges from the past above
// the row, from the future below it), and two columns, "from" on the left and
// "to" on the right, as BertViz draws them. Labels sit inside the chips, so
// no edge ever crosses one; a long sequence turns its labels upright rather
// than dropping them. Pure geometry: graph.js draws, graph-svg.js exports.

export const layoutNames = ['arcs', 'columns'];

const font = 11;       // px, the labels' size
const margin = 10;
const titleHeight = 20;  // "batch element b" at the top of each pool

// model: {cross, tq, tkv, pools: [{tokens, context}], future, past}
// width: what the figure has; textWidth(text): the label's width in px.
export function layoutFor(name, model, width, textWidth) {
  return name === 'columns' ? columns(model, width, textWidth) : arcs(model, width, textWidth);
}

// The arcs' least width: 18 px a token, where a character reads flat (a
// phone squeezed long texts to slivers); wider than its box, it scrolls.
export const leastSpacing = 18;
export function arcsWidth(model, width) {
  return Math.max(width, Math.max(model.tq, model.tkv) * leastSpacing + 2 * margin);
}

// How many pools fit side by side in the columns layout (at least one).
export function columnsPerRow(width) {
  return Math.max(1, Math.floor(width / 180));
}

// A row of n chips across the width: their boxes' x, width, and whether the
// labels must stand upright to be read.
function chipRow(n, width, labels, textWidth) {
  const spacing = (width - 2 * margin) / Math.max(1, n);
  const widest = labels.reduce((w, l) => Math.max(w, textWidth(l)), 0);
  const flat = spacing >= 26 || widest + 8 <= spacing - 3;
  const chip = Math.max(2, Math.min(flat ? 84 : 22, spacing - (flat ? 4 : 0.8)));
  // upright labels need ~font px across; narrower chips show every k-th
  const every = flat ? 1 : Math.max(1, Math.ceil((font - 1) / chip));
  const height = flat ? 20 : Math.max(20, Math.min(70, widest + 10));
  return { n, spacing, chip, height, flat, every, x: (k) => margin + (k + 0.5) * spacing };
}

function arcs(model, width, textWidth) {
  const { cross, tq, tkv, pools, past, future } = model;
  const all = (key) => pools.flatMap((p) => p[key] ?? []);
  const to = chipRow(tq, width, all('tokens'), textWidth);
  const from = cross ? chipRow(tkv, width, all('context'), textWidth) : to;
  const room = Math.max(54, Math.min(130, width * 0.26));
  const glyphs = !cross && !future && tq <= 16;  // out_i drawn under each chip at the out step
  const above = cross ? 0 : past ? room : 24;    // 24: the self-loops
  // a causal mask keeps no edge from the future, but before the mask they
  // are drawn, and at it they fade: a shallower band for them
  const below = cross ? 0 : future ? room : Math.round(room * 0.45);
  const gap = cross ? Math.max(60, Math.min(120, width * 0.22)) : 0;
  const poolHeight = titleHeight + (cross ? from.height + gap : above) + to.height + below + (glyphs ? 30 : 0);
  const rowTop = (p) => p * poolHeight + titleHeight + (cross ? from.height + gap : above);
  const contextTop = (p) => p * poolHeight + titleHeight;
  const box = (row, k, top) => ({ x: row.x(k) - row.chip / 2, y: top, w: row.chip, h: row.height, flat: row.flat, shown: k % row.every === 0 });

  return {
    name: 'arcs', width, height: pools.length * poolHeight, font, glyphs,
    pools: pools.map((_, p) => ({ x: 0, y: p * poolHeight, w: width, h: poolHeight })),
    // the chips of pool p: {k, role: 'to' | 'from' | 'both', box}
    chips(p) {
      const list = [];
      for (let k = 0; k < tq; k++) list.push({ k, role: cross ? 'to' : 'both', ...box(to, k, rowTop(p)) });
      if (cross) for (let k = 0; k < tkv; k++) list.push({ k, role: 'from', ...box(from, k, contextTop(p)) });
      return list;
    },
    // the edge from → to as a quadratic curve {x0, y0, cx, cy, x1, y1}, or a
    // loop (a cubic teardrop over the chip)
    curve(p, j, i) {
      if (cross) {
        const x0 = from.x(j), y0 = contextTop(p) + from.height, x1 = to.x(i), y1 = rowTop(p);
        return { x0, y0, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, x1, y1 };
      }
      const top = rowTop(p);
      let x0 = to.x(j), x1 = to.x(i);
      if (i === j) {
        const r = Math.max(3, Math.min(7, to.chip / 2));
        return { loop: true, x0: x0 - 0.45 * r, y0: top, c1x: x0 - 2.2 * r, c1y: top - 2.8 * r,
          c2x: x0 + 2.2 * r, c2y: top - 2.8 * r, x1: x0 + 0.45 * r, y1: top, cx: x0 + 2.2 * r, cy: top - 2.8 * r };
      }
      const fromPast = j < i;  // the past arcs above the row, the future below
      // an edge leaves its sender on the side it heads to and lands on the
      // side it comes from: arrowheads and departures never share a point
      const side = Math.min(to.chip / 4, 12) * (fromPast ? 1 : -1);
      x0 += side;
      x1 -= side;
      const lift = Math.min(fromPast ? above - 6 : below - 6, 10 + Math.abs(x1 - x0) * 0.55);
      const y = fromPast ? top : top + to.height;
      const sign = fromPast ? -1 : 1;
      return { x0, y0: y, cx: (x0 + x1) / 2, cy: y + sign * lift * 2, x1, y1: y };
    },
    // where an edge's number stands: by its sender's chip, over its top (y)
    // or under its bottom (low), so it stays by its node
    anchor: cross ? null : (p, k) => ({ x: to.x(k), y: rowTop(p), low: rowTop(p) + to.height }),
    // where out_i's bars stand (the glyphs), under the chips
    glyphBase: (p) => rowTop(p) + to.height + 22,  // only where no edge runs below the row
    spacing: to.spacing,
    nodeAt(x, y) {
      const p = Math.floor(y / poolHeight);
      if (p < 0 || p >= pools.length) return null;
      const top = rowTop(p);
      if (y < top - 6 || y > top + to.height + 6) return null;
      const k = Math.floor((x - margin) / to.spacing);
      return k >= 0 && k < tq ? { pool: p, node: k } : null;
    },
  };
}

function columns(model, width, textWidth) {
  const { tq, tkv, pools } = model;
  const n = Math.max(tq, tkv);
  const poolWidth = width / Math.max(1, pools.length);
  const rowHeight = Math.max(9, Math.min(22, Math.floor(560 / n)));
  const every = Math.max(1, Math.ceil(12 / rowHeight));  // rows whose label is printed
  const labels = pools.flatMap((p) => [...(p.tokens ?? []), ...(p.context ?? [])]);
  const chip = Math.max(34, Math.min(poolWidth * 0.34, labels.reduce((w, l) => Math.max(w, textWidth(l)), 0) + 12));
  const headerHeight = titleHeight + 16;  // the title, then "from" and "to"
  const poolHeight = headerHeight + n * rowHeight + 6;
  const left = (p) => p * poolWidth + 8;
  const right = (p) => (p + 1) * poolWidth - 8 - chip;
  const rowY = (k) => headerHeight + k * rowHeight;

  return {
    name: 'columns', width, height: poolHeight, font, glyphs: false, rowHeight,
    pools: pools.map((_, p) => ({ x: p * poolWidth, y: 0, w: poolWidth, h: poolHeight })),
    heads: (p) => ({ from: { x: left(p), y: titleHeight + 6 }, to: { x: right(p), y: titleHeight + 6 } }),
    chips(p) {
      const list = [];
      const box = (k, x, role) => ({ k, role, x, y: rowY(k) + 1, w: chip, h: rowHeight - 2, flat: true, shown: k % every === 0, align: role === 'from' ? 'right' : 'left' });
      for (let k = 0; k < tkv; k++) list.push(box(k, left(p), 'from'));
      for (let k = 0; k < tq; k++) list.push(box(k, right(p), 'to'));
      return list;
    },
    curve(p, j, i) {
      const x0 = left(p) + chip, y0 = rowY(j) + rowHeight / 2, x1 = right(p), y1 = rowY(i) + rowHeight / 2;
      return { x0, y0, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, x1, y1 };
    },
    glyphBase: () => 0,
    spacing: rowHeight,
    nodeAt(x, y) {
      const p = Math.floor(x / poolWidth);
      const k = Math.floor((y - headerHeight) / rowHeight);
      if (p < 0 || p >= pools.length || k < 0 || k >= tq) return null;
      return x >= right(p) - 4 ? { pool: p, node: k } : null;  // the receiving column
    },
  };
}

// A point t (0 … 1) of the way along an edge.
export function pointOn(c, t) {
  const u = 1 - t;
  if (c.loop) {
    return {
      x: u * u * u * c.x0 + 3 * u * u * t * c.c1x + 3 * u * t * t * c.c2x + t * t * t * c.x1,
      y: u * u * u * c.y0 + 3 * u * u * t * c.c1y + 3 * u * t * t * c.c2y + t * t * t * c.y1,
    };
  }
  return { x: u * u * c.x0 + 2 * u * t * c.cx + t * t * c.x1, y: u * u * c.y0 + 2 * u * t * c.cy + t * t * c.y1 };
}

// The arrowhead's three corners at the end of an edge: it points along the
// curve's last direction, into the receiving node.
export function arrowPoints(c, size) {
  const dx = c.x1 - (c.loop ? c.c2x : c.cx), dy = c.y1 - (c.loop ? c.c2y : c.cy);
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length, uy = dy / length;
  return [
    [c.x1, c.y1],
    [c.x1 - ux * size - uy * size * 0.5, c.y1 - uy * size + ux * size * 0.5],
    [c.x1 - ux * size + uy * size * 0.5, c.y1 - uy * size - ux * size * 0.5],
  ];
}
