// Which matrices each step shows, line by line, and what each step lights up
// in them: a step's input sits beside its result on the first line, so the
// result is on the first screen; what feeds it (the weights W_*) goes below.
// Every number is the trace's; the labels around them (÷ √2 ≈ 1.41) are
// derived from sizes the trace states.
import { formatNumber, tokenText } from './format.js';
import { activeOf } from './timing.js';

const range = (n) => Array.from({ length: n }, (_, i) => String(i));

// The divisor scaled states: √head_size when the scenario scales, and the
// temperature when it is not 1. head_size is the trace's (q's width).
export function divisorText(summary, head) {
  const steps = summary.heads[head].steps;
  const parts = [];
  if (summary.scale && steps.k) {
    const hs = steps.k[1];
    const root = Math.sqrt(hs);
    parts.push(Number.isInteger(root) ? `÷ √${hs} = ${root}` : `÷ √${hs} ≈ ${formatNumber(root, 2)}`);
  }
  if (summary.temperature !== 1) parts.push(`÷ ${formatNumber(summary.temperature, 2)} (temperature)`);
  return parts.length ? `scaled = scores ${parts.join(' ')}` : 'scaled = scores (not scaled)';
}

// step -> panels [{name, label, scale, matrix, rows, cols, animation, line, tensor, hook}]
export function plan(trace, head, batch) {
  const s = trace.summary;
  const steps = s.heads[head].steps;
  // as labels show them: a character model's newline, tab and space visible
  const tokens = s.tokens[batch].map(tokenText);
  const context = s.context_tokens[batch].map(tokenText);
  // `tensor`: the named scenario tensor this panel shows, which makes it editable
  const named = (name, label, scale, matrix, rows, cols, animation = {}, tensor = null, line = 0) =>
    matrix ? { name, label, scale, matrix, rows, cols, animation, tensor, line } : null;
  const offset = (name, rows, cols) => ({ name, offset: s.batched ? batch * rows * cols : 0 });
  const step = (name) => trace.step(head, name, batch);
  const dims = (shape) => range(shape[1]);
  const x = trace.input(batch);
  const ctx = s.cross ? trace.input(batch, { context: true }) : null;
  const v = step('v') ?? ctx ?? x;
  const source = s.cross ? 'context' : 'x';  // keys and values come from the context only in cross-attention
  // "x, no value", or "x (embedded), no value" when the tensor has its own name
  const called = (role, name) => (name === role ? role : `${role} (${name})`);
  const plus = (role) => (s.heads[head][`${role}_bias`] ? ` + b_${role}` : '');
  const vLabel = steps.v ? 'v' : `${s.cross ? called('context', s.context) : called('x', s.x)}, no value`;
  const xPanel = (line) => named('x', s.x === 'x' ? 'x' : `x (${s.x})`, 'diverging', x, tokens, dims(x.shape), { revealBy: 'row' }, offset(s.x, ...x.shape), line);
  const contextPanel = (line) => ctx && named('context', `context (${s.context})`, 'diverging', ctx, context, dims(ctx.shape), { revealBy: 'row' }, offset(s.context, ...ctx.shape), line);
  // the weights W_* under what they make
  const weightsLine = s.cross ? 2 : 1;
  const projections = ['query', 'key', 'value'].map((role) => {
    const name = s.heads[head][role];
    const w = name && trace.tensor(name);
    const panel = w && named(`tensor:${name}`, name, 'diverging', w, range(w.shape[0]), range(w.shape[1]), {}, { name, offset: 0 }, weightsLine);
    return panel && { ...panel, hook: `W_${role}` };
  });
  // the biases (gpt-v1.md section 3), each a row added to every row of its
  // product: on a line of their own, under the weights
  const biases = ['query', 'key', 'value'].map((role) => {
    const name = s.heads[head][`${role}_bias`];
    const b = name && trace.tensor(name);
    const panel = b && named(`tensor:${name}`, `+ ${name}`, 'diverging', { shape: [1, b.shape[0]], data: b.data }, ['+'], range(b.shape[0]), {}, null, weightsLine + 1);
    return panel && { ...panel, hook: `b_${role}` };
  });
  const [kvLine] = s.cross ? [1] : [0];

  return {
    x: [xPanel(0), contextPanel(0)],
    qkv: steps.q || steps.v
      ? [
          // the input beside what it makes, its row lit as each row is made
          xPanel(0),
          steps.q && named('q', `q = x · W_query${plus('query')}`, 'diverging', step('q'), tokens, dims(steps.q), { revealBy: 'row' }),
          contextPanel(1),
          steps.k && named('k', `k = ${source} · W_key${plus('key')}`, 'diverging', step('k'), context, dims(steps.k), { revealBy: 'row' }, null, kvLine),
          steps.v && named('v', `v = ${source} · W_value${plus('value')}`, 'diverging', step('v'), context, dims(steps.v), { revealBy: 'row' }, null, kvLine),
          ...projections,
          ...biases,
        ]
      : [],
    // rotary scenarios only: q and k before and after their turn, and the angle
    // of each pair (j, j + d/2) at each position, all as the core computed them
    rotate: steps.q_rotated ? rotatePanels(trace, head, batch, tokens, named, step) : [],
    scores: steps.q_rotated ? [
      named('q_rotated', 'q_rotated', 'diverging', step('q_rotated'), tokens, dims(steps.q_rotated)),
      named('k_rotated', 'k_rotated', 'diverging', step('k_rotated'), context, dims(steps.k_rotated)),
      named('scores', 'scores = q_rotated · k_rotatedᵀ', 'diverging', step('scores'), tokens, context, { revealBy: 'cell' }),
    ] : [
      steps.q && named('q', 'q', 'diverging', step('q'), tokens, dims(steps.q)),
      steps.k && named('k', 'k', 'diverging', step('k'), context, dims(steps.k)),
      named('scores', 'scores = q · kᵀ', 'diverging', step('scores'), tokens, context, { revealBy: 'cell' }),
    ],
    scaled: [
      named('scores', 'scores', 'diverging', step('scores'), tokens, context),
      named('scaled', divisorText(s, head), 'diverging', step('scaled'), tokens, context, { mode: 'morph', from: step('scores').data }),
    ],
    masked: [
      named('mask', `mask (${s.mask})`, 'binary', trace.keep, tokens, context),
      named('masked', 'masked', 'diverging', step('masked'), tokens, context, { mode: 'mask', from: step('scaled').data }),
    ],
    weights: [
      named('masked', 'masked', 'diverging', step('masked'), tokens, context),
      named('weights', 'weights = exp(masked − row max) / Σ', 'sequential', step('weights'), tokens, context, { mode: 'softmax', ...softmaxRows(trace, head, batch) }),
    ],
    out: [
      // filled for the row being built by outRow(): its weights beside v, and their products
      { name: 'weights-row', label: 'weights[i]', scale: 'sequential', matrix: null, rows: context, cols: [''], animation: {}, shape: false, line: 0, perRow: true },
      named('v', vLabel, 'diverging', v, context, dims(v.shape)),
      { name: 'products', label: 'weights[i, j] · v[j]', scale: 'diverging', matrix: null, rows: context, cols: dims(v.shape), animation: {}, line: 0, perRow: true },
      named('out', 'out = weights · v', 'diverging', step('out'), tokens, dims(steps.out), { revealBy: 'row' }),
      (s.heads.length > 1 || s.output) && { hook: 'layer-out', ...named('layer', s.output ? `layer out (heads concatenated, · ${s.output})` : 'layer out (heads concatenated)',
          'diverging', trace.out(batch), tokens, range(s.out[1]), { revealBy: 'row' }, null, 1) },
    ],
  };
}

// The rotate step: q beside the angles and q turned by them, k under them.
// Pair j's columns are j and j + d/2; the angle grows with the position.
function rotatePanels(trace, head, batch, tokens, named, step) {
  const s = trace.summary;
  const d = s.heads[head].steps.q[1];
  const angles = trace.angles(head);
  const pairs = Array.from({ length: d / 2 }, (_, j) => `${j}, ${j + d / 2}`);
  const positions = tokens.map((token, t) => `${s.rotary.offset + t}: ${token}`);
  return [
    named('q', 'q', 'diverging', step('q'), tokens, range(d), { revealBy: 'row' }),
    named('angles', `angle = p · ${s.rotary.theta}^(−2j/${d})`, 'diverging', angles, positions, pairs, { revealBy: 'row' }),
    named('q_rotated', 'q_rotated = q·cos + rotate_half(q)·sin', 'diverging', step('q_rotated'), tokens, range(d), { revealBy: 'row' }),
    named('k', 'k', 'diverging', step('k'), tokens, range(d), { revealBy: 'row' }, null, 1),
    named('k_rotated', 'k_rotated = k·cos + rotate_half(k)·sin', 'diverging', step('k_rotated'), tokens, range(d), { revealBy: 'row' }, null, 1),
  ];
}

// The out step's two panels for the row i being built: weights[i, :] as a
// column beside v's rows, and each v row times its weight, as the core's
// explanation of out[i, c] gives them (its terms' products): every column
// of the products sums to out[i, c].
export function outRow(trace, head, batch, row) {
  const s = trace.summary;
  const weights = trace.step(head, 'weights', batch);
  const cols = weights.shape[1];
  const width = s.heads[head].steps.out[1];
  const products = new Float32Array(cols * width);
  for (let c = 0; c < width; c++) {
    const { terms } = trace.explain(head, 'out', batch, row, c);
    terms.forEach(([, , product], j) => { products[j * width + c] = product; });
  }
  const token = s.tokens[batch][row];
  const name = token === undefined || token === String(row) ? `${row}` : `${row}, “${token}”`;
  return {
    'weights-row': { matrix: { shape: [cols, 1], data: weights.data.subarray(row * cols, (row + 1) * cols) }, label: `weights[${row}]`, cols: [token ?? String(row)] },
    products: { matrix: { shape: [cols, width], data: products }, label: `weights[${row}, j] · v[j]`, note: `each column sums to out[${row}]` },
  };
}

// Each row's exponentials exp(masked − row max) and their sum, as the core
// computed them for its explanations: softmax's animation plays them.
function softmaxRows(trace, head, batch) {
  const [rows, cols] = trace.step(head, 'weights', batch).shape;
  const exps = new Float32Array(rows * cols);
  const sums = [];
  for (let r = 0; r < rows; r++) {
    const e = trace.explain(head, 'weights', batch, r, 0);
    exps.set(e.exps, r * cols);
    sums.push(e.exp_sum);
  }
  return { exps, sums };
}

// The row or cell a step is working on: the animation's, or the one pinned.
export function activeRow(step, progress, result, pinned) {
  if (pinned) return pinned;
  const [rows, cols] = result.shape;
  return activeOf(step, progress, rows, cols);
}

// What the step combines into the cell or row it is filling: the rows of its
// inputs to light up, by panel name. active: {row, col} of the output.
export function marksFor(step, active, trace, head, batch, progress) {
  if (!active && step !== 'qkv' && step !== 'rotate') return {};
  const only = (r) => ({ rows: new Map([[r, 1]]), cells: [] });
  switch (step) {
    case 'qkv': {
      // x's row i makes row i of q, k and v: each panel's own row at this point
      const s = trace.summary;
      const at = (rows) => only(Math.min(rows - 1, Math.floor(Math.min(progress, 0.999) * rows)));
      const tq = s.query_length, tkv = s.context_length;
      return { x: at(tq), q: at(tq), context: at(tkv), k: at(tkv), v: at(tkv) };
    }
    case 'scores':
      return { q: only(active.row), k: only(active.col), q_rotated: only(active.row), k_rotated: only(active.col),
        scores: { rows: new Map(), cells: [{ row: active.row, col: active.col }] } };
    case 'rotate': {
      // row t of q and k turns by row t of the angles
      const at = only(Math.min(trace.summary.query_length - 1, Math.floor(Math.min(progress, 0.999) * trace.summary.query_length)));
      return { q: at, angles: at, q_rotated: at, k: at, k_rotated: at };
    }
    case 'masked':
      return { mask: only(active.row), masked: only(active.row) };
    case 'weights':
      return { masked: only(active.row), weights: only(active.row) };
    case 'out': {
      // each v row in proportion to the weight it gets, and the products it makes
      const weights = trace.step(head, 'weights', batch);
      const cols = weights.shape[1];
      const v = new Map();
      for (let j = 0; j < cols; j++) if (trace.keep.data[active.row * cols + j]) v.set(j, weights.data[active.row * cols + j]);
      return { v: { rows: v, cells: [] }, products: { rows: v, cells: [] }, out: only(active.row) };
    }
    default:
      return {};
  }
}

// The cells of a panel that differ from the same panel before the edit, and
// the edited cell itself when the panel shows its tensor.
export function changesOf(panel, before, edit) {
  if (!edit || !panel.matrix) return {};
  const old = before.find((p) => p.name === panel.name && p.line === panel.line)?.matrix;
  const out = {};
  if (old && old.data.length === panel.matrix.data.length) {
    const changed = new Uint8Array(panel.matrix.data.length);
    panel.matrix.data.forEach((v, i) => { changed[i] = v !== old.data[i] && !(Number.isNaN(v) && Number.isNaN(old.data[i])) ? 1 : 0; });
    out.changed = changed;
  }
  if (panel.tensor?.name === edit.name) {
    const cell = edit.index - panel.tensor.offset;
    if (cell >= 0 && cell < panel.matrix.data.length) out.edited = cell;
  }
  return out;
}
