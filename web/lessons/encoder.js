// Encoder vs decoder: one switch between no mask and the causal mask; the
// weights and the graph change together.
import { Graph } from '../views/graph.js';
import { choice, code, element, matrix, prose, readoutLine, row } from './common.js';

export default {
  id: 'encoder',
  title: 'Encoder vs. decoder',
  async render(root, { engine, presetScenario, withOverrides, state, update }) {
    const mask = state.mask === 'none' ? 'none' : 'causal';
    const trace = engine.run(withOverrides(await presetScenario('sun-rises'), { mask }));
    const tokens = trace.summary.tokens[0];
    prose(root, 'A decoder block, used for language modelling, masks the future: each token reads only itself and the past. An encoder block, for tasks like sentiment analysis, deletes that one masking line so every token talks to every other.');
    code(root, "wei = wei.masked_fill(tril == 0, float('-inf'))   # decoder: keep this line; encoder: delete it");
    choice(root, {
      legend: 'Block',
      name: 'block',
      choices: [['causal', 'decoder (causal mask)'], ['none', 'encoder (no mask)']],
      value: mask,
      onChange: (value) => update({ mask: value }),
    });
    const readout = readoutLine(root);
    const r = row(root);
    matrix(r, { label: 'masked', value: trace.step(0, 'masked', 0), rows: tokens, cols: tokens, readout });
    matrix(r, { label: 'weights', value: trace.step(0, 'weights', 0), rows: tokens, cols: tokens, scale: 'sequential', readout });
    const graphBox = element(r, 'div', { className: 'lesson-graph' });
    new Graph(graphBox).show(trace, { head: 0, step: 'weights', progress: 1, batch: 0 });
    return () => trace.dispose();
  },
};
