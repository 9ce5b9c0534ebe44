// No notion of space: permute the tokens and the outputs permute the same
// way; add positional encodings and they no longer do. The core runs both
// orders and says whether the outputs only moved.
import { badge, code, element, matrix, prose, readoutLine, row } from './common.js';

function shuffled(n) {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

export default {
  id: 'space',
  playground: () => '#preset=sun-rises&mask=none&step=out',
  async render(root, { engine, presetScenario, withOverrides, state, update }) {
    const trace = engine.run(withOverrides(await presetScenario('sun-rises'), { mask: 'none' }));
    const tokens = trace.summary.tokens[0];
    const n = tokens.length;
    const order = state.order && state.order.length === n ? state.order : Array.from({ length: n }, (_, i) => n - 1 - i);
    const positions = state.positions === true;
    const lesson = trace.spaceLesson(order, positions);

    prose(root, 'Attention acts over a set of vectors: nodes have no idea where they are. Shuffle the words and, with no mask, each output row is the same as before, only moved. That is why transformers add positional encodings: then the order matters.');
    code(root, 'x = token_embedding + position_embedding   # without the second term, attention cannot tell positions apart');
    const controls = row(root, 'lesson-row tight');
    const button = (text, next) => {
      const b = element(controls, 'button', { text });
      b.type = 'button';
      b.addEventListener('click', () => update({ order: next() }));
    };
    button('Reverse the words', () => [...order].reverse());
    button('Shuffle', () => shuffled(n));
    button('Original order', () => Array.from({ length: n }, (_, i) => i));
    const toggle = element(controls, 'label', { className: 'check' });
    const box = element(toggle, 'input');
    box.type = 'checkbox';
    box.id = 'space-positions';
    box.checked = positions;
    box.addEventListener('change', () => update({ positions: box.checked }));
    toggle.append(' add sinusoidal positional encodings');

    element(root, 'p', { className: 'lesson-order', text: `Order: ${order.map((i) => tokens[i]).join(' ')}` });
    // with positions, False is the point: the order now matters
    badge(root, 'the outputs only moved with their tokens', lesson.equivariant, positions
      ? { expected: false, because: 'as predicted: with positions, the order matters' }
      : { expected: true, because: 'as predicted: attention sees a set' });
    element(root, 'p', { className: 'lesson-text', text: `Largest difference between a token's output in the two orders: ${lesson.largest_difference.toExponential(2)}.` });
    prose(root, 'Left, the outputs in the original order. Middle, the same rows moved to the new order: what “only moved” predicts. Right, what the layer gives for the new order. Without positions the last two are the same.');
    const readout = readoutLine(root);
    const r = row(root);
    const width = lesson.out.shape[2];
    const first = (t) => ({ shape: [n, width], data: Float32Array.from(t.data.slice(0, n * width)) });
    const out = first(lesson.out);
    const moved = { shape: out.shape, data: Float32Array.from(order.flatMap((i) => Array.from(out.data.slice(i * width, (i + 1) * width)))) };
    const permuted = first(lesson.permuted_out);
    const limit = [...out.data, ...permuted.data].reduce((m, v) => Math.max(m, Math.abs(v)), 0);  // one colour scale for all three
    const newOrder = order.map((i) => tokens[i]);
    matrix(r, { label: 'out, original order', value: out, rows: tokens, readout, limit });
    matrix(r, { label: 'the same rows, moved', value: moved, rows: newOrder, readout, limit });
    matrix(r, { label: 'out of the new order', value: permuted, rows: newOrder, readout, limit });
    return () => trace.dispose();
  },
};
