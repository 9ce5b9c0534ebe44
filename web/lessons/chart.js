// Tiny SVG charts for the lessons: a line chart on a log2 x axis and a bar
// chart. Attributes only (no style attribute), so a strict CSP allows them.
import { svgElement as node } from '../views/dom.js';

// series: [{label, color, points: [[x, y], …]}]; x on a log2 axis, y on log10.
export function lineChart(parent, { title, series, xLabel, yLabel, width = 460, height = 260 }) {
  const svg = node(parent, 'svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title, class: 'chart' });
  const m = { left: 52, right: 14, top: 26, bottom: 40 };
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const [x0, x1] = [Math.log2(Math.min(...xs)), Math.log2(Math.max(...xs))];
  const [y0, y1] = [Math.floor(Math.log10(Math.min(...ys))), Math.ceil(Math.log10(Math.max(...ys)))];
  const X = (x) => m.left + ((Math.log2(x) - x0) / (x1 - x0 || 1)) * (width - m.left - m.right);
  const Y = (y) => height - m.bottom - ((Math.log10(y) - y0) / (y1 - y0 || 1)) * (height - m.top - m.bottom);
  node(svg, 'line', { x1: m.left, y1: height - m.bottom, x2: width - m.right, y2: height - m.bottom, class: 'axis' });
  node(svg, 'line', { x1: m.left, y1: m.top, x2: m.left, y2: height - m.bottom, class: 'axis' });
  for (const x of xs.filter((v, i, a) => a.indexOf(v) === i)) node(svg, 'text', { x: X(x), y: height - m.bottom + 14, 'text-anchor': 'middle', class: 'tick' }, String(x));
  for (let p = y0; p <= y1; p++) {
    node(svg, 'line', { x1: m.left, y1: Y(10 ** p), x2: width - m.right, y2: Y(10 ** p), class: 'grid' });
    node(svg, 'text', { x: m.left - 6, y: Y(10 ** p) + 4, 'text-anchor': 'end', class: 'tick' }, p >= 0 ? String(10 ** p) : `1e${p}`);
  }
  node(svg, 'text', { x: (width + m.left) / 2, y: height - 6, 'text-anchor': 'middle', class: 'axis-label' }, xLabel);
  node(svg, 'text', { x: 6, y: 12, class: 'axis-label' }, yLabel);
  series.forEach((s, k) => {
    node(svg, 'polyline', { points: s.points.map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(' '), fill: 'none', stroke: s.color, 'stroke-width': 2.5, class: 'series' });
    for (const [x, y] of s.points) node(svg, 'circle', { cx: X(x), cy: Y(y), r: 3.5, fill: s.color });
    // legend in the top left, where neither line goes
    node(svg, 'rect', { x: m.left + 10, y: m.top + k * 18, width: 12, height: 12, fill: s.color });
    node(svg, 'text', { x: m.left + 28, y: m.top + 10 + k * 18, class: 'tick' }, s.label);
  });
  return svg;
}

// bars: [{label, value}], values in [0, 1].
export function barChart(parent, { title, bars, width = 300, height = 150, color = '#0b63c4' }) {
  const svg = node(parent, 'svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title, class: 'chart' });
  const m = { left: 8, right: 8, top: 18, bottom: 22 };
  const slot = (width - m.left - m.right) / bars.length;
  bars.forEach((b, i) => {
    const h = b.value * (height - m.top - m.bottom);
    const x = m.left + i * slot + slot * 0.15;
    node(svg, 'rect', { x, y: height - m.bottom - h, width: slot * 0.7, height: Math.max(0.5, h), fill: color });
    node(svg, 'text', { x: x + slot * 0.35, y: height - m.bottom - h - 4, 'text-anchor': 'middle', class: 'tick' }, b.value.toFixed(4));
    node(svg, 'text', { x: x + slot * 0.35, y: height - 6, 'text-anchor': 'middle', class: 'tick' }, b.label);
  });
  return svg;
}

// series: [{label, className, dash, points: [[x, y], …]}] on linear axes
// from 0 (x) and around the values (y); each line named at its end, so the
// lines read without their colours too. Colours come from the stylesheet.
export function stepChart(parent, { title, series, xLabel, yLabel, width = 720, height = 320 }) {
  const svg = node(parent, 'svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title, class: 'chart' });
  const m = { left: 46, right: 140, top: 14, bottom: 40 };
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const x1 = Math.max(...xs);
  const [y0, y1] = [Math.floor(Math.min(...ys) * 2) / 2, Math.ceil(Math.max(...ys) * 2) / 2];
  const X = (x) => m.left + (x / (x1 || 1)) * (width - m.left - m.right);
  const Y = (y) => height - m.bottom - ((y - y0) / (y1 - y0 || 1)) * (height - m.top - m.bottom);
  node(svg, 'line', { x1: m.left, y1: height - m.bottom, x2: width - m.right, y2: height - m.bottom, class: 'axis' });
  node(svg, 'line', { x1: m.left, y1: m.top, x2: m.left, y2: height - m.bottom, class: 'axis' });
  const xStep = x1 > 1000 ? 500 : x1 > 200 ? 100 : 10;
  for (let x = 0; x <= x1; x += xStep) node(svg, 'text', { x: X(x), y: height - m.bottom + 14, 'text-anchor': 'middle', class: 'tick' }, String(x));
  for (let y = y0; y <= y1 + 1e-9; y += 0.5) {
    node(svg, 'line', { x1: m.left, y1: Y(y), x2: width - m.right, y2: Y(y), class: 'grid' });
    node(svg, 'text', { x: m.left - 6, y: Y(y) + 4, 'text-anchor': 'end', class: 'tick' }, y.toFixed(1));
  }
  node(svg, 'text', { x: (width - m.right + m.left) / 2, y: height - 6, 'text-anchor': 'middle', class: 'axis-label' }, xLabel);
  node(svg, 'text', { x: 6, y: 10, class: 'axis-label' }, yLabel);
  // end labels, nudged apart so none overlaps another
  const ends = series.map((s, k) => ({ k, y: Y(s.points.at(-1)[1]) })).sort((a, b) => a.y - b.y);
  ends.forEach((e, i) => { if (i) e.y = Math.max(e.y, ends[i - 1].y + 13); });
  const at = new Map(ends.map((e) => [e.k, e.y]));
  series.forEach((s, k) => {
    const g = node(svg, 'g', { class: `series ${s.className ?? ''}` });
    node(g, 'polyline', { points: s.points.map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(' '), fill: 'none', 'stroke-width': 2.5, ...(s.dash ? { 'stroke-dasharray': s.dash } : {}) });
    for (const [x, y] of s.points) node(g, 'circle', { cx: X(x), cy: Y(y), r: 2.5 });
    const [lx, ly] = s.points.at(-1);
    node(g, 'line', { x1: X(lx) + 4, y1: Y(ly), x2: width - m.right + 8, y2: at.get(k), class: 'leader' });
    node(g, 'text', { x: width - m.right + 12, y: at.get(k) + 4, class: 'tick' }, s.label);
  });
  return svg;
}
