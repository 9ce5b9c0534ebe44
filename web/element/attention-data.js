// view="attention": the given attention weights inside the element, as JSON
// (docs/reference/element.md, "Given attention weights"), read and checked.
// No DOM and no arithmetic on the weights beyond the checks (every weight a number ≥ 0,
// each row's sum for the note): the element, python/ and Node tests share
// the one contract.
//
//   {"tokens": ["The", "cat", "sat"],            T strings
//    "attention": [[…]] | [[[…]]] | [[[[…]]]],   (T, T), (H, T, T) or (L, H, T, T)
//    "layer": 0, "head": 1,                      optional: the head shown large
//    "title": "BERT, layer 0"}                   optional
import { quoteText } from '../state/state.js';

// What one element draws at most: past these the data is refused, naming the limit.
export const attentionLimits = {
  tokens: 512,             // T
  heads: 1024,             // L · H, every head's thumbnail
  weights: 4194304,        // L · H · T · T (2^22): 32 MB as float64
  characters: 64000000,    // the JSON text
  token: 200,              // characters of one token
  title: 200,              // characters of the title
};
// a row is "not summing to 1" past this (float32 softmax rows sum to 1 within 1e-6)
export const rowSumTolerance = 1e-3;

const keys = ['tokens', 'attention', 'layer', 'head', 'title'];
// the axes' names by the number of axes given
const axisNames = { 2: ['queries', 'keys'], 3: ['heads', 'queries', 'keys'], 4: ['layers', 'heads', 'queries', 'keys'] };
const shapes = '(T, T), (H, T, T) or (L, H, T, T)';

const fail = (message) => {
  throw new RangeError(message);
};
const at = (path) => `attention${path.map((i) => `[${i}]`).join('')}`;
const plural = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;

// text: the JSON inside the element. Returns {tokens, shape: [L, H, T, T],
// data (Float64Array, L·H·T·T weights, row-major), axes (2, 3 or 4: how
// many were given), layer, head, title, causal (no weight above the
// diagonal), off: {rows, first} (rows not summing to 1), note ('' or one
// line)}; or throws RangeError with one line naming the problem.
export function readAttention(text) {
  if (typeof text !== 'string' || text.trim() === '')
    fail('view="attention" needs its data: a <script type="application/json"> inside the element holding {"tokens": […], "attention": […]}');
  if (text.length > attentionLimits.characters)
    fail(`the attention data is ${text.length} characters long, beyond the element's limit of ${attentionLimits.characters}`);
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    // Python's json.dumps writes NaN and Infinity, which JSON does not allow
    if (/[[,:]\s*-?(?:NaN|Infinity)\s*[\],}]/.test(text)) fail('attention holds NaN or an infinite weight: weights must be finite numbers');
    fail('the attention data is not valid JSON');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) fail('the attention data must be a JSON object with "tokens" and "attention"');
  for (const key of Object.keys(json))
    if (!keys.includes(key)) fail(`the attention data has an unknown key ${quoteText(key)}; it takes ${keys.join(', ')}`);

  const tokens = readTokens(json.tokens);
  const T = tokens.length;
  const { shape, axes, data } = readWeights(json.attention, T);
  const [L, H] = shape;
  const layer = readIndex(json, 'layer', L, axes === 4 ? 'layers' : null);
  const head = readIndex(json, 'head', H, axes >= 3 ? 'heads' : null);
  let title = null;
  if (json.title !== undefined && json.title !== null) {
    if (typeof json.title !== 'string') fail('title must be a string');
    if (json.title.length > attentionLimits.title) fail(`title must be at most ${attentionLimits.title} characters; got ${json.title.length}`);
    title = json.title;
  }
  const off = rowsOff(data, shape);
  return { tokens, shape, axes, data, layer, head, title, causal: isCausal(data, shape), off, note: noteOf(off, shape, axes, tokens) };
}

function readTokens(tokens) {
  if (!Array.isArray(tokens)) fail('tokens must be an array of strings, one per position');
  if (tokens.length === 0) fail('tokens must hold at least one token');
  if (tokens.length > attentionLimits.tokens) fail(`tokens: ${tokens.length} tokens is beyond the element's limit of ${attentionLimits.tokens}`);
  tokens.forEach((t, i) => {
    if (typeof t !== 'string') fail(`tokens[${i}] must be a string`);
    if (t.length > attentionLimits.token) fail(`tokens[${i}] is ${t.length} characters long, beyond the element's limit of ${attentionLimits.token}`);
  });
  return tokens;
}

// The weights as [L, H, T, T] in one array, every entry checked, after the
// limits are checked on the sizes the first entries give (before allocating).
function readWeights(attention, T) {
  if (!Array.isArray(attention)) fail(`attention must be nested arrays of shape ${shapes}`);
  let axes = 0;
  for (let node = attention; Array.isArray(node); node = node[0]) axes++;
  if (axes < 2 || axes > 4) fail(`attention must have 2, 3 or 4 axes, ${shapes}; it has ${axes}`);
  const names = axisNames[axes];
  // the sizes of the leading axes, from the first entries; the last two are T
  const lead = [];
  for (let k = 0, node = attention; k < axes - 2; k++, node = node[0]) lead.push(node.length);
  const [L, H] = axes === 4 ? lead : axes === 3 ? [1, lead[0]] : [1, 1];
  if (L * H > attentionLimits.heads) fail(`attention has ${L * H} heads (${L} layers × ${H} heads), beyond the element's limit of ${attentionLimits.heads}`);
  const sizes = [...lead, T, T];
  if (L * H * T * T > attentionLimits.weights)
    fail(`attention has ${L * H * T * T} weights (${L} × ${H} × ${T} × ${T}), beyond the element's limit of ${attentionLimits.weights}`);
  const data = new Float64Array(L * H * T * T);
  let n = 0;
  // idx: where the walk is (no array per entry: 2^22 weights stay quick); a path only for the message
  const idx = new Array(axes).fill(0);
  const path = (k) => idx.slice(0, k);
  const walk = (node, k) => {
    if (!Array.isArray(node)) fail(`${at(path(k))} must be an array: axis ${k} (${names[k]}) of ${shapes}`);
    if (node.length !== sizes[k]) {
      const which = `${at(path(k))} has ${node.length} ${node.length === 1 ? 'entry' : 'entries'} on axis ${k} (${names[k]})`;
      if (k >= axes - 2) fail(`${which}, but there ${T === 1 ? 'is 1 token' : `are ${T} tokens`}`);
      fail(`${which}; the first has ${sizes[k]}`);
    }
    if (k < axes - 1) {
      for (let i = 0; i < node.length; i++) {
        idx[k] = i;
        walk(node[i], k + 1);
      }
      return;
    }
    for (let i = 0; i < node.length; i++) {  // a row of weights
      const v = node[i];
      if (typeof v !== 'number' || v < 0) {
        idx[k] = i;
        const where = at(path(k + 1));
        if (v === null) fail(`${where} is null: NaN or infinite weights are refused`);
        if (typeof v !== 'number') fail(`${where} is ${Array.isArray(v) ? 'an array' : `a ${typeof v}`}, where a weight was expected (attention has ${axes} axes)`);
        fail(`${where} is negative (${v}): weights must be 0 or more`);
      }
      data[n++] = v;
    }
  };
  walk(attention, 0);
  return { shape: [L, H, T, T], axes, data };
}

// layer or head: absent (0) or an integer within the data's axis; axis null:
// the data has no such axis, so only 0 is meaningful.
function readIndex(json, name, count, axis) {
  const v = json[name];
  if (v === undefined || v === null) return 0;
  if (!Number.isInteger(v) || v < 0) fail(`${name} must be a whole number from 0; got ${quoteText(String(v))}`);
  if (v >= count) fail(axis ? `${name} ${v} is beyond the data's ${plural(count, axis.slice(0, -1))}` : `${name} ${v} is beyond the data, which has no ${name === 'layer' ? 'layers' : 'heads'} axis`);
  return v;
}

// The rows whose weights do not sum to 1 (beyond rowSumTolerance): how
// many, and the first as {layer, head, row, sum}.
function rowsOff(data, [L, H, T]) {
  let rows = 0;
  let first = null;
  for (let r = 0; r < L * H * T; r++) {
    let sum = 0;
    for (let j = 0; j < T; j++) sum += data[r * T + j];
    if (Math.abs(sum - 1) <= rowSumTolerance) continue;
    rows++;
    first ??= { layer: Math.floor(r / (H * T)), head: Math.floor(r / T) % H, row: r % T, sum };
  }
  return { rows, first };
}

// Causal: no head gives any weight to a later token (the upper triangle all 0).
function isCausal(data, [L, H, T]) {
  for (let m = 0; m < L * H; m++)
    for (let i = 0; i < T; i++)
      for (let j = i + 1; j < T; j++) if (data[(m * T + i) * T + j] !== 0) return false;
  return true;
}

function noteOf({ rows, first }, [L, H, T], axes, tokens) {
  if (!rows) return '';
  const where = `${axes === 4 ? `layer ${first.layer}, ` : ''}${axes >= 3 ? `head ${first.head}, ` : ''}row ${first.row} (${quoteText(tokens[first.row], 20)})`;
  return `${rows} of ${L * H * T} rows do not sum to 1 (within ${rowSumTolerance}); ${rows > 1 ? 'the first, ' : ''}${where}, sums to ${first.sum.toFixed(4)}. Shown as given.`;
}
