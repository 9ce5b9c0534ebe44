// Self vs. cross attention: queries from the sentence, keys and values from
// a second sequence of another length.
import { Graph } from '../views/graph.js';
import { choice, code, element, matrix, prose, readoutLine, row } from './common.js';

export default {
  id: 'cross',
  playground: (state) => `#preset=${state.preset === 'sun-rises' ? 'sun-rises' : 'sun-rises-cross'}&step=weights`,
  async render(root, { engine, presetScenario, state, update }) {
    const id = state.preset === 'sun-rises' ? 'sun-rises' : 'sun-rises-cross';
    const trace = engine.run(await presetScenario(id));
    const s = trace.summary;
    prose(root, '“Self”-attention means keys and values come from the same tokens as the queries. In cross-attention the queries still come from x, but keys and values come from another source, such as an encoder, and it may have another length: here 8 rows of torch.rand(8, 3) against the 6 words.');
    code(root, 'queries_1 = x_1 @ W_query\nkeys_2 = x_2 @ W_key\nvalues_2 = x_2 @ W_value\nattn_weights = torch.softmax(queries_1 @ keys_2.T / d_k**0.5, dim=-1)   # (6, 8)\ncontext_vec = attn_weights @ values_2');
    choice(root, {
      legend: 'Keys and values from',
      name: 'kv-source',
      choices: [['sun-rises', 'the sentence itself (self)'], ['sun-rises-cross', 'a second sequence (cross)']],
      value: id,
      onChange: (value) => update({ preset: value }),
    });
    const readout = readoutLine(root);
    const r = row(root);
    matrix(r, { label: 'q (from x)', value: trace.step(0, 'q', 0), rows: s.tokens[0], readout });
    matrix(r, { label: `k (from ${s.context})`, value: trace.step(0, 'k', 0), rows: s.context_tokens[0], readout });
    matrix(r, { label: `v (from ${s.context})`, value: trace.step(0, 'v', 0), rows: s.context_tokens[0], readout });
    const r2 = row(root);
    matrix(r2, { label: 'weights', value: trace.step(0, 'weights', 0), rows: s.tokens[0], cols: s.context_tokens[0], scale: 'sequential', readout });
    matrix(r2, { label: 'out', value: trace.step(0, 'out', 0), rows: s.tokens[0], readout });
    const graphBox = element(r2, 'div', { className: 'lesson-graph' });
    new Graph(graphBox).show(trace, { head: 0, step: 'weights', progress: 1, batch: 0 });
    return () => trace.dispose();
  },
};
