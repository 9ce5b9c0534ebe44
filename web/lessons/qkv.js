// Queries, keys and values: what each token looks for, contains and offers,
// on the bank example, where the same `bank` row becomes different outputs.
import { Graph } from '../views/graph.js';
import { formatNumber } from '../views/format.js';
import { code, element, matrix, prose, readoutLine, row } from './common.js';

// Notebook 001's fully connected layer: one W (4 × 3) for every token.
const linearW = [[1.0, 0.2, 0.0], [0.1, 1.1, 0.0], [0.5, 0.5, 1.0], [0.0, 0.3, 0.8]];

// The bank sentences through that layer alone, as a scenario the core runs:
// a head with only a value is x @ W_value, with nothing exchanged between
// tokens (its uniform weights are not shown).
function linearScenario(bank) {
  return {
    version: 1, id: 'bank-linear', title: "'bank' through a plain linear layer", source: bank.source, tokens: bank.tokens,
    tensors: [bank.tensors.find((t) => t.name === 'x'), { name: 'W', values: linearW }],
    attention: { x: 'x', heads: [{ value: 'W' }], mask: 'none' },
  };
}

export default {
  id: 'qkv',
  playground: () => '#preset=bank-projected&step=out',
  async render(root, { engine, presetScenario }) {
    const bank = await presetScenario('bank-projected');
    const trace = engine.run(bank);
    const s = trace.summary;
    prose(root, 'Every token emits a query, “what am I looking for?”, a key, “what do I contain?”, and a value, “what will I communicate if you find me interesting?”. x stays private to the token; v is what gets aggregated.');
    code(root, 'q = x @ W_query   # what I look for\nk = x @ W_key     # what I contain\nv = x @ W_value   # what I offer\nweights = softmax(q @ k.T / sqrt(d_k))\nout = weights @ v');
    prose(root, 'Two pools, two sentences: “stream bank mud” and “money bank loan”. The bank row of x is the same in both; its row of out is not, because its neighbours differ.');
    const readout = readoutLine(root);

    // notebook 001, before attention: a layer that ignores the other tokens
    const linear = engine.run(linearScenario(bank));
    element(root, 'h3', { className: 'lesson-subhead', text: 'First, a plain linear layer' });
    const bankRows = [0, 1].map((b) => Array.from(linear.step(0, 'v', b).data.subarray(3, 6), (v) => formatNumber(v, 2)).join(', '));
    prose(root, `A fully connected layer transforms each token on its own, with the same W (4 × 3) everywhere: x @ W gives bank the row [${bankRows[0]}] by the river and [${bankRows[1]}] at the bank. Nothing in it can use the neighbours.`);
    code(root, 'embed(river_tokens) @ W\nembed(finance_tokens) @ W');
    const plain = row(root);
    for (let b = 0; b < s.batch; b++) {
      matrix(plain, { label: `x @ W, pool ${b}`, name: `linear-${b}`, value: linear.step(0, 'v', b), rows: s.tokens[b], readout, highlightRow: 1 });
    }
    linear.dispose();

    element(root, 'h3', { className: 'lesson-subhead', text: 'Then queries, keys and values' });
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
