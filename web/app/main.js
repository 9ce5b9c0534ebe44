// Wiring only: URL state <-> controls, the engine, the player and the views.
import { checkOffThread, loadEngine, scenarioBytes, ScenarioError, tooLarge } from '../engine/engine.js';
import { notebookName, stepText } from './notebooks.js';
import { editedScenario, hasEdits, withEdit } from '../state/edits.js';
import { showEmbedCode } from './embed-view.js';
import { download, pictureSVG, picturePNG } from '../export/picture.js';
import { drive, Player } from '../state/player.js';
import { presetIndex, presetScenario, trainingText } from '../engine/presets.js';
import { pytorchSnippet } from '../export/pytorch.js';
import { scenarioFromSentence, withOverrides } from '../state/sentence.js';
import { defaultSentence, defaultState, linkNotice, parseHash, quoteText, sliderPosition, steps, temperatureAt, toHash } from '../state/state.js';
import { HeadsStrip } from '../views/heads.js';
import { LinkedViews } from '../views/linked.js';
import { MaskEditor } from '../views/mask-editor.js';
import { lessons } from '../lessons/index.js';

const $ = (id) => document.getElementById(id);
const app = $('app');
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

let engine = null;
let trace = null;
let state = defaultState();
let computedKey = '';
let baseline = null;  // the trace before the learner's last edit
let lastEdit = null;  // {key, name, index}: that edit, while its trace is shown
let presets = [];
let linkProblems = [];  // what the URL got wrong, until the learner changes something

const player = new Player(steps.length, { reducedMotion: reducedMotion.matches, onChange: onPlayer });
const headsStrip = new HeadsStrip($('all-heads'), { onHead: (head) => update({ head }) });
const views = new LinkedViews({ matrices: $('matrices'), graph: $('graph'), detail: $('detail'), onEdit,
  onGraphLayout: (graph) => update({ graph }) });
const maskEditor = new MaskEditor($('mask-editor'), { onChange: (mask) => update({ mask }) });

// ---- status -----------------------------------------------------------------

function showError(message) {
  const box = $('status');
  box.textContent = message;
  box.hidden = false;
}

function showNotice(message) {
  const box = $('notice');
  box.textContent = message;
  box.hidden = !message;
}

// ---- computing --------------------------------------------------------------

// A scenario file opened in this tab lives in sessionStorage, so a reload keeps it.
const fileKey = 'attention-playground:file';
let fileVersion = 0;

function openedFile() {
  const text = sessionStorage.getItem(fileKey);
  if (!text) throw new ScenarioError('file: the opened scenario is no longer in this tab; open it again');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(`file: not valid JSON: ${error.message}`);
  }
}

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
    computedKey = key;
    $('status').hidden = true;
    return true;
  } catch (error) {
    if (!(error instanceof ScenarioError || error instanceof RangeError)) throw error;
    if (error instanceof RangeError && error.message.startsWith('edits:') && hasEdits(state.edits)) {
      // edits that do not fit this input (from a link, say): drop them, keep the view
      linkProblems = [...linkProblems, `${error.message}; the edits were dropped`];
      state = { ...state, edits: null };
      writeHash('replace');
      return compute();
    }
    computedKey = '';
    showError(error.message);
    app.dataset.state = 'error';
    return false;
  }
}

// ---- rendering --------------------------------------------------------------

function renderInputs() {
  const sentenceMode = state.sentence !== null && !state.file;
  $('mode-preset').checked = !sentenceMode && !state.file;
  $('mode-sentence').checked = sentenceMode;
  $('mode-file').checked = !!state.file;
  $('mode-file').disabled = !state.file;
  $('clear-edits').hidden = !hasEdits(state.edits);
  $('preset-field').hidden = sentenceMode || !!state.file;
  $('sentence-form').hidden = !sentenceMode;
  $('preset').value = state.preset;
  if (document.activeElement !== $('sentence')) $('sentence').value = state.sentence ?? '';
  for (const name of ['seed', 'embed', 'head_size', 'value_size', 'heads']) {
    if (document.activeElement !== $(name)) $(name).value = state[name];
  }
  const summary = trace?.summary;
  const maskKind = Array.isArray(state.mask) ? 'custom' : state.mask ?? summary?.mask ?? 'causal';
  for (const kind of ['causal', 'none', 'custom']) $(`mask-${kind}`).checked = kind === maskKind;
  $('scale').checked = state.scale ?? summary?.scale ?? true;
  const temperature = state.temperature ?? summary?.temperature ?? 1;
  $('temperature').value = sliderPosition(temperature);
  $('temperature-value').textContent = temperature.toFixed(2);
}

function renderScenario() {
  const s = trace.summary;
  $('title').textContent = s.title || s.id;
  $('provenance').textContent = state.file
    ? `Opened from a scenario file${s.source ? ` (notebook “${notebookName(s.source)}”)` : ''}.`
    : state.sentence !== null
    ? `Built like the sentence notebook (“${notebookName(s.source)}”): Embedding(50,000, ${state.embed}) and torch.rand weights, seed ${state.seed}.`
    : `From the notebook “${notebookName(s.source)}”.`;
  $('shape-facts').textContent =
    `B = ${s.batch}, T = ${s.query_length}${s.cross ? `, context T = ${s.context_length} (cross-attention)` : ''}, ${s.heads.length} head${s.heads.length > 1 ? 's' : ''}, mask ${s.mask}${s.scale && s.heads.some((h) => h.steps.q) ? ', scaled' : ''}`;

  // a scenario without tokens labels rows by position: say so once, not "0 0 1 1"
  const unnamed = s.tokens.every((list) => list.every((t, i) => t === String(i)));
  fillSelect($('batch'), s.batch, (b) => (unnamed ? `${b}` : `${b}: ${s.tokens[b].slice(0, 6).join(' ')}${s.tokens[b].length > 6 ? ' …' : ''}`));
  fillSelect($('head'), s.heads.length, (h) => `head ${h}`);
  $('batch').value = state.batch;
  $('head').value = state.head;

  const list = $('tokens');
  list.textContent = '';
  $('tokens-none').hidden = !unnamed;
  if (unnamed) $('tokens-none').textContent = `This scenario names no tokens: its ${s.query_length} rows are positions 0 to ${s.query_length - 1} of ${s.x === 'x' ? 'x' : `x (${s.x})`}.`;
  if (!unnamed) s.tokens[state.batch].forEach((token, i) => {
    const li = document.createElement('li');
    const index = document.createElement('span');
    index.className = 'token-index';
    index.textContent = String(i);
    const text = document.createElement('span');
    text.className = 'token-text';
    text.textContent = token;  // text, never HTML
    li.append(index, text);
    list.append(li);
  });

  if (Array.isArray(state.mask)) maskEditor.show(state.mask, s.tokens[state.batch], s.context_tokens[state.batch]);
  else maskEditor.hide();
}

function fillSelect(select, count, label) {
  if (select.options.length === count && select.dataset.trace === String(trace.id)) return;
  select.textContent = '';
  for (let i = 0; i < count; i++) select.add(new Option(label(i), String(i)));
  select.dataset.trace = String(trace.id);
}

// What the step lines say about this scenario: its sizes, self or cross, and
// how it made x (randn, an embedding of a sentence, the notebook's numbers).
function stepFacts(s) {
  const head = s.heads[state.head] ?? s.heads[0];
  const x = s.tensors.find((t) => t.name === s.x);
  return {
    cross: s.cross,
    batch: s.batch,
    Tq: s.query_length,
    Tkv: s.context_length,
    headSize: head.steps.q ? head.steps.q[1] : null,
    x: { entry: scenario?.tensors?.find((t) => t.name === s.x), shape: x?.shape ?? [] },
  };
}

function renderStep() {
  const step = steps[player.index];
  const text = stepText[step];
  const facts = trace && stepFacts(trace.summary);
  const said = (line) => (typeof line === 'function' ? (facts ? line(facts) : '') : line);
  $('step-title').textContent = text.title;
  $('step-text').textContent = text.text;
  $('formula').textContent = said(text.formula);
  $('pytorch-line').textContent = said(text.pytorch);
  for (const button of document.querySelectorAll('.step-button')) {
    const current = button.dataset.step === step;
    button.classList.toggle('current', current);
    if (current) button.setAttribute('aria-current', 'step');
    else button.removeAttribute('aria-current');
  }
  $('play').textContent = player.playing ? 'Pause' : 'Play';
  $('play').setAttribute('aria-pressed', player.playing ? 'true' : 'false');
  $('back').disabled = player.index === 0;
  $('forward').disabled = player.index === steps.length - 1;
  const edit = lastEdit && baseline ? { baseline, name: lastEdit.name, index: lastEdit.index } : null;
  if (trace) views.show(trace, { head: state.head, batch: state.batch, step, progress: player.progress, edit });
  if (trace) headsStrip.show(trace, { head: state.head, batch: state.batch, step });
  // after show: a new layout redraws the graph's last trace, which compute() may just have disposed
  views.graph.setLayout(state.graph);
}

// ---- lessons ----------------------------------------------------------------

let disposeLesson = () => {};
let lastPlaygroundHash = '#';

function renderNav() {
  const nav = $('lessons-nav');
  if (!nav.childElementCount) {
    const link = (href, text) => {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = text;
      nav.append(a);
    };
    link('#', 'Playground');
    for (const lesson of lessons) link(`#lesson=${lesson.id}`, lesson.title);
    link('#train=induction', 'Watch attention learn');
  }
  // back to the playground as the learner left it (sentence, settings), not to the default
  if (!state.lesson && !state.train) lastPlaygroundHash = window.location.hash || '#';
  nav.querySelector('a').setAttribute('href', lastPlaygroundHash);
  const current = state.train ? '#train=induction' : state.lesson ? `#lesson=${state.lesson}` : lastPlaygroundHash;
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

// Renders can overlap (a lesson awaits the core's numbers): each draws into
// its own container, and one that a newer render has overtaken removes its
// container and disposes its trace instead of drawing a second lesson.
let lessonRenders = 0;

async function renderLesson() {
  const generation = ++lessonRenders;
  const lesson = lessons.find((l) => l.id === state.lesson);
  disposeLesson();
  disposeLesson = () => {};
  app.dataset.view = 'lesson';
  $('lesson').hidden = false;
  $('lesson-title').textContent = lesson.title;
  const body = $('lesson-body');
  body.textContent = '';
  body.dataset.lesson = lesson.id;
  const container = document.createElement('div');
  container.className = 'lesson-content';
  body.append(container);
  try {
    const dispose = (await lesson.render(container, { engine, presetScenario, withOverrides, state, update,
      openScenario: (text) => openScenarioText(text, { step: 'weights' }) })) ?? (() => {});
    if (generation !== lessonRenders) {
      dispose();
      container.remove();
      return;
    }
    disposeLesson = dispose;
    $('status').hidden = true;
    app.dataset.state = 'ready';
  } catch (error) {
    if (generation !== lessonRenders) return;
    if (!(error instanceof ScenarioError)) throw error;
    showError(error.message);
    app.dataset.state = 'error';
  }
}

// The training view keeps its worker while the preset stays: a render for
// any other reason must not restart a training.
let training = null;

function disposeTraining() {
  training?.view.dispose();
  training = null;
}

async function renderTraining() {
  disposeLesson();
  disposeLesson = () => {};
  app.dataset.view = 'train';
  $('lesson').hidden = false;
  $('lesson-title').textContent = 'Watch attention learn';
  if (training?.preset === state.train) return;
  disposeTraining();
  // the training view's modules load when it opens: a first visit skips them
  const { TrainingView } = await import('../training/view.js');
  if (!state.train || training) return;  // the learner moved on, or another render got here first
  const body = $('lesson-body');
  body.textContent = '';
  body.dataset.lesson = 'train';
  const container = document.createElement('div');
  container.className = 'lesson-content';
  body.append(container);
  training = {
    preset: state.train,
    view: new TrainingView(container, {
      preset: state.train,
      loadPreset: trainingText,
      onPreset: (id) => update({ train: id }),
      openScenario: (text) => openScenarioText(text, { step: 'weights' }),
    }),
  };
  $('status').hidden = true;
  app.dataset.state = 'ready';
}

// Whatever goes wrong, the learner sees it: never a page stuck loading. The
// core's refusals are the learner's to fix and need no apology.
function fail(error) {
  if (error instanceof ScenarioError || error instanceof RangeError) {
    showError(error.message);
  } else {
    console.error(error);
    showError(`Something went wrong: ${error instanceof Error ? error.message : String(error)}`);
  }
  app.dataset.state = 'error';
}

function refresh() {
  return render().catch(fail);
}

async function render() {
  renderNav();
  showNotice(linkNotice(linkProblems));
  if (state.train) {
    await renderTraining();
    return;
  }
  disposeTraining();
  if (state.lesson) {
    await renderLesson();
    return;
  }
  disposeLesson();
  disposeLesson = () => {};
  app.dataset.view = 'playground';
  $('lesson').hidden = true;
  renderInputs();
  if (!(await compute())) {
    renderInputs();
    if (Array.isArray(state.mask) && trace) maskEditor.show(state.mask, trace.summary.tokens[0], trace.summary.context_tokens[0]);
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
  showNotice(linkNotice(problems));
  views.clear();  // before the panels: a matrix that keeps focus shows its cell again
  player.go(steps.indexOf(state.step), { animate: false });
  renderInputs();
  renderScenario();
  renderStep();
  app.dataset.state = 'ready';
}

// ---- state changes ----------------------------------------------------------

function writeHash(mode) {
  const hash = toHash(state);
  if (hash === window.location.hash || (hash === '#' && !window.location.hash)) return;
  if (mode === 'push') history.pushState(null, '', hash);
  else history.replaceState(null, '', hash);
  appliedHash = window.location.hash;
  if (!$('embed-code').hidden) showEmbedCode($('embed-code'), state);
}

function update(patch, { history: mode = 'push' } = {}) {
  linkProblems = [];
  // edits belong to the tensors of one input: a new input starts clean
  const inputKeys = ['preset', 'sentence', 'file', 'seed', 'embed', 'head_size', 'value_size', 'heads'];
  if (inputKeys.some((k) => k in patch) && !('edits' in patch)) patch = { ...patch, edits: null };
  const affectsScenario = Object.keys(patch).some((k) => !['batch', 'head', 'step', 'graph'].includes(k));
  state = { ...state, ...patch };
  if (affectsScenario && !('mask' in patch) && ('preset' in patch || 'sentence' in patch)) {
    // a new input starts from its own mask, scale and temperature
    if ('preset' in patch || state.sentence === null) Object.assign(state, { mask: null, scale: null, temperature: null });
  }
  writeHash(mode);
  if (affectsScenario) refresh();
  else if (trace) {
    renderScenario();
    renderStep();
  }
}

function onPlayer({ stepChanged }) {
  if (stepChanged) {
    state.step = steps[player.index];
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

// ---- export -----------------------------------------------------------------

function exportName(extension) {
  return `${trace.summary.id}${hasEdits(state.edits) ? '-edited' : ''}.${extension}`;
}

const exporters = {
  'export-png': async () => {
    const s = trace.summary;
    const figures = [...views.heatmaps().map((h) => ({ view: h, caption: `${h.label} (${h.matrix.shape.join(' × ')})`, legend: h.legendText() })),
      { view: views.graph, caption: s.cross ? 'Communication graph: context → queries' : 'Communication graph', legend: 'an edge j → i for each position i may attend to, as thick as weights[i, j]' }];
    const subtitle = `step ${state.step} · head ${state.head} of ${s.heads.length} · batch element ${state.batch} of ${s.batch} · Attention Playground`;
    download(exportName('png'), await picturePNG({ title: `${s.title || s.id}${hasEdits(state.edits) ? ' (edited)' : ''}`, subtitle, figures }));
  },
  'export-svg': () => download(exportName('svg'), pictureSVG([...views.heatmaps().map((h) => h.toSVG()), views.graph.toSVGPart()]), 'image/svg+xml'),
  'export-scenario': () => download(exportName('json'), JSON.stringify(scenario, null, 2) + '\n', 'application/json'),
  'export-trace': () => download(exportName('trace.json'), trace.json(), 'application/json'),
  'export-pytorch': () => download(exportName('py'), pytorchSnippet(scenario), 'text/x-python'),
};

async function openFile(file) {
  if (!file) return;
  // the core's limit, checked before reading: a 1 GB file is never read into the tab
  if (file.size > scenarioBytes) {
    showError(`${quoteText(file.name)}: ${tooLarge(file.size).message}`);
    return;
  }
  const text = await file.text();
  try {
    // checked first, off the main thread: a bad file must neither replace
    // what is shown nor freeze the page while the core works through it
    await checkOffThread(text);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    showError(`${quoteText(file.name)}: ${error.message}`);
    return;
  }
  openScenarioText(text);
}

// A scenario made in the page (a trained head) opens as a file would.
function openScenarioText(text, settings = {}) {
  sessionStorage.setItem(fileKey, text);
  fileVersion++;
  update({ file: true, train: null, lesson: null, sentence: null, mask: null, scale: null, temperature: null, batch: 0, head: 0, ...settings });
}

// ---- controls ---------------------------------------------------------------

function debounce(f, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => f(...args), ms);
  };
}

function bindControls() {
  $('mode-preset').addEventListener('change', () => update({ sentence: null, file: null, mask: null, scale: null, temperature: null }));
  $('mode-sentence').addEventListener('change', () => update({ sentence: defaultSentence, file: null, mask: null, scale: null, temperature: null }));
  $('open-file').addEventListener('change', (e) => openFile(e.target.files[0]).catch(fail));
  // .then(run): a synchronous throw in an exporter reaches fail() too
  for (const [id, run] of Object.entries(exporters)) $(id).addEventListener('click', () => Promise.resolve().then(run).catch(fail));
  $('clear-edits').addEventListener('click', () => update({ edits: null }));
  $('embed-view').addEventListener('click', () => {
    const box = $('embed-code');
    box.hidden = !box.hidden;
    $('embed-view').setAttribute('aria-expanded', String(!box.hidden));
    if (!box.hidden) showEmbedCode(box, state);
  });
  $('preset').addEventListener('change', (e) => update({ preset: e.target.value, file: null }));
  const typed = debounce(() => {
    const sentence = $('sentence').value;
    if (sentence.trim()) update({ sentence }, { history: 'replace' });
  }, 150);
  $('sentence').addEventListener('input', typed);
  $('sentence').addEventListener('change', () => $('sentence').value.trim() && update({ sentence: $('sentence').value }));
  $('sentence-form').addEventListener('submit', (e) => e.preventDefault());

  for (const name of ['seed', 'embed', 'head_size', 'value_size', 'heads']) {
    $(name).addEventListener('input', () => {
      const input = $(name);
      const value = Number(input.value);
      const ok = input.value !== '' && Number.isInteger(value) && value >= Number(input.min) && value <= Number(input.max);
      input.setAttribute('aria-invalid', ok ? 'false' : 'true');
      // a red outline alone says nothing: the field says what it takes
      const message = $(`${name}-error`);
      message.textContent = ok ? '' : `a whole number from ${input.min} to ${input.max}`;
      message.hidden = ok;
      if (ok) update({ [name]: value }, { history: 'replace' });
    });
  }
  for (const kind of ['causal', 'none', 'custom']) {
    $(`mask-${kind}`).addEventListener('change', () => {
      if (kind !== 'custom') update({ mask: kind });
      else if (trace) {
        const { shape: [rows, cols], data } = trace.keep;
        update({ mask: Array.from({ length: rows }, (_, i) => Array.from(data.subarray(i * cols, (i + 1) * cols))) });
      }
    });
  }
  $('scale').addEventListener('change', (e) => update({ scale: e.target.checked }));
  $('temperature').addEventListener('input', (e) => update({ temperature: temperatureAt(Number(e.target.value)) }, { history: 'replace' }));
  $('batch').addEventListener('change', (e) => update({ batch: Number(e.target.value) }));
  $('head').addEventListener('change', (e) => update({ head: Number(e.target.value) }));

  $('first').addEventListener('click', () => player.go(0, { animate: false }));
  $('back').addEventListener('click', () => player.back());
  $('play').addEventListener('click', () => player.toggle());
  $('forward').addEventListener('click', () => player.forward());
  $('last').addEventListener('click', () => player.go(steps.length - 1, { animate: false }));
  $('speed').addEventListener('change', (e) => { player.speed = Number(e.target.value); });
  for (const button of document.querySelectorAll('.step-button')) {
    button.addEventListener('click', () => player.go(steps.indexOf(button.dataset.step)));
  }

  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || !playerOwnsKey(e)) return;
    const actions = {
      ' ': () => player.toggle(),
      k: () => player.toggle(),
      ArrowRight: () => player.forward(),
      l: () => player.forward(),
      ArrowLeft: () => player.back(),
      j: () => player.back(),
      Home: () => player.go(0, { animate: false }),
      End: () => player.go(steps.length - 1, { animate: false }),
    };
    const action = actions[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  });
  window.addEventListener('popstate', applyHash);
  window.addEventListener('hashchange', applyHash);
  window.addEventListener('resize', debounce(() => views.redraw(), 100));
  reducedMotion.addEventListener('change', (e) => { player.reducedMotion = e.matches; });
}

// The player's keys (Space, arrows, Home, End, j/k/l) are the player's only
// when the player or a matrix has focus, or when nothing does and the page
// has nothing to scroll; never in a lesson, never in a form field, and never
// Space on a button (it presses the button). On a matrix the arrows move
// between its cells, so only j/k/l and Space reach the player there.
function playerOwnsKey(e) {
  if (state.lesson) return false;
  const target = e.target instanceof Element ? e.target : document.body;
  if (target.closest('input, select, textarea, [contenteditable=""], [contenteditable="true"]')) return false;
  if (e.key === ' ' && target.closest('button, a, summary')) return false;
  if (target.closest('canvas, .heatmap')) return ['j', 'k', 'l', ' '].includes(e.key);
  if (target.closest('.player')) return true;
  const nothingFocused = target === document.body || target === document.documentElement;
  return nothingFocused && document.documentElement.scrollHeight <= window.innerHeight + 1;
}

// One navigation can fire both popstate and hashchange: apply each hash once.
let appliedHash = null;

function applyHash() {
  if (window.location.hash === appliedHash) return;
  appliedHash = window.location.hash;
  const { state: parsed, problems } = parseHash(window.location.hash);
  linkProblems = problems;
  state = parsed;
  refresh();
}

async function loadPresets() {
  presets = await presetIndex();
  const select = $('preset');
  const groups = new Map();
  for (const preset of presets) {
    const name = notebookName(preset.source);
    if (!groups.has(name)) {
      const group = document.createElement('optgroup');
      group.label = name;
      groups.set(name, group);
      select.append(group);
    }
    groups.get(name).append(new Option(preset.title, preset.id));
  }
}

async function main() {
  try {
    [engine] = await Promise.all([loadEngine(), loadPresets()]);
  } catch (error) {
    app.dataset.state = 'error';
    showError(`The playground could not start: ${error.message}`);
    return;
  }
  bindControls();
  applyHash();
}

main();
