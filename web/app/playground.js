// The playground view: the scenario the state asks for, computed by the
// engine, and drawn: the inputs, the tokens, the step's text, the matrices
// and graph with every head, the player; an edit in place, and the exports.
import { ScenarioError } from '../engine/engine.js';
import { presetIndex, presetScenario } from '../engine/presets.js';
import { editedScenario, hasEdits, withEdit } from '../state/edits.js';
import { drive, Player } from '../state/player.js';
import { scenarioFromSentence, withOverrides } from '../state/sentence.js';
import { linkNotice, sliderPosition, steps, stepsFor, temperatureAt } from '../state/state.js';
import { tokenText } from '../views/format.js';
import { describe, term, withTerms } from '../views/terms.js';
import { landingQuery, showLanding } from './landing.js';
import { showPrompt, stepFacts } from './step-lines.js';
import { HeadsStrip } from '../views/heads.js';
import { LinkedViews } from '../views/linked.js';
import { fileVersion, openedFile } from './file.js';
import { notebookName, stepText } from './notebooks.js';
import { $, app, engine, showError, showNotice } from './page.js';
import { linkProblems, setLinkProblems, setState, state, update, writeHash } from './router.js';
import { element } from '../views/dom.js';

export const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

export let trace = null;
export let shownSteps = stepsFor(null);  // the steps this trace plays (`rotate` only with rotary)
let computedKey = '';
let baseline = null;  // the trace before the learner's last edit
let lastEdit = null;  // {key, name, index}: that edit, while its trace is shown
let presets = [];

export const player = new Player(steps.length, { reducedMotion: reducedMotion.matches, onChange: onPlayer });
const headsStrip = new HeadsStrip($('all-heads'), { onHead: (head) => update({ head }) });
// Side by side with the graph, the step's first line of matrices ends inside
// the first screen (README: one screen); narrower, the page scrolls.
const sideBySide = window.matchMedia('(min-width: 1101px) and (min-height: 501px)');
export const views = new LinkedViews({ matrices: $('matrices'), graph: $('graph'), detail: $('detail'), onEdit,
  onGraphLayout: (graph) => update({ graph }), fitBottom: () => (sideBySide.matches ? window.innerHeight - 8 : null),
  // the graph sticks under the player: as many pools as show there whole
  fitHeight: () => (sideBySide.matches ? window.innerHeight - $('player').offsetHeight - 32 : null) });
// the words of the player's steps and the mask, each explained on hover and focus
const stepTerms = { qkv: 'query key value', scores: 'scores', masked: 'mask', weights: 'softmax' };
for (const button of document.querySelectorAll('.step-button')) if (stepTerms[button.dataset.step]) describe(button, stepTerms[button.dataset.step]);
$('mask-legend').replaceChildren(term('mask', 'Mask'));

// The mask editor loads when a custom mask is first shown (a first visit
// carries none of it); the latest show or hide is the one that holds.
let maskEditor = null;
let maskShown = 0;
function showMask(mask, rowLabels, colLabels) {
  const shown = ++maskShown;
  maskEditor ??= import('../views/mask-editor.js').then(({ MaskEditor }) => new MaskEditor($('mask-editor'), { onChange: (m) => update({ mask: m }) }));
  maskEditor.then((editor) => shown === maskShown && editor.show(mask, rowLabels, colLabels), () => { maskEditor = null; });  // a failed load is tried again
}
function hideMask() {
  ++maskShown;
  maskEditor?.then((editor) => editor.hide(), () => {});
}

// The line that says a sentence's numbers are random loads when a sentence
// is first shown (own-sentence.js); the latest state is the one it shows.
const ownOption = new Option('Your own sentence', '');
let ownSentence = null;
function tellOwnSentence(shown) {
  if (shown) ownSentence ??= import('./own-sentence.js');
  ownSentence?.then((m) => m.showOwnSentence({ heading: $('graph-heading'), matrices: $('matrices') },
    state.sentence !== null && !state.file ? state.sentence : null), () => { ownSentence = null; });
}

// ---- computing

async function scenarioFor(s) {
  const input = s.file ? openedFile() : s.sentence !== null ? scenarioFromSentence(s) : await presetScenario(s.preset);
  const base = withOverrides(input, s);
  if (!hasEdits(s.edits)) return base;
  const drawn = engine.run(base);  // the core draws every tensor once; the edits go on top
  try {
    return editedScenario(base, drawn, s.edits);
  } finally {
    drawn.dispose();
  }
}

let scenario = null;  // what the current trace was computed from, for export

function scenarioKey(s) {
  const { preset, sentence, seed, embed, head_size, value_size, heads, mask, scale, temperature, edits, file } = s;
  const input = file ? ['file', fileVersion] : sentence !== null ? [sentence, seed, embed, head_size, value_size, heads] : [preset];
  return JSON.stringify([...input, mask, scale, temperature, edits]);
}

async function compute() {
  const key = scenarioKey(state);
  if (key === computedKey && trace) return true;
  try {
    const next_scenario = await scenarioFor(state);
    if (key !== scenarioKey(state)) return false;  // a newer change is on its way
    const next = engine.run(next_scenario);
    scenario = next_scenario;
    // an edit keeps the trace before it, so the page can show what it changed
    baseline?.dispose();
    baseline = null;
    if (lastEdit && lastEdit.key === key) baseline = trace;
    else {
      trace?.dispose();
      lastEdit = null;
    }
    trace = next;
    shownSteps = stepsFor(trace.summary);
    player.count = shownSteps.length;
    computedKey = key;
    $('status').hidden = true;
    return true;
  } catch (error) {
    if (!(error instanceof ScenarioError || error instanceof RangeError)) throw error;
    if (error instanceof RangeError && error.message.startsWith('edits:') && hasEdits(state.edits)) {
      // edits that do not fit this input (from a link, say): drop them, keep the view
      setLinkProblems([...linkProblems, `${error.message}; the edits were dropped`]);
      setState({ ...state, edits: null });
      writeHash('replace');
      return compute();
    }
    computedKey = '';
    showError(error.message);
    app.dataset.state = 'error';
    return false;
  }
}

// ---- rendering

function renderInputs() {
  const sentenceMode = state.sentence !== null && !state.file;
  $('mode-preset').checked = !sentenceMode && !state.file;
  $('mode-sentence').checked = sentenceMode;
  $('mode-file').checked = !!state.file;
  $('mode-file').disabled = !state.file;
  $('clear-edits').hidden = !hasEdits(state.edits);
  // the preset and the learner's own sentence side by side on the bar: one of them is shown
  $('preset-field').hidden = !!state.file;
  $('sentence-form').hidden = !!state.file;
  $('sentence-fields').hidden = !sentenceMode;
  $('file-field').hidden = !state.file;
  $('preset').value = state.preset;
  // never blank: the menu names the learner's sentence while it is shown (Back brings it after a preset)
  if (sentenceMode) $('preset').prepend(ownOption);
  else ownOption.remove();
  ownOption.selected = sentenceMode;
  tellOwnSentence(sentenceMode);
  if (document.activeElement !== $('sentence')) $('sentence').value = state.sentence ?? '';
  for (const name of ['seed', 'embed', 'head_size', 'value_size', 'heads']) {
    if (document.activeElement !== $(name)) $(name).value = state[name];
  }
  const summary = trace?.summary;
  const maskKind = Array.isArray(state.mask) ? 'custom' : state.mask ?? summary?.mask ?? 'causal';
  for (const kind of ['causal', 'none', 'custom']) $(`mask-${kind}`).checked = kind === maskKind;
  $('scale').checked = state.scale ?? summary?.scale ?? true;
  const temperature = state.temperature ?? summary?.temperature ?? 1;
  // the slider stays where the learner put it: its neighbours can round to
  // the same temperature, and writing that back would pull it off its place
  if (temperatureAt(Number($('temperature').value)) !== temperature) $('temperature').value = sliderPosition(temperature);
  $('temperature-value').textContent = temperature.toFixed(2);
}

function renderScenario() {
  const s = trace.summary;
  $('title').textContent = s.title || s.id;
  $('file-title').textContent = s.title || s.id;
  $('provenance').textContent = state.file
    ? `Opened from a scenario file${s.source ? ` (notebook “${notebookName(s.source)}”)` : ''}.`
    : state.sentence !== null
    ? `Built like the sentence notebook (“${notebookName(s.source)}”): each word's row of Embedding(50,000, ${state.embed}) is its alphabetical rank, and the weights are torch.rand, seed ${state.seed}.`
    : `From the notebook “${notebookName(s.source)}”.`;
  $('shape-facts').textContent =
    `B = ${s.batch}, T = ${s.query_length}${s.cross ? `, context T = ${s.context_length} (cross-attention)` : ''}, ${s.heads.length} head${s.heads.length > 1 ? 's' : ''}, mask ${s.mask}${s.scale && s.heads.some((h) => h.steps.q) ? ', scaled' : ''}`;

  // a scenario without tokens labels rows by position: say so once, not "0 0 1 1"
  const unnamed = s.tokens.every((list) => list.every((t, i) => t === String(i)));
  fillSelect($('batch'), s.batch, (b) => (unnamed ? `${b}` : `${b}: ${s.tokens[b].slice(0, 6).map(tokenText).join(' ')}${s.tokens[b].length > 6 ? ' …' : ''}`));
  fillSelect($('head'), s.heads.length, (h) => `head ${h}`);
  $('batch').value = state.batch;
  $('head').value = state.head;
  // a choice of one is no choice: the bar keeps its room for the others
  $('batch-field').hidden = s.batch < 2;
  $('head-field').hidden = s.heads.length < 2;

  const list = $('tokens');
  list.textContent = '';
  $('tokens-none').hidden = !unnamed;
  if (unnamed) $('tokens-none').textContent = `This scenario names no tokens: its ${s.query_length} rows are positions 0 to ${s.query_length - 1} of ${s.x === 'x' ? 'x' : `x (${s.x})`}.`;
  if (!unnamed) s.tokens[state.batch].forEach((token, i) => {
    const li = element(list, 'li');
    element(li, 'span', { className: 'token-index', text: String(i) });
    element(li, 'span', { className: 'token-text', text: tokenText(token) });  // text, never HTML; a newline or space visible
  });

  if (Array.isArray(state.mask)) showMask(state.mask, s.tokens[state.batch], s.context_tokens[state.batch]);
  else hideMask();
}

function fillSelect(select, count, label) {
  if (select.options.length === count && select.dataset.trace === String(trace.id)) return;
  select.textContent = '';
  for (let i = 0; i < count; i++) select.add(new Option(label(i), String(i)));
  select.dataset.trace = String(trace.id);
}

function renderStep() {
  const step = shownSteps[player.index];
  const text = stepText[step];
  const facts = trace && stepFacts(trace.summary, { head: state.head, scenario });
  const said = (line) => (typeof line === 'function' ? (facts ? line(facts) : '') : line);
  // a title or line that depends on the trace reads its facts, or the causal default before one
  const told = (line) => (typeof line === 'function' ? line(facts ?? {}) : line);
  withTerms($('step-title'), told(text.title));
  withTerms($('step-text'), told(text.text));
  $('formula').textContent = said(text.formula);
  $('pytorch-line').textContent = said(text.pytorch);
  for (const button of document.querySelectorAll('.step-button')) {
    const current = button.dataset.step === step;
    button.parentElement.hidden = !shownSteps.includes(button.dataset.step);
    button.classList.toggle('current', current);
    if (current) button.setAttribute('aria-current', 'step');
    else button.removeAttribute('aria-current');
  }
  $('play').textContent = player.playing ? 'Pause' : 'Play';
  $('play').setAttribute('aria-pressed', player.playing ? 'true' : 'false');
  disable($('back'), player.index === 0);
  disable($('forward'), player.index === shownSteps.length - 1);
  const landed = landing && trace && step === 'weights' ? landingQuery(trace.summary, trace.keep, state.batch) : null;
  if (landed) showLanding($('prompt'), landed);
  else showPrompt($('prompt'), player.index, shownSteps.length);
  const edit = lastEdit && baseline ? { baseline, name: lastEdit.name, index: lastEdit.index } : null;
  if (landed) Object.assign(views.graph, { edgeMode: 'one', query: landed.row });
  if (trace) views.show(trace, { head: state.head, batch: state.batch, step, progress: player.progress, edit });
  if (landed) {
    views.highlight({ batch: state.batch, row: landed.row });
    // the matrices mark the query's row, not the animation's last one
    views.stage.pinned = { row: landed.row, col: 0 };
    views.stage.mark();
  }
  if (trace) headsStrip.show(trace, { head: state.head, batch: state.batch, step });
  // after show: a new layout redraws the graph's last trace, which compute() may just have disposed
  views.graph.setLayout(state.graph);
}

// A button about to be disabled hands its focus to the player: focus left on
// a disabled button falls to the page, and the keys would lose their place.
function disable(button, off) {
  if (off && document.activeElement === button) $('player').focus({ preventScroll: true });
  button.disabled = off;
}

// A bare link's first screen (landing.js) lasts until the player moves.
let landing = false;
let following = false;  // the player is set to the state's step, not moved by the learner

// The playground for the state: its scenario computed when it changed, then every panel.
export async function renderPlayground() {
  app.dataset.view = 'playground';
  $('lesson').hidden = true;
  renderInputs();
  if (!(await compute())) {
    renderInputs();
    if (Array.isArray(state.mask) && trace) showMask(state.mask, trace.summary.tokens[0], trace.summary.context_tokens[0]);
    return;
  }
  const problems = [...linkProblems];
  if (state.batch >= trace.summary.batch) {
    problems.push(`batch ${state.batch} is beyond this scenario's ${trace.summary.batch}; showing 0`);
    state.batch = 0;
  }
  if (state.head >= trace.summary.heads.length) {
    problems.push(`head ${state.head} is beyond this scenario's ${trace.summary.heads.length}; showing 0`);
    state.head = 0;
  }
  if (state.step !== null && !shownSteps.includes(state.step)) {
    problems.push(`step ${state.step} needs a scenario with rotary positions; showing scores`);
    state.step = 'scores';
  }
  showNotice(linkNotice(problems));
  views.clear();  // before the panels: a matrix that keeps focus shows its cell again
  // the state's own step, read, not written: a bare link stays bare (step null: the landing)
  following = true;
  try {
    player.go(shownSteps.indexOf(state.step ?? 'weights'), { animate: false });
  } finally {
    following = false;
  }
  landing = state.step === null;
  renderInputs();
  renderScenario();
  renderStep();
  app.dataset.state = 'ready';
}

// Another batch, head, step or graph layout of the same trace.
export function rerender() {
  if (trace) {
    renderScenario();
    renderStep();
  }
}

function onPlayer({ stepChanged }) {
  if (stepChanged && landing) {
    landing = false;
    if (views.graph.edgeMode === 'one') views.graph.edgeMode = null;  // the graph's own choice again
    views.graph.pick(null);
  }
  if (stepChanged && !following) {
    state.step = shownSteps[player.index];
    writeHash(player.playing ? 'replace' : 'push');
  }
  if (trace && app.dataset.state !== 'loading') renderStep();
  if (player.playing || player.progress < 1) drive(player);
}

function onEdit(name, index, value) {
  const edits = withEdit(state.edits, name, index, value);
  lastEdit = { key: scenarioKey({ ...state, edits }), name, index };
  update({ edits });
}

// ---- export

function exportName(extension) {
  return `${trace.summary.id}${hasEdits(state.edits) ? '-edited' : ''}.${extension}`;
}

// what leaves as a file loads when first asked for: a first visit carries none of it
const picture = () => import('../export/picture.js');

export const exporters = {
  'export-png': async () => {
    const { download, picturePNG } = await picture();
    const s = trace.summary;
    const figures = [...views.heatmaps().map((h) => ({ view: h, caption: `${h.label} (${h.matrix.shape.join(' × ')})`, legend: h.legendText() })),
      { view: views.graph, caption: s.cross ? 'Communication graph: context → queries' : 'Communication graph', legend: 'an edge j → i for each position i may attend to, as thick as weights[i, j]' }];
    const subtitle = `step ${shownSteps[player.index]} · head ${state.head} of ${s.heads.length} · batch element ${state.batch} of ${s.batch} · Attention Playground`;
    download(exportName('png'), await picturePNG({ title: `${s.title || s.id}${hasEdits(state.edits) ? ' (edited)' : ''}`, subtitle, figures }));
  },
  'export-svg': async () => {
    const { download, pictureSVG } = await picture();
    const parts = await Promise.all([...views.heatmaps().map((h) => h.toSVG()), views.graph.toSVGPart()]);
    download(exportName('svg'), pictureSVG(parts), 'image/svg+xml');
  },
  'export-scenario': async () => (await picture()).download(exportName('json'), JSON.stringify(scenario, null, 2) + '\n', 'application/json'),
  'export-trace': async () => (await picture()).download(exportName('trace.json'), trace.json(), 'application/json'),
  'export-pytorch': async () => {
    const [{ download }, { pytorchSnippet }] = await Promise.all([picture(), import('../export/pytorch.js')]);
    download(exportName('py'), pytorchSnippet(scenario), 'text/x-python');
  },
};

export async function loadPresets() {
  presets = await presetIndex();
  const select = $('preset');
  const groups = new Map();
  for (const preset of presets) {
    const name = notebookName(preset.source);
    if (!groups.has(name)) {
      groups.set(name, element(select, 'optgroup', { label: name }));
    }
    groups.get(name).append(new Option(preset.title, preset.id));
  }
}
