// The attributes of <attention-playground> (and the keys of embed.html's
// hash), checked like the URL state, and the two ways between a figure and
// the full page: the page's link for a figure's settings ("Open in the
// playground") and a figure's attributes for the page's state ("Embed this
// view"). No DOM here: the element, the page and Node tests share it.
import { escapeXml } from '../views/format.js';
import { lessonIds, maskLimit, maskToText, props, quoteText, readSetting, steps, toHash, trainingIds, defaultState, defaultSentence } from '../state/state.js';
import { maxWords } from '../state/sentence.js';
import { stepsFor } from '../state/state.js';

const views = ['matrices', 'graph', 'both', ...lessonIds, 'train', 'model', 'attention'];
export const speeds = ['10', '25', '50', '100', '0'];
// the attributes that take one of a closed list of values, read by readSettings
export const choices = {
  view: views,
  step: steps,
  controls: ['full', 'player', 'none'],
  theme: ['light', 'dark', 'auto'],
  layout: ['arcs', 'columns'],
  speed: speeds,
};
// the attributes that size a sentence's model (a preset fixes its own); the
// notebook package refuses them with a preset before writing the tag
export const sentenceOnly = { heads: 'heads', 'head-size': 'head_size', 'value-size': 'value_size', embed: 'embed', seed: 'seed' };

const code = (values) => values.map((v) => `\`${v}\``).join(', ');
const range = (prop) => `${props[prop].min} to ${props[prop].max}`;

// name: [default, its values and what they mean], in Markdown. A default in
// backticks is the value itself; any other is said in words. The order is
// the documentation's table's: docs/reference/element.md, generated from
// this table, as is the Custom Elements Manifest (scripts/docs/).
export const attributes = {
  scenario: ['`sun-rises-causal`', 'a preset id (`bank-raw`, …), or the URL of a scenario file on the page\'s own site'],
  sentence: ['none', `your own sentence instead of \`scenario\`: up to ${maxWords} words and ${props.sentence.maxLength} characters, built as the sentence notebook builds it`],
  view: ['`both`', `${code(['matrices', 'graph', 'both'])}; a lesson: ${code(lessonIds)}; \`train\` (a tiny transformer learning live), \`model\` (a GPT from a model file, every head on your text), or \`attention\` (attention weights you give, as JSON inside the element)`],
  step: ['`weights`', `the step shown: ${steps.map((step) => (step === 'rotate' ? '`rotate` (only for a scenario with rotary positions)' : `\`${step}\``)).join(', ')}`],
  head: ['`0`', 'which head (with `view="model"` or `view="attention"`: of the layer `layer`)'],
  batch: ['`0`', 'which batch element of the scenario'],
  controls: ['`player`', '`full` (the player, the batch and head pickers, the cell details), `player`, or `none`'],
  autoplay: ['absent', 'present: play once drawn (with `view="train"`: start training)'],
  theme: ['`auto`', '`light`, `dark`, or `auto`: the notebook front end\'s theme where it marks one (JupyterLab\'s or VS Code\'s), else the reader\'s `prefers-color-scheme`'],
  mask: ['the scenario\'s', `\`causal\`, \`none\`, or up to ${maskLimit} rows of 0/1 joined by dots: \`100.110.111\``],
  scale: ['the scenario\'s', '`1`: divide the scores by √head_size; `0`: do not'],
  temperature: ['the scenario\'s', `a number from ${range('temperature')}: the scores are divided by it`],
  heads: [`\`${props.heads.default}\``, `${range('heads')} heads (with \`sentence\`; alone, on the default sentence)`],
  'head-size': [`\`${props.head_size.default}\``, `${range('head_size')}: each head's query and key width (with \`sentence\`)`],
  'value-size': [`\`${props.value_size.default}\``, `${range('value_size')}: each head's value width (with \`sentence\`)`],
  embed: [`\`${props.embed.default}\``, `${range('embed')}: the embedding's width (with \`sentence\`)`],
  seed: [`\`${props.seed.default}\``, `${range('seed')}: the sentence's \`torch.manual_seed\` (with \`sentence\`)`],
  positions: ['`0`', '`1`: add sinusoidal position encodings (with `view="space"`)'],
  highlight: ['none', 'a row and its node, `3`, or a cell and its edge, `3,1` (row, column), lit as hovering lights them'],
  layout: ['`arcs`', '`arcs`, or `columns` (senders on the left, receivers on the right): the graph\'s layout'],
  caption: ['none', 'text under the figure, up to 400 characters, shown as text (never as markup)'],
  playground: ['`index.html` beside the script', 'the full page\'s http or https URL, for the figure\'s "Open in the playground" link'],
  training: ['`induction`', `with \`view="train"\`: ${code(trainingIds)}, or the URL of a training file on the page's own site`],
  steps: ['the file\'s', 'with `view="train"`: stop training after this many steps, 1 to 100000 (Train goes on from there)'],
  speed: ['`50` (a text task: `0`)', `with \`view="train"\`: steps a second, ${code(speeds)} (\`0\`: as fast as it goes)`],
  model: ['`text-gpt`', 'with `view="model"`: `text-gpt` (the lecture\'s GPT), or the URL of a model file (`.safetensors`) or of a model folder (ending in `/`) on the page\'s own site'],
  text: ['`To be, or not to be`', `with \`view="model"\`: the text the model reads, up to ${props.text.maxLength} characters`],
  layer: ['`0`', 'with `view="model"` or `view="attention"`: the layer of the head drawn large (`head` is its head)'],
};
export const attributeNames = Object.keys(attributes);

// What the element dispatches (CustomEvents on the element itself, no
// bubbling): name: [when, detail: {key: [type, meaning]} or null]. The
// element's script sends these and no others; a test holds the two together.
export const events = {
  ready: ['the figure is drawn and `data-state` is `ready`: when it first shows, and each time it is drawn again, as after a change of its attributes', null],
  stepchange: ['a trace\'s step changes: the player, its keys, the `step` property, or a new `step` attribute (also as a figure first draws a step other than `x`)', {
    step: ['string', 'the step now shown, as the `step` attribute names it'],
    index: ['number', 'its place among the figure\'s steps, from 0'],
  }],
  error: ['the figure meets a problem and says it in one line (`data-state` is `error`): a refused attribute, a scenario, training or model that does not load, bad data for `view="attention"`', {
    message: ['string', 'the line the figure shows, without its "Attention Playground: "'],
  }],
};

// What a script may use: name: [kind (method or field), type (a method's:
// what it returns), what it does].
export const members = {
  play: ['method', 'void', 'plays the steps from the one shown (from the first, at the last); only a trace\'s views (`matrices`, `graph`, `both`) have steps'],
  pause: ['method', 'void', 'stops playing, on the step shown'],
  step: ['field', 'string | null', 'the step shown; `null` before a trace is drawn and in views without steps. Setting it shows that step at once (a RangeError names the steps for any other name)'],
};

const oneOf = (name, values, given) => {
  if (!values.includes(given)) throw new RangeError(`${name} must be one of ${values.join(', ')}; got ${quoteText(given)}`);
  return given;
};

// A figure's settings from its attributes (get(name) → text or null).
// Throws RangeError with one line naming the attribute and the problem.
export function readSettings(get) {
  const s = {};
  const given = (name) => get(name) !== null;
  s.view = given('view') ? oneOf('view', choices.view, get('view')) : 'both';
  s.controls = given('controls') ? oneOf('controls', choices.controls, get('controls')) : 'player';
  s.theme = given('theme') ? oneOf('theme', choices.theme, get('theme')) : 'auto';
  s.step = given('step') ? oneOf('step', choices.step, get('step')) : 'weights';
  s.layout = given('layout') ? oneOf('layout', choices.layout, get('layout')) : 'arcs';
  for (const name of ['head', 'batch']) s[name] = given(name) ? readSetting(name, get(name)) : 0;
  for (const name of ['mask', 'scale', 'temperature']) s[name] = given(name) ? readSetting(name, get(name)) : null;
  s.autoplay = given('autoplay');

  if (given('scenario') && given('sentence')) throw new RangeError('give a scenario or a sentence, not both');
  const sized = Object.keys(sentenceOnly).filter(given);
  if (given('scenario') && sized.length)
    throw new RangeError(`${sized[0]} applies to a sentence; scenario=${quoteText(get('scenario'))} fixes its own sizes`);
  s.sentence = get('sentence') ?? (sized.length ? defaultSentence : null);
  s.scenario = s.sentence === null ? get('scenario') ?? 'sun-rises-causal' : null;
  if (s.scenario !== null && s.scenario.trim() === '') throw new RangeError('scenario must be a preset id or the URL of a scenario file');
  if (s.sentence !== null && s.sentence.trim() === '') throw new RangeError('sentence must have at least one word');
  if (s.sentence !== null && s.sentence.length > props.sentence.maxLength)
    throw new RangeError(`sentence must be at most ${props.sentence.maxLength} characters; got ${s.sentence.length}`);
  for (const [attribute, prop] of Object.entries(sentenceOnly)) s[prop] = given(attribute) ? readSetting(prop, get(attribute), attribute) : props[prop].default;

  s.positions = given('positions') ? readSetting('positions', get('positions')) : false;
  if (given('positions') && s.view !== 'space') throw new RangeError('positions applies to view="space", the lesson on position encodings');

  s.highlight = null;
  if (given('highlight')) {
    const m = /^(\d{1,3})(?:,(\d{1,3}))?$/.exec(get('highlight'));
    if (!m) throw new RangeError(`highlight must be a row, like 3, or a cell, like 3,1; got ${quoteText(get('highlight'))}`);
    s.highlight = { row: Number(m[1]), col: m[2] === undefined ? null : Number(m[2]) };
  }
  s.caption = get('caption');
  if (s.caption !== null && s.caption.length > 400) throw new RangeError(`caption must be at most 400 characters; got ${s.caption.length}`);
  s.playground = get('playground');

  for (const name of ['training', 'steps', 'speed'])
    if (given(name) && s.view !== 'train') throw new RangeError(`${name} applies to view="train"`);
  s.training = get('training') ?? 'induction';
  if (s.training.trim() === '') throw new RangeError('training must be a training preset id or the URL of a training file');
  s.steps = given('steps') ? readSetting('steps', get('steps'), 'steps', { type: 'int', min: 1, max: 100000 }) : null;
  s.speed = given('speed') ? Number(oneOf('speed', choices.speed, get('speed'))) : null;  // null: the task's own

  for (const name of ['model', 'text'])
    if (given(name) && s.view !== 'model') throw new RangeError(`${name} applies to view="model"`);
  if (given('layer') && !['model', 'attention'].includes(s.view)) throw new RangeError('layer applies to view="model" or view="attention"');
  s.model = given('model') ? readSetting('model', get('model')) : 'text-gpt';
  s.text = given('text') ? readSetting('text', get('text')) : 'To be, or not to be';
  s.layer = given('layer') ? readSetting('layer', get('layer')) : 0;
  return s;
}

const presetId = (text) => /^[a-z0-9-]{1,80}$/.test(text);

// What keeps a trace's attributes from drawing it (one line), or null.
export function traceProblem(s, summary) {
  if (s.batch >= summary.batch) return `batch ${s.batch} is beyond this scenario's ${summary.batch} batch elements`;
  if (s.head >= summary.heads.length) return `head ${s.head} is beyond this scenario's ${summary.heads.length} heads`;
  const h = s.highlight;
  if (h && h.row >= summary.query_length) return `highlight: row ${h.row} is beyond this scenario's ${summary.query_length} rows`;
  if (h && h.col !== null && h.col >= summary.context_length) return `highlight: column ${h.col} is beyond this scenario's ${summary.context_length} columns`;
  if (!stepsFor(summary).includes(s.step)) return `step ${s.step} needs a scenario with rotary positions`;
  return null;
}

// The full page's hash for a figure's settings, or null when the page cannot
// show it (a scenario or training file given by URL: the page opens files
// from the learner's own disk only).
export function playgroundHash(s) {
  const state = { ...defaultState(), step: s.step, head: s.head, batch: s.batch, graph: s.layout, mask: s.mask, scale: s.scale, temperature: s.temperature };
  if (s.view === 'train') {
    if (!presetId(s.training)) return null;
    return toHash({ ...defaultState(), train: s.training });
  }
  if (s.view === 'attention') return null;  // the given weights live in the host's page only
  if (s.view === 'model') return toHash({ ...defaultState(), model: s.model, text: s.text, layer: s.layer, head: s.head });
  if (lessonIds.includes(s.view)) {
    state.lesson = s.view;
    if (s.view === 'space') state.positions = s.positions;
  }
  if (s.sentence !== null) Object.assign(state, { sentence: s.sentence, seed: s.seed, embed: s.embed, head_size: s.head_size, value_size: s.value_size, heads: s.heads });
  else if (presetId(s.scenario)) state.preset = s.scenario;
  else return null;
  return toHash(state);
}

// The page's state as a figure's attributes, [[name, value], …], and what
// a figure cannot carry (a file from the learner's disk, typed values).
export function attributesOfState(state) {
  const a = [];
  const left = [];
  if (state.train) return { attributes: [['view', 'train'], ['training', state.train]], left };
  if (state.model) {
    a.push(['view', 'model']);
    // a file from the learner's disk is not on any site: the figure opens its default model
    if (state.file) left.push('the model file opened from your disk: put it on your site and give its URL as model');
    else a.push(['model', state.model]);
    if (state.text !== null) a.push(['text', state.text]);
    if (state.layer) a.push(['layer', String(state.layer)]);
    if (state.head) a.push(['head', String(state.head)]);
    return { attributes: a, left };
  }
  if (state.file) left.push('the scenario file opened from your disk: put it on your site and give its URL as scenario');
  if (state.sentence !== null) {
    a.push(['sentence', state.sentence]);
    for (const [attribute, prop] of Object.entries(sentenceOnly))
      if (state[prop] !== props[prop].default) a.push([attribute, String(state[prop])]);
  } else if (!state.file) a.push(['scenario', state.preset]);
  a.push(['view', state.lesson ?? 'both']);
  if (state.lesson === null) a.push(['step', state.step ?? 'weights']);
  if (state.head) a.push(['head', String(state.head)]);
  if (state.batch) a.push(['batch', String(state.batch)]);
  if (state.mask !== null) a.push(['mask', maskToText(state.mask)]);
  if (state.scale !== null) a.push(['scale', state.scale ? '1' : '0']);
  if (state.temperature !== null) a.push(['temperature', String(state.temperature)]);
  if (state.graph !== 'arcs') a.push(['layout', state.graph]);
  if (state.lesson === 'space' && state.positions) a.push(['positions', '1']);
  if (state.edits) left.push('the values you typed into cells');
  return { attributes: a, left };
}

// The two snippets for the page's "Embed this view": the element, with its
// script at the path the element's reference page suggests, and the iframe page at embedUrl.
export function embedSnippets(list, embedUrl) {
  const tag = `<attention-playground ${list.map(([n, v]) => `${n}="${escapeXml(v)}"`).join(' ')}></attention-playground>`;
  const hash = new URLSearchParams(list).toString();
  return {
    element: `<script type="module" src="assets/attention-playground/attention-playground.js"></script>\n${tag}`,
    iframe: `<iframe src="${escapeXml(`${embedUrl}#${hash}`)}" title="Attention Playground" width="100%" height="560" loading="lazy"></iframe>`,
  };
}
