// Static SVG figures, one per preset: its default view in the element
// (head 0, batch 0, the weights step) as the weights heatmap and the
// communication graph, drawn by the page's own SVG writers from the core's
// numbers. An author puts one inside <attention-playground> as the fallback
// before JavaScript, and in print and PDF builds.
// usage: node scripts/figures.mjs WASM_BUILD_DIR OUT_DIR
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { loadEngine } from '../web/engine/engine.js';
import { pictureSVG } from '../web/export/picture.js';
import { decimalsThatFit, escapeXml } from '../web/views/format.js';
import { graphModel, defaults as graphDefaults } from '../web/views/graph.js';
import { layoutFor } from '../web/views/graph-layout.js';
import { graphSVG } from '../web/views/graph-svg.js';
import { toSVG } from '../web/views/heatmap-svg.js';

const [wasmDir, outDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!wasmDir || !outDir) {
  console.error('usage: node scripts/figures.mjs WASM_BUILD_DIR OUT_DIR');
  process.exit(64);
}
const width = 560;
// No canvas here to measure text: DejaVu Sans averages 0.6 em a character,
// a little more than most sans-serif fonts, so labels are given room enough.
const textWidth = (size) => (text) => String(text).length * size * 0.62;

// The weights as the heatmap-svg writer takes them, laid out for `width`.
function weightsFigure(matrix, rowLabels, colLabels) {
  const [rows, cols] = matrix.shape;
  const measure = textWidth(12);
  const left = Math.min(84, Math.ceil(Math.max(0, ...rowLabels.map(measure))) + 8);
  const cell = Math.max(6, Math.min(48, Math.floor((width - left) / cols), Math.floor(480 / rows)));
  const decimals = decimalsThatFit(matrix.data, cell, measure);
  const numbers = decimals > 0;
  const rotate = Math.max(0, ...colLabels.map(measure)) > cell - 4;
  return toSVG({
    name: 'weights', label: 'weights = exp(masked − row max) / Σ', scale: 'sequential', matrix,
    options: { rowLabels, colLabels: rotate ? [] : colLabels }, colorBound: () => 1,
    layout: { rows, cols, cell, left, top: 18, numbers, decimals, width: left + cols * cell + 1, height: 18 + rows * cell + 1 },
  });
}

function figure(trace, preset) {
  const s = trace.summary;
  const labels = (tokens, n) => (tokens?.length ? tokens : Array.from({ length: n }, (_, i) => String(i)));
  const weights = trace.step(0, 'weights', 0);
  const parts = [{ svg: `<text x="0" y="12" font-size="13" font-weight="600">${escapeXml(s.title || s.id)}</text>`, width: 0, height: 10 }];
  parts.push(weightsFigure(weights, labels(s.tokens[0], s.query_length), labels(s.context_tokens[0], s.context_length)));
  const model = graphModel(trace, { head: 0, step: 'weights', batch: 0 }, 0, Math.min(s.batch, 2));
  for (const pool of model.pools) {
    pool.tokens = labels(pool.tokens, s.query_length);
    pool.context = labels(pool.context, s.context_length);
  }
  const L = layoutFor('arcs', model, width, textWidth(11));
  parts.push({ svg: graphSVG(model, L, graphDefaults), width: L.width, height: L.height });
  const svg = pictureSVG(parts);
  // the picture says what it is, for screen readers and for search
  return svg.replace('<svg ', `<svg role="img" aria-label="${escapeXml(`${s.title || preset}: the attention weights and the communication graph`)}" `);
}

const engine = await loadEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-core.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-core.wasm')),
});
const scenarios = new URL('../web/scenarios/', import.meta.url).pathname;
mkdirSync(outDir, { recursive: true });
const made = [];
for (const file of readdirSync(scenarios).filter((f) => f.endsWith('.json')).sort()) {
  const id = file.slice(0, -5);
  const trace = engine.run(readFileSync(join(scenarios, file), 'utf8'));
  try {
    writeFileSync(join(outDir, `${id}.svg`), figure(trace, id));
    made.push(id);
  } finally {
    trace.dispose();
  }
}
console.log(`figures: ${made.length} in ${outDir}`);
