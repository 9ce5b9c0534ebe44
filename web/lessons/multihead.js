// Multi-head attention: each head's weights and graph, their outputs
// concatenated, and the output projection when there is one. Every head on
// one colour scale, so they compare by eye.
import { Graph } from '../views/graph.js';
import { formatNumber } from '../views/format.js';
import { choice, code, element, matrix, prose, readoutLine, row } from './common.js';

// Where a head puts the largest weight of its whole matrix: {row, col, value}
// (read off the core's weights, not computed).
function strongest(weights) {
  let best = 0;
  for (let n = 1; n < weights.data.length; n++) if (weights.data[n] > weights.data[best]) best = n;
  const cols = weights.shape[1];
  return { row: Math.floor(best / cols), col: best % cols, value: weights.data[best] };
}

export default {
  id: 'multihead',
  playground: (state) => `#preset=${state.preset === 'sun-rises-multihead-projected' ? state.preset : 'sun-rises-multihead'}&step=out`,
  async render(root, { engine, presetScenario, state, update }) {
    const id = state.preset === 'sun-rises-multihead-projected' ? state.preset : 'sun-rises-multihead';
    const trace = engine.run(await presetScenario(id));
    const s = trace.summary;
    const tokens = s.tokens[0];
    const weights = s.heads.map((_, h) => trace.step(h, 'weights', 0));
    const outs = s.heads.map((_, h) => trace.step(h, 'out', 0));
    prose(root, 'Several heads, each with its own W_query, W_key and W_value, attend in parallel. Their outputs are concatenated; a transformer then mixes them with one more matrix, the output projection.');
    // what these heads' numbers say: random heads agree more than they differ
    const peaks = weights.map(strongest);
    const same = peaks.every((p) => p.row === peaks[0].row && p.col === peaks[0].col);
    const where = (p) => `${tokens[p.row]} → ${tokens[p.col]}`;
    prose(root, same
      ? `Trained heads learn to look for different things. These ${s.heads.length} are random (torch.rand), and they agree more than they differ: each puts its largest weight on the same pair, ${where(peaks[0])} (${peaks.map((p) => formatNumber(p.value, 2)).join(', ')}). The lesson “Induction heads” trains heads that do differ.`
      : `Trained heads learn to look for different things. These ${s.heads.length} are random (torch.rand), and they already differ a little: their largest weights are ${peaks.map((p, h) => `head ${h}: ${where(p)} (${formatNumber(p.value, 2)})`).join('; ')}.`);
    code(root, 'self.heads = nn.ModuleList([SelfAttention(d_in, d_out_kq, d_out_v) for _ in range(num_heads)])\nout = torch.cat([head(x) for head in self.heads], dim=-1)');
    choice(root, {
      legend: 'After concatenating',
      name: 'projection',
      choices: [['sun-rises-multihead', 'stop there'], ['sun-rises-multihead-projected', 'apply an output projection W_out (4 × 3)']],
      value: id,
      onChange: (value) => update({ preset: value }),
    });
    const readout = readoutLine(root);
    // one colour scale for every head's out (weights are 0 … 1 for all)
    const limit = outs.reduce((m, o) => o.data.reduce((n, v) => Math.max(n, Math.abs(v)), m), 0);
    element(root, 'p', { className: 'lesson-text', text: `One colour scale for every head: weights 0 … 1, out ${formatNumber(-limit, 2)} … ${formatNumber(limit, 2)}.` });
    // Two heads to a row where they fit with their numbers, one on a phone.
    const heads = element(root, 'div', { className: 'lesson-heads' });
    const columns = Math.max(1, Math.min(2, Math.floor((root.clientWidth || 1200) / 520)));
    heads.style.setProperty('--columns', String(columns));
    s.heads.forEach((_, h) => {
      const card = element(heads, 'section', { className: 'lesson-card' });
      element(card, 'h3', { text: `Head ${h}` });
      const pair = row(card, 'lesson-row tight');
      const w = matrix(pair, { label: 'weights', name: `weights-${h}`, value: weights[h], rows: tokens, cols: tokens, scale: 'sequential', readout });
      // out beside its weights, its cells as large as theirs: rows line up
      matrix(pair, { label: 'out', name: `out-${h}`, value: outs[h], rows: tokens, readout, maxCell: w.layout?.cell, limit });
      const graphBox = element(card, 'div', { className: 'lesson-graph wide' });
      new Graph(graphBox).show(trace, { head: h, step: 'weights', progress: 1, batch: 0 });
    });
    const result = row(root);
    matrix(result, { label: s.output ? `concatenated heads · ${s.output}` : 'concatenated heads', value: trace.out(0), rows: tokens, readout });
    return () => trace.dispose();
  },
};
