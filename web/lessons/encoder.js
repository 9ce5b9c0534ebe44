// Encoder vs decoder: one switch between no mask and the causal mask; the
// weights and the graph change together.
import { Graph } from '../views/graph.js';
import { badge, choice, code, element, matrix, prose, readoutLine, row, slice } from './common.js';

// Notebook 004's first try: softmax over every position, then zero the
// future's weights and divide each row by what is left. The core runs it.
function renormalized(root, trace, tokens, readout) {
  const lesson = trace.renormalizeLesson(0);
  element(root, 'h3', { className: 'lesson-subhead', text: 'The long way round: mask after softmax, then renormalize' });
  prose(root, 'The notebook first masks the weights instead of the scores: softmax over every position, multiply by tril to zero the future, then divide each row by what is left so it sums to 1 again. It is the same decoder, computed the long way.');
  code(root, 'attn_weights = torch.softmax(attn_scores / d_out_kq**0.5, dim=1)\nmasked_simple = attn_weights * mask_simple\nrow_sums = masked_simple.sum(dim=1, keepdim=True)\nmasked_simple_norm = masked_simple / row_sums');
  const r = row(root);
  const [rows, cols] = lesson.unmasked.shape.slice(1);
  matrix(r, { label: 'softmax, nothing masked', name: 'unmasked', value: slice(lesson.unmasked, 0), rows: tokens, cols: tokens, scale: 'sequential', readout });
  matrix(r, { label: '× tril: the future zeroed', name: 'zeroed', value: slice(lesson.zeroed, 0), rows: tokens, cols: tokens, scale: 'sequential', readout });
  matrix(r, { label: 'row sums', name: 'row-sums', value: { shape: [rows, 1], data: Float32Array.from(lesson.row_sums.data).subarray(0, rows) }, rows: tokens, cols: ['Σ'], scale: 'sequential', readout });
  matrix(r, { label: '÷ row sums', name: 'renormalized', value: slice(lesson.renormalized, 0), rows: tokens, cols: tokens.slice(0, cols), scale: 'sequential', readout });
  badge(root, 'torch.allclose(masked_simple_norm, weights)', lesson.agrees);
}

export default {
  id: 'encoder',
  playground: (state) => `#preset=sun-rises&mask=${state.mask === 'none' ? 'none' : 'causal'}&step=weights`,
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
    if (mask === 'causal') renormalized(root, trace, tokens, readout);
    return () => trace.dispose();
  },
};
