// The communication graph as SVG, for the SVG export: the same layout and
// edges as the canvas at the end of the current step, every edge a <path
// class="edge"> with its arrowhead into the receiving node, so direction
// survives on paper too.
import { arrowPoints } from './graph-layout.js';
import { eachEdge } from './graph-edges.js';
import { css } from './colors.js';
import { escapeXml } from './format.js';
import { poolTitle } from './graph-model.js';
import { placeNumbers } from './graph-strokes.js';

// model, L: the graph's model and layout; style: {edgeColor, scoreUp, scoreDown, removed};
// query: the one query whose incoming edges are shown, or null for all,
// with their numbers where the canvas prints them (measure: a text's px at
// 10.5 px) and no number across cuts (the x of the canvas's scroll edges);
// fade: the weight under which edges are faded (0: none).
// At scores, scaled and masked an edge takes its score's colour.
export function graphSVG(model, L, style, { query = null, fade = 0, cuts = [], measure = (t) => t.length * 6 } = {}) {
  const still = { ...model, progress: 1 };
  const [r, g, b] = style.edgeColor;
  const parts = ['<g class="graph">'];
  model.pools.forEach((pool, p) => {
    const frame = L.pools[p];
    const title = poolTitle(model, pool);
    parts.push(`<g class="pool" data-batch="${pool.batch}">${title ? `<text x="${f(frame.x + 8)}" y="${f(frame.y + 16)}">${title}</text>` : ''}`);
    if (fade) parts.push(`<text class="fade-note" x="${f(frame.x + frame.w - 8)}" y="${f(frame.y + 16)}" text-anchor="end" fill="#666">edges under ${fade} faded</text>`);
    const labelled = [];
    if (L.heads) {
      const h = L.heads(p);
      parts.push(`<text x="${f(h.from.x)}" y="${f(h.from.y + 10)}">from</text><text x="${f(h.to.x)}" y="${f(h.to.y + 10)}">to →</text>`);
    }
    eachEdge(still, p, (from, to, strength, gone) => {
      if (query !== null && to !== query) return;
      const c = L.curve(p, from, to);
      const d = c.loop
        ? `M ${f(c.x0)} ${f(c.y0)} C ${f(c.c1x)} ${f(c.c1y)} ${f(c.c2x)} ${f(c.c2y)} ${f(c.x1)} ${f(c.y1)}`
        : `M ${f(c.x0)} ${f(c.y0)} Q ${f(c.cx)} ${f(c.cy)} ${f(c.x1)} ${f(c.y1)}`;
      const data = `data-from="${from}" data-to="${to}"`;
      if (gone) {
        parts.push(`<path class="edge removed" ${data} d="${d}" fill="none" stroke="${style.removed}" stroke-opacity="0.3" stroke-dasharray="4 3" stroke-width="1.2"/>`);
        return;
      }
      const scores = model.scores;
      const value = scores ? scores.values[p][to * model.tkv + from] : null;
      const weak = strength < fade;
      if (query !== null && (scores || ['weights', 'out'].includes(model.step))) labelled.push({ from, to, value: scores ? value : strength, weak });
      if (weak) {
        parts.push(`<path class="edge faded" ${data} d="${d}" fill="none" stroke="rgb(${r},${g},${b})" stroke-opacity="0.12" stroke-width="0.6"/>`);
        return;
      }
      const w = scores ? Math.abs(value) / scores.bound : strength;
      const color = scores ? css(value >= 0 ? style.scoreUp : style.scoreDown) : `rgb(${r},${g},${b})`;
      const opacity = f(scores ? 0.3 + 0.7 * w : 0.08 + 0.92 * Math.sqrt(w));
      parts.push(`<path class="edge" ${data} d="${d}" fill="none" stroke="${color}" stroke-opacity="${opacity}" stroke-width="${f(0.6 + 4.5 * w)}"/>`);
      const head = arrowPoints(c, 3 + 5 * w).map(([x, y]) => `${f(x)},${f(y)}`).join(' ');
      parts.push(`<polygon class="arrow" ${data} points="${head}" fill="${color}" fill-opacity="${opacity}"/>`);
    });
    for (const chip of L.chips(p)) {
      const sender = chip.role === 'from';
      const text = sender ? pool.context?.[chip.k] ?? String(chip.k) : pool.tokens[chip.k] ?? String(chip.k);
      parts.push(`<rect class="${sender ? 'context-node' : 'node'}" x="${f(chip.x)}" y="${f(chip.y)}" width="${f(chip.w)}" height="${f(chip.h)}" rx="3" fill="${sender ? '#fde9c9' : '#fff'}" stroke="#222"/>`);
      if (!chip.shown || chip.w < 6) continue;
      if (chip.flat) {
        const anchor = chip.align === 'right' ? 'end' : chip.align === 'left' ? 'start' : 'middle';
        const x = chip.align === 'right' ? chip.x + chip.w - 4 : chip.align === 'left' ? chip.x + 4 : chip.x + chip.w / 2;
        parts.push(`<text x="${f(x)}" y="${f(chip.y + chip.h / 2)}" text-anchor="${anchor}" dominant-baseline="middle" font-size="${L.font}">${escapeXml(text)}</text>`);
      } else {
        const x = chip.x + chip.w / 2, y = chip.y + chip.h - 4;
        parts.push(`<text x="${f(x)}" y="${f(y)}" transform="rotate(-90 ${f(x)} ${f(y)})" dominant-baseline="middle" font-size="${L.font}">${escapeXml(text)}</text>`);
      }
    }
    for (const n of placeNumbers(L, p, labelled, measure, 0, cuts)) {
      parts.push(`<g class="edge-number"><rect x="${f(n.x)}" y="${f(n.y)}" width="${f(n.w)}" height="${n.h}" rx="3" fill="#fff" stroke="#999"/><text x="${f(n.at.x)}" y="${f(n.y + n.h / 2)}" text-anchor="middle" dominant-baseline="middle" font-size="10.5" fill="${n.weak ? '#666' : '#222'}">${n.text}</text></g>`);
    }
    parts.push('</g>');
  });
  parts.push('</g>');
  return parts.join('\n');
}

function f(n) {
  return Number(n.toFixed(2));
}
