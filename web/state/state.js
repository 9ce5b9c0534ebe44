import { editsFromText, editsToText } from './edits.js';

// The whole view as one typed table that round-trips through the URL hash:
// preset or sentence, every control, batch, head and step. Values read from
// the URL are validated like any input; a bad one falls back to its default
// and is reported, never trusted.

export const steps = ['x', 'qkv', 'rotate', 'scores', 'scaled', 'masked', 'weights', 'out'];

// The steps a trace plays: `rotate` only for a scenario with rotary positions.
export function stepsFor(summary) {
  return summary?.rotary ? steps : steps.filter((step) => step !== 'rotate');
}

export const lessonIds = ['trick', 'qkv', 'encoder', 'cross', 'multihead', 'scaling', 'space', 'position', 'learn', 'lecture'];

// The training presets (web/trainings/): the toys in the lesson's order, then
// the lecture's ladder, from a bigram to a GPT, on text.
export const trainingIds = ['previous-token', 'reverse', 'induction', 'induction-one-layer',
  'text-bigram', 'text-one-head', 'text-four-heads', 'text-mlp', 'text-gpt'];

export const defaultSentence = 'The sun rises in the east';

const int = (min, max) => ({ type: 'int', min, max });

// name: {type, default, …}; `null` default = absent unless given.
export const props = {
  preset: { type: 'id', default: 'sun-rises-causal' },
  sentence: { type: 'text', default: null, maxLength: 400 },
  seed: { ...int(0, 2 ** 31 - 1), default: 123 },
  embed: { ...int(1, 64), default: 3 },
  head_size: { ...int(1, 64), default: 2 },
  value_size: { ...int(1, 64), default: 4 },
  heads: { ...int(1, 8), default: 1 },
  mask: { type: 'mask', default: null },  // null: the scenario's own
  scale: { type: 'bool', default: null },
  temperature: { type: 'number', min: 0.05, max: 20, default: null },
  batch: { ...int(0, 63), default: 0 },
  head: { ...int(0, 63), default: 0 },
  // null: a link without step=, which opens on the weights with one query in
  // focus (app/landing.js); any step the learner moves to is written, weights too
  step: { type: 'enum', values: steps, default: null, kept: 'weights' },
  graph: { type: 'enum', values: ['arcs', 'columns'], default: 'arcs' },  // the graph's layout
  // bare: the value of `#lesson` alone (as of `#train`, `#model`)
  lesson: { type: 'enum', values: lessonIds, default: null, bare: lessonIds[0] },
  train: { type: 'enum', values: trainingIds, default: null, bare: 'induction' },  // the training view's preset
  order: { type: 'order', default: null },  // the space lesson's word order: "5.4.3.2.1.0"
  positions: { type: 'bool', default: null },
  edits: { type: 'edits', default: null },  // values typed into cells of x or a weight
  file: { type: 'bool', default: null },     // a scenario file opened in this tab; in the Model view, a model file opened from disk
  factor: { type: 'number', min: 0.25, max: 16, default: 3 },
  // the Model view: a model preset id or a same-origin URL of a model file,
  // the learner's text, the selected layer (and `head` above)
  model: { type: 'model', default: null, maxLength: 400, bare: 'text-gpt' },
  text: { type: 'text', default: null, maxLength: 400 },
  layer: { ...int(0, 63), default: 0 },
  // the Model view's sampling beside `temperature`: top-k (0: off) and top-p (1: off)
  top_k: { ...int(0, 1000000), default: null },
  top_p: { type: 'number', min: 0.001, max: 1, default: null },
  // which of the text's tokens Generate wrote: runs "start_id.id…" joined by
  // "-" (model/generated.js reads them once the model is open)
  generated: { type: 'runs', default: null, kept: 'none', maxLength: 3300 },
  // the Model view's lenses (web/lens/): which, the heads ablated ("0.1,1.2"), how, at which position and token
  lens: { type: 'enum', values: ['scores', 'ablate', 'logit-lens', 'attribution'], default: null },
  ablate: { type: 'heads', default: null },
  mode: { type: 'enum', values: ['zero', 'mean'], default: null },
  at: { ...int(0, 1e5), default: null },
  token: { ...int(0, 1e7), default: null },
};

// What the Model view's link keeps: nothing else of the table applies there
// (file: the model shown came from the learner's disk, which a link cannot carry).
export const modelKeys = ['model', 'file', 'text', 'layer', 'head', 'temperature', 'top_k', 'top_p', 'generated', 'lens', 'ablate', 'mode', 'at', 'token'];

// The temperature slider is logarithmic over the range a link accepts:
// 0.05 · 400^(position / 1000), so 0.05, 1 and 20 sit at 0, 500 and 1000.
export function temperatureAt(position) {
  return Number((0.05 * 400 ** (position / 1000)).toPrecision(3));
}
export function sliderPosition(temperature) {
  return Math.round((1000 * Math.log(temperature / 0.05)) / Math.log(400));
}

// The largest custom mask a link may carry: the mask editor draws one button
// per cell, so a 1400 × 1400 mask in a hash once meant two million buttons.
export const maskLimit = 64;

// A custom mask in the URL: rows of 0/1 joined by dots, "1000.1100.1110".
export function maskToText(mask) {
  if (typeof mask === 'string') return mask;
  return mask.map((row) => row.join('')).join('.');
}

export function maskFromText(text) {
  if (text === 'causal' || text === 'none') return text;
  // sizes first, before any work proportional to the text
  if (text.length > maskLimit * (maskLimit + 1) || !/^[01]+(\.[01]+)*$/.test(text)) return undefined;
  const rows = text.split('.').map((row) => Array.from(row, Number));
  if (rows.length > maskLimit || rows[0].length > maskLimit) return undefined;
  return rows.every((row) => row.length === rows[0].length) ? rows : undefined;
}

function parseValue(spec, raw) {
  switch (spec.type) {
    case 'id':
      return /^[a-z0-9-]{1,80}$/.test(raw) ? raw : undefined;
    case 'text':
      return raw.length > 0 && raw.length <= spec.maxLength ? raw : undefined;
    case 'model':  // a preset id or a URL; whether it is this site's is checked where it loads
      return raw.length > 0 && raw.length <= spec.maxLength && !/[\u0000-\u001f\u007f\s]/.test(raw) ? raw : undefined;
    case 'int': {
      if (!/^\d{1,10}$/.test(raw)) return undefined;
      const n = Number(raw);
      return n >= spec.min && n <= spec.max ? n : undefined;
    }
    case 'number': {
      const n = Number(raw);
      return raw !== '' && Number.isFinite(n) && n >= spec.min && n <= spec.max ? n : undefined;
    }
    case 'bool':
      return raw === '1' ? true : raw === '0' ? false : undefined;
    case 'enum':
      return spec.values.includes(raw) ? raw : undefined;
    case 'mask':
      return maskFromText(raw);
    case 'edits':
      return editsFromText(raw);
    case 'runs':
      return raw.length <= spec.maxLength && /^\d{1,3}_\d{1,7}(\.\d{1,7})*(-\d{1,3}_\d{1,7}(\.\d{1,7})*)*$/.test(raw) ? raw : undefined;
    case 'order':
      return /^\d{1,2}(\.\d{1,2}){0,63}$/.test(raw) ? raw.split('.').map(Number) : undefined;
    case 'heads':  // layer.head pairs joined by commas, as the text is kept
      return /^\d{1,2}\.\d{1,2}(,\d{1,2}\.\d{1,2}){0,99}$/.test(raw) ? raw : undefined;
    default:
      return undefined;
  }
}

// What a key of the table takes, in words: the second half of each refusal,
// and the values column of the documentation's table of URL keys.
export function takes(spec) {
  switch (spec.type) {
    case 'int': return `a whole number from ${spec.min} to ${spec.max}`;
    case 'number': return `a number from ${spec.min} to ${spec.max}`;
    case 'bool': return '0 or 1';
    case 'enum': return `one of ${spec.values.join(', ')}`;
    case 'mask': return `causal, none, or up to ${maskLimit} rows of up to ${maskLimit} 0/1 joined by dots`;
    case 'order': return 'positions joined by dots, like 2.0.1';
    case 'edits': return 'tensor.index=value pairs joined by commas';
    case 'runs': return 'runs of start_id.id… joined by -';
    case 'heads': return 'heads as layer.head joined by commas, like 0.1,1.2';
    case 'id': return 'a preset id (a-z, 0-9, -)';
    case 'model': return `a model preset id or a URL on this site, up to ${spec.maxLength} characters without spaces`;
    default: return `1 to ${spec.maxLength} characters`;
  }
}

function describe(name, spec) {
  return `${name} must be ${takes(spec)}`;
}

// One setting given as text (an element's attribute): its value, or a
// RangeError naming it as `label` with what it takes.
export function readSetting(name, raw, label = name, spec = props[name]) {
  const value = parseValue(spec, raw);
  if (value === undefined) throw new RangeError(`${describe(label, spec)}; got ${quoteText(raw)}`);
  return value;
}

// A hash longer than this is not a link anyone made with the page: the
// largest (a 64 × 64 mask, a 400-character sentence, edits) fits in far less.
// The page and embed.html both ignore all of such a hash, with this problem.
export const maxHashLength = 16384;

export function hashLengthProblem(hash) {
  if (hash.length <= maxHashLength) return null;
  return `the link's settings are ${hash.length} characters long; the limit is ${maxHashLength}, so all were ignored`;
}

// The one line the page and embed.html show for what a link got wrong ('' for nothing).
export function linkNotice(problems) {
  return problems.length ? `Some link settings were not valid and were replaced: ${problems.join('; ')}.` : '';
}

export function defaultState() {
  return Object.fromEntries(Object.entries(props).map(([name, spec]) => [name, spec.default]));
}

// User text inside a message: quoted, shortened, control characters escaped.
export function quoteText(text, max = 40) {
  const shown = JSON.stringify(text.length > max ? text.slice(0, max) : text)
    .replace(/[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  return text.length > max ? `${shown.slice(0, -1)}…" (${text.length} characters)` : shown;
}

// "#preset=bank-raw&step=weights" -> {state, problems: ["seed must be …"]}
// Names are looked up as own properties only: "__proto__" or "constructor"
// in a link is an unknown setting, never a path into Object.prototype.
export function parseHash(hash) {
  const state = defaultState();
  const problems = [];
  const tooLong = hashLengthProblem(hash);
  if (tooLong) return { state, problems: [tooLong] };
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const seen = new Set();
  for (const [name, raw] of params) {
    const spec = Object.hasOwn(props, name) ? props[name] : undefined;
    if (!spec) {
      problems.push(`unknown setting ${quoteText(name)}`);
      continue;
    }
    if (seen.has(name)) problems.push(`${name} is given more than once; the last one counts`);
    seen.add(name);
    const value = raw === '' && spec.bare !== undefined ? spec.bare : parseValue(spec, raw);
    if (value === undefined) problems.push(`${describe(name, spec)}; kept ${spec.kept ?? spec.default ?? 'the scenario\'s own'}`);
    else state[name] = value;
  }
  return { state, problems };
}

// Only what differs from the defaults, in table order; the sentence mode
// drops the preset and vice versa.
export function toHash(state) {
  const params = new URLSearchParams();
  const sentenceOnly = ['seed', 'embed', 'head_size', 'value_size', 'heads'];
  for (const [name, spec] of Object.entries(props)) {
    const value = state[name];
    if (value === null || value === undefined || value === spec.default) continue;
    if (state.model !== null && !modelKeys.includes(name)) continue;
    if (value === '') continue;  // an emptied text: the link opens on the default
    if ((state.sentence !== null || state.file) && name === 'preset') continue;
    if (state.sentence === null && sentenceOnly.includes(name)) continue;
    const text = spec.type === 'bool' ? (value ? '1' : '0') : spec.type === 'mask' ? maskToText(value)
      : spec.type === 'order' ? value.join('.') : spec.type === 'edits' ? editsToText(value) : String(value);
    params.set(name, text);
  }
  if (state.model === null && state.sentence !== null && !params.has('sentence')) params.set('sentence', state.sentence);
  return '#' + params.toString();
}
