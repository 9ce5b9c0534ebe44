// The training view: a tiny transformer learning live, a toy task or the
// lecture's character-level GPT. The worker (worker.js) trains in the core;
// this view draws what it posts: the loss curves, every head's attention on
// the probe sequence, the selected head's communication graph, the probe's
// predictions (a text task's top next-character guesses), a text model's
// samples, and a timeline to scrub back through the evaluations.
import { trainingCorpora } from '../engine/presets.js';
import { trainingIds } from '../state/state.js';
import { printedText } from '../views/format.js';
import { Curves } from './curves.js';
import { TrainingHeads } from './heads.js';
import { labelsOf } from './labels.js';
import { drawPredictions } from './probe.js';
import { Sample } from './sample.js';
import { TrainingSettings } from './settings.js';

const maxAttention = 1 << 22;

// An evaluation as kept: its attention as float32.
const compact = (e) => ({ ...e, attention: { shape: e.attention.shape, data: Float32Array.from(e.attention.data) } });

const speeds = [['10', '10 steps a second'], ['25', '25 steps a second'], ['50', '50 steps a second'], ['100', '100 steps a second'], ['0', 'as fast as it goes']];

// The presets in the task menu: the toys, then the lecture's ladder, rung by rung.
export const presetNames = {
  'previous-token': 'previous token', reverse: 'reverse', induction: 'induction', 'induction-one-layer': 'induction, one layer',
  'text-bigram': '1. no attention (a bigram)', 'text-one-head': '2. one head', 'text-four-heads': '3. four heads',
  'text-mlp': '4. four heads and an MLP', 'text-gpt': '5. a GPT: blocks, LayerNorm, residuals',
};

// Text written only when it changes: a frame that changes nothing dirties no layout.
const setText = (node, text) => {
  if (node.textContent !== text) node.textContent = text;
};

const element = (parent, tag, props = {}) => {
  const e = document.createElement(tag);
  Object.assign(e, props);
  parent.append(e);
  return e;
};

export class TrainingView {
  // root: the container; preset: an id of trainingIds; onPreset(id): the
  // learner picked another; openScenario(text): open a head in the playground.
  // autoplay: train as soon as loaded; speed: steps a second (0: unpaced;
  // null: the task's own, 50 for a toy and as fast as it goes for text);
  // stopAfter: pause there once; onReady(), onError(message): for the element.
  constructor(root, { preset, loadPreset, onPreset, openScenario = null, autoplay = false, speed = null, stopAfter = null,
    onReady = () => {}, onError = () => {} }) {
    this.root = root;
    this.preset = preset;
    this.openScenario = openScenario;
    this.autoplay = autoplay;
    this.onReady = onReady;
    this.onError = onError;
    this.losses = [];
    this.evals = [];
    this.received = 0;     // evaluations received since the run was loaded
    this.at = null;        // the evaluation index the timeline shows; null: the latest
    this.selected = { layer: 0, head: 0 };
    this.own = null;       // the learner's sequence and its evaluation
    this.build(onPreset);
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.addEventListener('message', ({ data }) => this.receive(data));
    this.speedChosen = speed !== null;
    this.speed.value = String(speed ?? 50);
    this.worker.postMessage({ type: 'speed', rate: Number(this.speed.value) });
    if (stopAfter !== null) this.worker.postMessage({ type: 'stop-after', steps: stopAfter });
    (async () => {
      const text = await loadPreset(preset);
      this.worker.postMessage({ type: 'load', text, corpora: await trainingCorpora(text) });
    })().catch((error) => this.fail(error.message));
  }

  build(onPreset) {
    const root = this.root;
    root.classList.add('training');
    const controls = element(root, 'div', { className: 'training-controls' });
    const presetField = element(controls, 'label', { className: 'field', textContent: 'Task ' });
    this.select = element(presetField, 'select', { id: 'train-preset' });
    const group = (label, ids) => {
      const g = element(this.select, 'optgroup', { label });
      for (const id of ids) g.append(new Option(presetNames[id] ?? id, id));
    };
    group('Toy tasks', trainingIds.filter((id) => !id.startsWith('text-')));
    group('The lecture’s GPT, on text', trainingIds.filter((id) => id.startsWith('text-')));
    if (!trainingIds.includes(this.preset)) this.select.add(new Option('this file', this.preset));
    this.select.value = this.preset;
    this.select.addEventListener('change', () => onPreset(this.select.value));
    this.play = element(controls, 'button', { type: 'button', id: 'train-play', className: 'primary', textContent: 'Train' });
    this.play.addEventListener('click', () => {
      this.worker.postMessage({ type: this.playing ? 'pause' : 'play' });
      this.root.dataset.worker = this.playing ? 'pausing' : 'playing';
      this.setPlaying(!this.playing);
    });
    this.stepButton = element(controls, 'button', { type: 'button', id: 'train-step', textContent: 'Step' });
    this.stepButton.addEventListener('click', () => this.worker.postMessage({ type: 'step' }));
    this.reset = element(controls, 'button', { type: 'button', id: 'train-reset', textContent: 'Reset' });
    this.reset.addEventListener('click', () => {
      this.losses = [];
      this.evals = [];
      this.live = null;
      this.at = null;
      this.own = null;
      this.worker.postMessage({ type: 'reset' });
    });
    const speedField = element(controls, 'label', { className: 'field', textContent: 'Speed ' });
    this.speed = element(speedField, 'select', { id: 'train-speed' });
    for (const [value, text] of speeds) this.speed.add(new Option(text, value));
    this.speed.addEventListener('change', () => {
      this.speedChosen = true;
      this.worker.postMessage({ type: 'speed', rate: Number(this.speed.value) });
    });
    this.settings = new TrainingSettings(root, { onSubmit: (file) => this.worker.postMessage({ type: 'load', ...file }) });
    this.status = element(root, 'p', { className: 'training-status', id: 'train-status' });
    this.status.setAttribute('aria-live', 'polite');
    this.about = element(root, 'p', { className: 'training-about' });

    const progress = element(root, 'div', { className: 'training-progress' });
    this.curves = new Curves(progress);
    this.sample = new Sample(progress);
    const timeline = element(root, 'label', { className: 'field training-timeline', textContent: 'Evaluation ' });
    this.timeline = element(timeline, 'input', { type: 'range', id: 'train-timeline', min: '0', max: '0', value: '0' });
    this.timelineText = element(timeline, 'output', { htmlFor: 'train-timeline' });
    this.timeline.addEventListener('input', () => {
      const index = Number(this.timeline.value);
      this.at = index >= this.evals.length - 1 ? null : index;
      this.own = null;
      this.draw();
    });

    const views = element(root, 'div', { className: 'training-views' });
    this.heads = new TrainingHeads(views, {
      canOpen: Boolean(this.openScenario),
      onSelect: (selected) => {
        this.selected = selected;
        this.draw();
      },
      onOpen: () => this.worker.postMessage({ type: 'scenario', tokens: this.sequence(), ...this.selected }),
    });

    const probe = element(root, 'section', { className: 'training-probe' });
    this.probeTitle = element(probe, 'h3', { className: 'small-heading', textContent: 'Predictions' });
    this.predictions = element(probe, 'table', { className: 'training-predictions' });
    const form = element(probe, 'form', { className: 'training-own' });
    this.ownLabel = element(form, 'label', { className: 'field' });
    this.ownLabelText = element(this.ownLabel, 'span', { textContent: 'Your own sequence (token ids, spaces between) ' });
    this.ownInput = element(this.ownLabel, 'input', { type: 'text', id: 'train-own', autocomplete: 'off', spellcheck: false });
    this.ownInput.setAttribute('aria-describedby', 'train-own-error');
    element(form, 'button', { type: 'submit', textContent: 'Show its attention' });
    this.ownBack = element(form, 'button', { type: 'button', textContent: 'Back to the probe', hidden: true });
    this.ownError = element(form, 'span', { className: 'field-error', id: 'train-own-error', hidden: true });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.attendOwn();
    });
    this.ownBack.addEventListener('click', () => {
      this.own = null;
      this.ownBack.hidden = true;
      this.draw();
    });
  }

  get text() {
    return this.info?.task === 'text';
  }

  // The learner's sequence: a text task's characters go to the core as they
  // are (it encodes them and names one outside the vocabulary); token ids are
  // read and checked here only for their form, the core checks their range.
  attendOwn() {
    if (this.text) {
      this.worker.postMessage({ type: 'attend', text: this.ownInput.value });
      return;
    }
    const text = this.ownInput.value.trim();
    const parts = text.split(/[\s,]+/).filter(Boolean);
    const ok = parts.length > 0 && parts.every((p) => /^\d{1,3}$/.test(p));
    this.ownError.hidden = ok;
    this.ownInput.setAttribute('aria-invalid', String(!ok));
    if (!ok) {
      this.ownError.textContent = `expected token ids 0 to ${this.info.vocab - 1} separated by spaces, at most ${this.info.length}`;
      return;
    }
    this.worker.postMessage({ type: 'attend', tokens: parts.map(Number) });
  }

  sequence() {
    return this.own ? this.own.tokens : this.info.probe.tokens;
  }

  loaded(data) {
    if (this.settings.pending) this.settings.accepted();
    else if (!this.info) this.settings.fill(data.info);  // a preset's own settings to start from
    this.at = null;
    this.own = null;
    this.drawnKey = null;
    const info = (this.info = data.info);
    this.losses = [];
    this.evals = [compact(data.eval)];
    this.received = 1;
    this.live = null;
    this.step = 0;
    this.selected = { layer: 0, head: 0 };
    this.root.classList.toggle('training-text', this.text);
    this.heads.reset(info, this.text);
    const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const gpt = [info.mlp ? `an MLP ${info.mlp}× wide` : '', info.norm ? 'LayerNorm' : '', info.bias ? 'biases' : '',
      info.mlp ? info.activation.replace('gelu_tanh', 'GELU (tanh)').replace('gelu', 'GELU').replace('relu', 'ReLU') : ''].filter(Boolean);
    const model = info.layers ? `${plural(info.layers, 'layer')} of ${plural(info.heads, 'head')}` : 'no attention layer';
    this.about.textContent = `${info.title}. ${model}, embedding ${info.embed}${gpt.length ? `, ${gpt.join(', ')}` : ''}, ${info.parameters.toLocaleString('en')} weights; `
      + (this.text ? `${info.vocab} distinct characters, ${info.corpus.train.toLocaleString('en')} to train on and ${info.corpus.val.toLocaleString('en')} to validate, ${info.length} characters of context.`
        : `vocabulary ${info.vocab}, ${info.length} tokens a sequence.`);
    this.probeTitle.textContent = this.text ? 'What the model guesses comes next, at each character of the probe' : 'Predictions';
    this.ownLabelText.textContent = this.text ? `Your own text (1 to ${info.length} characters) ` : 'Your own sequence (token ids, spaces between) ';
    this.ownInput.placeholder = this.text ? printedText(info.probe.tokens.slice(0, 12).map((t) => info.vocab_chars[t]).join('')) : info.probe.tokens.slice(0, 8).join(' ');
    this.ownInput.maxLength = this.text ? info.length * 2 : 400;  // the core says how many fit
    // a language model's step is slow: most learners want it as fast as it goes
    if (!this.speedChosen) {
      this.speed.value = this.text ? '0' : '50';
      this.worker.postMessage({ type: 'speed', rate: Number(this.speed.value) });
    }
    this.setPlaying(false);
    this.root.dataset.state = 'ready';
    this.status.classList.remove('error');
    this.draw();
    if (this.autoplay) {
      this.worker.postMessage({ type: 'play' });
      this.setPlaying(true);
    }
    this.onReady();
  }

  receive(data) {
    switch (data.type) {
      case 'loaded':
        this.loaded(data);
        break;
      case 'progress':
        this.losses.push(...data.losses);
        this.evals.push(...data.evals.map(compact));
        this.received += data.evals.length;
        this.step = data.done;
        this.bound();
        // the model now, when now is between evaluations (a text task's is
        // sent a few times a second; in between, the last one stays)
        if (data.live !== undefined) this.live = data.live;
        else if (data.evals.length) this.live = null;
        this.schedule();
        break;
      case 'paused':
        this.setPlaying(false, data.finished);
        this.root.dataset.worker = 'paused';  // the worker has stopped: no progress follows
        break;
      case 'attended':
        this.own = { tokens: data.tokens, eval: data.eval };
        this.ownBack.hidden = false;
        this.ownError.hidden = true;
        this.ownInput.setAttribute('aria-invalid', 'false');
        this.draw();
        break;
      case 'scenario':
        this.openScenario(JSON.stringify(data.scenario));
        break;
      case 'error':
        if (this.settings.pending) {
          this.settings.refused(data.message);  // the fields, the learner's text and the current run stay
        } else if (this.info && /^(tokens|text)\b/.test(data.message)) {
          this.ownError.hidden = false;
          this.ownError.textContent = data.message;
          this.ownInput.setAttribute('aria-invalid', 'true');
        } else this.fail(data.message);
        break;
      default:
        break;
    }
  }

  // Progress arrives faster than frames when training runs unpaced: one draw a frame.
  schedule() {
    this.frame ??= requestAnimationFrame(() => {
      this.frame = null;
      this.draw();
    });
  }

  // The evaluations kept for the timeline: at most 4,194,304 attention
  // numbers (16 MB as float32); past that every other one is dropped, the
  // first and the latest kept, so the timeline still spans the whole run.
  bound() {
    const { layers, heads, length } = this.info;
    const most = Math.max(20, Math.floor(maxAttention / Math.max(1, layers * heads * length * length)));
    if (this.evals.length <= most) return;
    this.evals = this.evals.filter((_, i) => i % 2 === 0 || i === this.evals.length - 1);
    if (this.at !== null) this.at = Math.min(this.evals.length - 1, Math.floor(this.at / 2));
  }

  setPlaying(playing, finished = false) {
    this.playing = playing;
    this.play.textContent = playing ? 'Pause' : finished ? 'Trained' : 'Train';
    this.play.setAttribute('aria-pressed', String(playing));
    this.root.dataset.playing = String(playing);
  }

  fail(message) {
    this.setPlaying(false);
    this.root.dataset.worker = 'paused';
    this.root.dataset.state = 'error';
    this.status.textContent = message;
    this.status.classList.add('error');
    this.onError(message);
  }

  // Everything from the evaluation the timeline is on (or the learner's own
  // sequence); the heads, graph, probe and sample only when what they show changed.
  draw() {
    if (!this.info) return;
    const latest = this.evals.length - 1;
    const index = this.at ?? latest;
    const last = this.evals[latest];
    const now = this.live ?? last;  // the model as it stands
    const shown = this.own ? this.own.eval : this.at === null ? now : this.evals[index];
    // the curves first: they read the layout, which every write after them would make stale
    this.curves.draw({ losses: this.losses, evals: this.evals, steps: this.info.steps, marked: this.at === null ? null : this.evals[index].step, accuracy: !this.text });
    const { dataset } = this.root;
    dataset.step = String(this.text ? this.step : now.step);  // a toy's: the evaluation shown, as a diverged run left it
    dataset.accuracy = String(this.text ? last.accuracy : now.accuracy);  // a text task's live view has none
    dataset.losses = String(this.losses.length);
    dataset.evaluations = String(this.received);
    // a diverged run keeps its line while the learner scrubs what it kept
    if (dataset.state !== 'error') {
      setText(this.status, this.text
        ? `Step ${this.step} of ${this.info.steps} · validation loss ${last.loss.toFixed(3)} at step ${last.step}`
        : `Step ${now.step} of ${this.info.steps} · validation loss ${now.loss.toFixed(3)} · accuracy ${(now.accuracy * 100).toFixed(1)}%`);
    }
    this.timeline.max = String(latest);
    if (this.at === null) this.timeline.value = String(latest);
    setText(this.timelineText, this.own ? ` your ${this.text ? 'text' : 'sequence'}, latest weights` : ` step ${this.at === null ? now.step : shown.step}${this.at === null ? ' (latest)' : ''}`);
    this.sample.show(this.at === null ? last : this.evals[index]);
    const key = [shown, this.selected.layer, this.selected.head];
    if (this.drawnKey && key.every((k, i) => k === this.drawnKey[i])) return;
    this.drawnKey = key;
    const tokens = this.own ? this.own.tokens : this.info.probe.tokens;
    const labels = labelsOf(tokens, this.info);
    this.heads.draw(shown, labels, this.selected);
    drawPredictions(this.predictions, { tokens, targets: this.own ? null : this.info.probe.targets, shown, info: this.info });
  }

  dispose() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.worker.terminate();
    this.root.textContent = '';
  }
}
