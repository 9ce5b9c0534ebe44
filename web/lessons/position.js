// Where is position? GPT-2 adds a learned row per position to x; Llama turns
// q and k by an angle per position, so the scores see only i − j. The core
// runs the rotary preset with its rotation started at 0 and at 5, and says
// how far apart the two runs' turned queries and scores are.
import { badge, code, element, matrix, playgroundLink, prose, readoutLine, row } from './common.js';

const preset = 'rotary-sun-rises';
const offsets = [0, 5];

export default {
  id: 'position',
  playground: () => `#preset=${preset}&step=rotate`,
  // link(hash): the playground's URL at that hash (in a figure, the full page's, or null without one; on the page, the hash itself)
  async render(root, { engine, presetScenario, link = (hash) => hash }) {
    const scenario = await presetScenario(preset);
    // the same scenario, its positions starting at each offset: only the input changes here
    const [trace, later] = offsets.map((offset) => engine.run({ ...scenario, attention: { ...scenario.attention, rotary: { ...scenario.attention.rotary, offset } } }));
    const s = trace.summary;
    const moved = trace.compare(later, 0, 'q_rotated');
    const same = trace.compare(later, 0, 'scores');
    const tokens = s.tokens[0];
    const [T, d] = s.heads[0].steps.q;

    prose(root, 'Attention itself has no notion of order: shuffle the tokens and each output only moves with its token (see “Word order”). So every transformer puts position in somewhere. Where it goes differs.');
    const card = (title, text, line) => {
      const c = element(root, 'section', { className: 'lesson-card' });
      element(c, 'h3', { text: title });
      prose(c, text);
      code(c, line);
    };
    card('GPT-2: a learned table, added to x',
      'GPT-2 learns one vector per position (the table wpe, 1,024 rows) and adds it to each token’s embedding before the first layer. From then on position is part of x: q, k and v all carry it, and a token at position 7 looks different from the same token at position 2.',
      'x = wte[idx] + wpe[torch.arange(T)]   # (T, C): the position is inside x');
    card('Llama: a rotation, applied to q and k',
      `Llama adds nothing to x. Inside every head, each pair of numbers (j, j + d/2) of q and k is turned by the angle position · θ^(−2j/d) (θ = ${s.rotary.theta} here), the first pairs fastest. v is never turned. Turning q_i by i’s angle and k_j by j’s leaves their dot product depending on the angle between them: on i − j only.`,
      'q, k = apply_rotary_pos_emb(q, k, cos, sin)   # transformers’ Llama: x · cos + rotate_half(x) · sin');

    prose(root, `The check, on the core’s numbers: the preset “${s.title}”, head 0 (d_k = ${d}), run twice. The first run gives its ${T} tokens positions ${offsets[0]} to ${offsets[0] + T - 1}; the second, positions ${offsets[1]} to ${offsets[1] + T - 1}: the same text, later in a document.`);
    // the positions a run gives its tokens, as a range: 0–5, 5–10
    const span = (offset) => `${offset}–${offset + T - 1}`;
    const readout = readoutLine(root);
    const rotated = row(root);
    const limitOf = (...ts) => ts.reduce((m, t) => Math.max(m, ...Array.from(t.data, Math.abs)), 0);  // one colour scale per pair
    const [qa, qb] = [trace, later].map((t) => t.step(0, 'q_rotated'));
    const qLimit = limitOf(qa, qb);
    matrix(rotated, { label: `q_rotated, positions ${span(offsets[0])}`, name: 'q-rotated-a', value: qa, rows: tokens, readout, limit: qLimit });
    matrix(rotated, { label: `q_rotated, positions ${span(offsets[1])}`, name: 'q-rotated-b', value: qb, rows: tokens, readout, limit: qLimit });
    element(root, 'p', { className: 'lesson-text', text: `The turned queries differ: the largest difference between the two is ${moved.largest_difference.toFixed(4)}.` });

    const scores = row(root);
    const [sa, sb] = [trace, later].map((t) => t.step(0, 'scores'));
    const sLimit = limitOf(sa, sb);
    matrix(scores, { label: `scores, positions ${span(offsets[0])}`, name: 'scores-a', value: sa, rows: tokens, cols: tokens, readout, limit: sLimit });
    matrix(scores, { label: `scores, positions ${span(offsets[1])}`, name: 'scores-b', value: sb, rows: tokens, cols: tokens, readout, limit: sLimit });
    badge(root, `the scores at positions ${span(offsets[0])} and ${span(offsets[1])} agree within float32 rounding`, same.agrees,
      { because: 'as predicted: they depend on i − j only' });
    element(root, 'p', { className: 'lesson-text position-difference',
      text: `Largest difference between the two score matrices: ${same.largest_difference.toExponential(2)}, against scores up to ${same.largest_value.toFixed(2)}: float32 rounding, no more.` });
    prose(root, 'With GPT-2’s table, moving the text to other positions adds other rows to x, and every score changes. With rotation a head can learn “the token just before me” once, and it holds at every position.');
    const href = link(`#preset=${preset}&step=rotate`);  // null: no page to open
    if (href !== null) playgroundLink(root, href, 'See the rotation step by step in the playground');
    return () => {
      trace.dispose();
      later.dispose();
    };
  },
};
