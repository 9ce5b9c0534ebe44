// Queries, keys and values: what each token looks for, contains and offers,
// on the bank example, where the same `bank` row becomes different outputs.
import { Graph } from '../views/graph.js';
import { code, element, matrix, prose, readoutLine, row } from './common.js';

export default {
  id: 'qkv',
  title: 'Queries, keys and values',
  async render(root, { engine, presetScenario }) {
    const trace = engine.run(await presetScenario('bank-projected'));
    const s = trace.summary;
    prose(root, 'Every token emits a query, “what am I looking for?”, a key, “what do I contain?”, and a value, “what will I communicate if you find me interesting?”. x stays private to the token; v is what gets aggregated.');
    code(root, 'q = x @ W_query   # what I look for\nk = x @ W_key     # what I contain\nv = x @ W_value   # what I offer\nweights = softmax(q @ k.T / sqrt(d_k))\nout = weights @ v');
    prose(root, 'Two pools, two sentences: “stream bank mud” and “money bank loan”. The bank row of x is the same in both; its row of out is not, because its neighbours differ.');
    const readout = readoutLine(root);
    const pools = row(root);
    for (let b = 0; b < s.batch; b++) {
      const card = element(pools, 'section', { className: 'lesson-card' });
      element(card, 'h3', { text: `Pool ${b}: ${s.tokens[b].join(' ')}` });
      const tokens = s.tokens[b];
      const r1 = row(card, 'lesson-row tight');
      matrix(r1, { label: 'x', value: trace.input(b), rows: tokens, readout, highlightRow: 1 });
      matrix(r1, { label: 'q', value: trace.step(0, 'q', b), rows: tokens, readout, highlightRow: 1 });
      matrix(r1, { label: 'k', value: trace.step(0, 'k', b), rows: tokens, readout });
      matrix(r1, { label: 'v', value: trace.step(0, 'v', b), rows: tokens, readout });
      const r2 = row(card, 'lesson-row tight');
      matrix(r2, { label: 'weights', value: trace.step(0, 'weights', b), rows: tokens, cols: tokens, scale: 'sequential', readout, highlightRow: 1 });
      matrix(r2, { label: 'out', value: trace.step(0, 'out', b), rows: tokens, readout, highlightRow: 1 });
    }
    const graphBox = element(root, 'div', { className: 'lesson-graph' });
    new Graph(graphBox).show(trace, { head: 0, step: 'weights', progress: 1, batch: 0 });
    return () => trace.dispose();
  },
};
