// The training view: a tiny transformer learning live, a toy task or the
// lecture's character-level GPT. The worker (worker.js) trains in the core;
// this view draws what it posts: the loss curves, every head's attention on
// the probe sequence, the selected head's communication graph, the probe's
// predictions (a text task's top next-character guesses), a text model's
// samples, and a timeline to scrub back through the evaluations.
import { workerError } from '../engine/engine.js';
import { trainingCorpora } from '../engine/presets.js';
import { trainingControls } from './controls.js';
import { Curves } from './curves.js';
import { redrawOnChange } from './step-chart.js';
import { doneText } from './done.js';
import { InspectButton } from './inspect.js';
import { TrainingHeads } from './heads.js';
import { labelsOf } from './labels.js';
import { ProbeView } from './probe.js';
import { Sample } from './sample.js';
import { ScoreChart } from './scores.js';
import { TrainingSettings } from './settings.js';
import { element } from './dom.js';

const maxAttention = 1 << 22;

// The scores a task is about (core/transformer/head_scores.hpp): a previous-token
// head for "previous", both heads for induction; none for the others.
const kindsOf = (task) => (task === 'previous' ? ['previous'] : task === 'induction' ? ['previous', 'induction'] : []);

// An evaluation as kept: its attention as float32.
const compact = (e) => ({ ...e, attention: { shape: e.attention.shape, data: Float32Array.from(e.attention.data) } });

// Text written only when it changes: a frame that changes nothing dirties no layout.
const setText = (node, text) => {
  if (node.textContent !== text) node.textContent = text;
};


export class TrainingView {
  // root: the container; preset: an id of trainingIds; onPreset(id): the
  // learner picked another; openScenario(text): open a head in the playground.
  // autoplay: train as soon as loaded; speed: steps a second (0: unpaced;
  // null: the task's own, 50 for a toy and as fast as it goes for text);
  // stopAfter: pause there once; onReady(), onError(message): for the element.
  // inspect({bytes, name, label, text}): the trained model's file for the Model view (inspect.js).
  constructor(root, { preset, loadPreset, onPreset, openScenario = null, inspect = null, autoplay = false, speed = null, stopAfter = null,
    onReady = () => {}, onError = () => {} }) {
    this.root = root;
    this.preset = preset;
    this.openScenario = openScenario;
    this.inspect = inspect;
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
    this.worker.addEventListener('error', (event) => this.fail(workerError('training worker', event)));
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
    Object.assign(this, trainingControls(controls, {
      preset: this.preset,
      onPreset,
      onPlay: () => {
        this.worker.postMessage({ type: this.playing ? 'pause' : 'play' });
        this.root.dataset.worker = this.playing ? 'pausing' : 'playing';
        this.setPlaying(!this.playing);
      },
      onStep: () => this.worker.postMessage({ type: 'step' }),
      onReset: () => {
        this.losses = [];
        this.evals = [];
        this.live = null;
        this.at = null;
        this.own = null;
        this.worker.postMessage({ type: 'reset' });
      },
      onSpeed: (rate) => {
        this.speedChosen = true;
        this.worker.postMessage({ type: 'speed', rate });
      },
      inspect: () => (this.inspect ? new InspectButton(controls, this) : null),
    }));
    this.settings = new TrainingSettings(root, { onSubmit: (file) => this.worker.postMessage({ type: 'load', ...file }) });
    this.status = element(root, 'p', { className: 'training-status', id: 'train-status' });
    this.status.setAttribute('aria-live', 'polite');
    // once a run is done: what was trained and how far (the Trained button points to it)
    this.done = element(root, 'p', { className: 'training-done', id: 'train-done', hidden: true });
    this.play.setAttribute('aria-describedby', 'train-done');
    this.about = element(root, 'p', { className: 'training-about' });

    const progress = element(root, 'div', { className: 'training-progress' });
    const charts = element(progress, 'div', { className: 'training-charts' });
    this.curves = new Curves(charts, { onPick: (step) => this.pick(step) });
    this.scores = new ScoreChart(charts, { onPick: (step) => this.pick(step) });
    this.stopRedraws = redrawOnChange(charts, () => this.draw());  // resized or re-themed while paused
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

    this.probe = new ProbeView(root, {
      onAttend: (message) => this.worker.postMessage({ type: 'attend', ...message }),
      onBack: () => {
        this.own = null;
        this.draw();
      },
      onLight: (position) => this.light(position),
    });
  }

  get text() {
    return this.info?.task === 'text';
  }

  sequence() {
    return this.own ? this.own.tokens : this.info.probe.tokens;
  }

  get kinds() {
    return kindsOf(this.info?.task);
  }

  // The evaluation nearest to a step the learner clicked on a chart.
  pick(step) {
    if (!this.evals.length) return;
    let index = 0;
    this.evals.forEach((e, k) => { if (Math.abs(e.step - step) < Math.abs(this.evals[index].step - step)) index = k; });
    this.at = index >= this.evals.length - 1 ? null : index;
    this.own = null;
    this.draw();
  }

  // The evaluation the heads show: the learner's own, the timeline's, or the model now.
  shownEvaluation() {
    const latest = this.evals.length - 1;
    return this.own ? this.own.eval : this.at === null ? this.live ?? this.evals[latest] : this.evals[this.at];
  }

  // A probe position lit (null: none): in the table and in every head.
  light(position) {
    if (position === this.lit) return;
    this.lit = position;
    const induction = this.shownEvaluation()?.patterns?.induction ?? [];
    this.probe.light(position, induction);
    this.heads.light(position, position === null ? [] : induction.filter(([row]) => row === position));
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
    this.about.textContent = `${info.title}. ${model}, embedding ${info.embed}${gpt.length ? `, ${gpt.join(', ')}` : ''}, ${info.parameters.toLocaleString('en')} trained weights; `
      + (this.text ? `${info.vocab} distinct characters, ${info.corpus.train.toLocaleString('en')} to train on and ${info.corpus.val.toLocaleString('en')} to validate, ${info.length} characters of context.`
        : `vocabulary ${info.vocab}, ${info.length} tokens a sequence.`);
    this.probe.setRun(info);
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
        this.inspectButton?.show();
        this.bound();
        // the model now, when now is between evaluations (a text task's is
        // sent a few times a second; in between, the last one stays)
        if (data.live !== undefined) this.live = data.live;
        else if (data.evals.length) this.live = null;
        this.schedule();
        break;
      case 'paused':
        this.flush();  // what the worker sent before it stopped, drawn before it says so
        this.setPlaying(false, data.finished);
        this.root.dataset.worker = 'paused';  // the worker has stopped: no progress follows
        if (data.finished) this.selectBest();
        break;
      case 'attended':
        this.own = { tokens: data.tokens, eval: data.eval };
        this.probe.attended();
        this.draw();
        break;
      case 'scenario':
        this.openScenario(JSON.stringify(data.scenario));
        break;
      case 'model-file':
        this.inspectButton.answered(data);
        break;
      case 'error':
        if (this.settings.pending) {
          this.settings.refused(data.message);  // the fields, the learner's text and the current run stay
        } else if (this.info && /^(tokens|text)\b/.test(data.message)) {
          this.probe.refused(data.message);
        } else this.fail(data.message);
        break;
      default:
        break;
    }
  }

  // When training ends, the head that became what the task is about (the
  // induction head, or the previous-token head) is selected.
  selectBest() {
    const kind = this.kinds.at(-1);
    const scores = this.evals.at(-1)?.scores;
    if (!kind || !scores?.length) return;
    let best = 0;
    scores.forEach((s, k) => { if ((s[kind] ?? -1) > (scores[best][kind] ?? -1)) best = k; });
    this.selected = { layer: Math.floor(best / this.info.heads), head: best % this.info.heads };
    this.root.dataset.selected = `${this.selected.layer}.${this.selected.head}`;
    this.schedule();
  }

  // Progress arrives faster than frames when training runs unpaced: one draw a frame.
  schedule() {
    this.frame ??= requestAnimationFrame(() => {
      this.frame = null;
      this.draw();
    });
  }

  // A draw still waiting for its frame, now: the run stopped (paused, diverged).
  flush() {
    if (this.frame === null || this.frame === undefined) return;
    cancelAnimationFrame(this.frame);
    this.frame = null;
    this.draw();
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
    if (!playing) this.heads.paintStale();  // a stopped model is drawn whole, wherever it is
    this.play.textContent = playing ? 'Pause' : finished ? 'Trained' : 'Train';
    this.finished = finished && !playing;
    this.showDone();
    this.inspectButton?.show();
    this.play.setAttribute('aria-pressed', String(playing));
    this.root.dataset.playing = String(playing);
  }

  // Once a run is done: what was trained and how far (done.js).
  showDone() {
    const last = this.evals?.at(-1);
    this.done.hidden = !(this.finished && this.info && last);
    if (!this.done.hidden) setText(this.done, doneText(this.info, last, this.text ? this.step : last.step, this.text));
  }

  fail(message) {
    this.flush();
    this.setPlaying(false);
    this.root.dataset.worker = 'paused';
    this.root.dataset.state = 'error';
    this.inspectButton?.show();
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
    const marked = this.at === null ? null : this.evals[index].step;
    this.curves.draw({ losses: this.losses, evals: this.evals, steps: this.info.steps, marked, accuracy: !this.text, uniform: this.info.uniformLoss ?? null, vocab: this.info.vocab });
    const { layers, heads } = this.info;
    this.scores.draw({ evals: this.evals, kinds: layers ? this.kinds : [], selected: this.selected.layer * heads + this.selected.head, steps: this.info.steps, marked,
      width: this.curves.width, heads: Array.from({ length: layers * heads }, (_, k) => `layer ${Math.floor(k / heads)}, head ${k % heads}`) });
    const { dataset } = this.root;
    dataset.step = String(this.text ? this.step : now.step);  // a toy's: the evaluation shown, as a diverged run left it
    dataset.accuracy = String(this.text ? last.accuracy : now.accuracy);  // a text task's live view has none
    dataset.losses = String(this.losses.length);
    dataset.evaluations = String(this.received);
    // a diverged run keeps its line while the learner scrubs what it kept;
    // scrubbed back, the line is the evaluation's, and says where the model is
    if (dataset.state !== 'error') {
      const at = this.at === null ? null : this.evals[index];
      const model = this.text ? this.step : now.step;
      setText(this.status, at
        ? `Step ${at.step} of ${this.info.steps} · validation loss ${at.loss.toFixed(3)}${this.text ? '' : ` · accuracy ${(at.accuracy * 100).toFixed(1)}%`} · back on the timeline; the model is at step ${model}`
        : this.text
        ? `Step ${this.step} of ${this.info.steps} · validation loss ${last.loss.toFixed(3)} at step ${last.step}`
        : `Step ${now.step} of ${this.info.steps} · validation loss ${now.loss.toFixed(3)} · accuracy ${(now.accuracy * 100).toFixed(1)}%`);
    }
    this.timeline.max = String(latest);
    this.timeline.value = String(index);  // a click on a chart moves it too
    setText(this.timelineText, this.own ? ` your ${this.text ? 'text' : 'sequence'}, latest weights` : ` step ${this.at === null ? now.step : shown.step}${this.at === null ? ' (latest)' : ''}`);
    this.sample.show(this.at === null ? last : this.evals[index]);
    const key = [shown, this.selected.layer, this.selected.head];
    if (this.drawnKey && key.every((k, i) => k === this.drawnKey[i])) return;
    this.drawnKey = key;
    const tokens = this.own ? this.own.tokens : this.info.probe.tokens;
    const labels = labelsOf(tokens, this.info);
    // while it trains, the heads scrolled away paint when the learner scrolls to them
    this.heads.draw(shown, labels, this.selected, this.kinds, { lazy: this.playing });
    this.probe.draw({ tokens, targets: this.own ? null : this.info.probe.targets, shown, info: this.info });
    // what the learner points at, lit again on the new numbers (a new sequence has other copies)
    const position = this.lit ?? null;
    this.lit = undefined;
    this.light(position !== null && position < tokens.length ? position : null);
  }

  dispose() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.stopRedraws();
    this.worker.terminate();
    this.root.textContent = '';
  }
}
