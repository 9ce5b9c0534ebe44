// Multi-head attention: each head's weights and graph, their outputs
// concatenated, and the output projection when there is one.
import { Graph } from '../views/graph.js';
import { choice, code, element, matrix, prose, readoutLine, row } from './common.js';

export default {
  id: 'multihead',
  title: 'Multi-head attention',
  async render(root, { engine, presetScenario, state, update }) {
    const id = state.preset === 'sun-rises-multihead-projected' ? state.preset : 'sun-rises-multihead';
    const trace = engine.run(await presetScenario(id));
    const s = trace.summary;
    const tokens = s.tokens[0];
    prose(root, 'Several heads, each with its own W_query, W_key and W_value, attend in parallel and can look for different things. Their outputs are concatenated; a transformer then mixes them with one more matrix, the output projection.');
    code(root, 'self.heads = nn.ModuleList([SelfAttention(d_in, d_out_kq, d_out_v) for _ in range(num_heads)])\nout = torch.cat([head(x) for head in self.heads], dim=-1)');
    choice(root, {
      legend: 'After concatenating',
      name: 'projection',
      choices: [['sun-rises-multihead', 'stop there'], ['sun-rises-multihead-projected', 'apply an output projection W_out (4 × 3)']],
      value: id,
      onChange: (value) => update({ preset: value }),
    });
    const readout = readoutLine(root);
    // Balanced rows of head cards: 4 heads make one row of 4 or two of 2, never 3 + 1.
    const heads = element(root, 'div', { className: 'lesson-heads' });
    const fit = Math.max(1, Math.floor((root.clientWidth || 1200) / 300));
    const rowsNeeded = Math.ceil(s.heads.length / Math.min(fit, s.heads.length));
    heads.style.setProperty('--columns', String(Math.ceil(s.heads.length / rowsNeeded)));
    s.heads.forEach((_, h) => {
      const card = element(heads, 'section', { className: 'lesson-card' });
      element(card, 'h3', { text: `Head ${h}` });
      const pair = row(card, 'lesson-row tight');
      const weights = matrix(pair, { label: 'weights', name: `weights-${h}`, value: trace.step(h, 'weights', 0), rows: tokens, cols: tokens, scale: 'sequential', readout });
      // out beside its weights, its cells as tall as theirs: rows line up, no tall strip
      matrix(pair, { label: 'out', name: `out-${h}`, value: trace.step(h, 'out', 0), rows: tokens, readout, maxCell: weights.layout?.cell });
      const graphBox = element(card, 'div', { className: 'lesson-graph small' });
      new Graph(graphBox).show(trace, { head: h, step: 'weights', progress: 1, batch: 0 });
    });
    const result = row(root);
    matrix(result, { label: s.output ? `concatenated heads · ${s.output}` : 'concatenated heads', value: trace.out(0), rows: tokens, readout });
    return () => trace.dispose();
  },
};
