// The mathematical trick: averaging the past three ways, on the same x.
import { badge, choice, code, element, matrix, prose, readoutLine, row, slice } from './common.js';

export default {
  id: 'trick',
  playground: () => '#preset=math-trick&step=weights',
  render(root, { engine, state, update }) {
    const lesson = engine.averagingLesson({ seed: 42, B: 4, T: 8, C: 2 });
    const batch = Math.min(state.batch, 3);
    prose(root, 'Each of the 8 tokens should talk only to the past. The simplest way is to average: token t takes the mean of x over positions 0 … t. The notebooks compute that same average three ways, and the core checks that they agree.');
    choice(root, {
      legend: 'Batch element',
      name: 'trick-batch',
      choices: [0, 1, 2, 3].map((b) => [b, String(b)]),
      value: batch,
      onChange: (b) => update({ batch: b }),
    });
    const readout = readoutLine(root);

    const versions = row(root);
    const one = element(versions, 'section', { className: 'lesson-card' });
    element(one, 'h3', { text: 'Version 1: a loop' });
    code(one, 'for t in range(T):\n    xbow[b, t] = x[b, :t+1].mean(0)');
    const pair = row(one, 'lesson-row tight');
    matrix(pair, { label: 'x', value: slice(lesson.x, batch), readout });
    matrix(pair, { label: 'xbow', value: slice(lesson.loop, batch), readout });

    const two = element(versions, 'section', { className: 'lesson-card' });
    element(two, 'h3', { text: 'Version 2: a normalized lower-triangular matmul' });
    code(two, 'wei = torch.tril(torch.ones(T, T))\nwei = wei / wei.sum(1, keepdim=True)\nxbow2 = wei @ x');
    const twoRow = row(two, 'lesson-row tight');
    matrix(twoRow, { label: 'wei', value: lesson.tril_weights, scale: 'sequential', readout });
    matrix(twoRow, { label: 'xbow2', value: slice(lesson.tril, batch), readout });
    badge(two, 'torch.allclose(xbow2, xbow)', lesson.tril_agrees);

    const three = element(versions, 'section', { className: 'lesson-card' });
    element(three, 'h3', { text: 'Version 3: softmax over a −∞-masked zero matrix' });
    code(three, "wei = torch.zeros((T, T))\nwei = wei.masked_fill(tril == 0, float('-inf'))\nwei = F.softmax(wei, dim=-1)\nxbow3 = wei @ x");
    const threeRow = row(three, 'lesson-row tight');
    matrix(threeRow, { label: 'wei', value: lesson.softmax_weights, scale: 'sequential', readout });
    matrix(threeRow, { label: 'xbow3', value: slice(lesson.softmax, batch), readout });
    badge(three, 'torch.allclose(xbow3, xbow)', lesson.softmax_agrees);

    prose(root, 'Why a matmul averages: a @ b with a matrix of ones sums the columns of b into every row; with tril each row sums only the rows up to it; divide each row of tril by its sum and every row becomes a running mean.');
    const demos = row(root);
    for (const demo of lesson.demos) {
      const card = element(demos, 'section', { className: 'lesson-card' });
      element(card, 'h3', { text: `a = ${demo.name}` });
      const r = row(card, 'lesson-row tight');
      matrix(r, { label: 'a', value: demo.a, scale: 'sequential', readout });
      matrix(r, { label: 'b', value: demo.b, readout });
      matrix(r, { label: 'c = a @ b', value: demo.c, readout });
    }
    prose(root, 'Version 3 is the preview of self-attention: the zeros are affinities we set by hand. Next, tokens will compute them from their content (Queries, keys and values).');
    return () => {};
  },
};
