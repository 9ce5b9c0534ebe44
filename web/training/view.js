// The training view: a tiny attention-only transformer learning a toy task,
// live. The worker (worker.js) trains in the core; this view draws what it
// posts: the loss and accuracy curves, every head's attention on the probe
// sequence, the selected head's communication graph, the probe's predictions
// against its targets, and a timeline to scrub back through the evaluations.
import { trainingIds } from '../state/state.js';
import { Graph } from '../views/graph.js';
import { Heatmap } from '../views/heatmap.js';
import { Curves } from './curves.js';

const maxAttention = 1 << 22;

// An evaluation as kept: its attention as float32.
const compact = (e) => ({ ...e, attention: { shape: e.attention.shape, data: Float32Array.from(e.attention.data) } });

const speeds = [['10', '10 steps a second'], ['25', '25 steps a second'], ['50', '50 steps a second'], ['100', '100 steps a second'], ['0', 'as fast as it goes']];

const element = (parent, tag, props = {}) => {
  const e = document.createElement(tag);
  Object.assign(e, props);
  parent.append(e);
  return e;
};

// Token ids as the page labels them: the separator of reverse and sort (id n) as "sep".
const labelsOf = (tokens, info) => {
  const separator = info.task === 'reverse' || info.task === 'sort' ? info.vocab - 1 : -1;
  return tokens.map((t) => (t === separator ? 'sep' : String(t)));
};

// One head's weights on a sequence, shaped as a trace for the Graph view.
function headTrace(id, labels, attention, layer, head, heads) {
  const T = labels.length;
  const start = ((layer * heads + head) * T) * T;
  const keep = new Uint8Array(T * T).map((_, n) => (n % T <= Math.floor(n / T) ? 1 : 0));
  return {
    id,
    summary: { batch: 1, query_length: T, context_length: T, cross: false, tokens: [labels], context_tokens: [labels] },
    keep: { shape: [T, T], data: keep },
    step: (_, name) => (name === 'weights' ? { shape: [T, T], data: attention.data.slice(start, start + T * T) } : null),
  };
}

export class TrainingView {
  // root: the container; preset: an id of trainingIds; onPreset(id): the
  // learner picked another; openScenario(text): open a head in the playground.
  // autoplay: train as soon as loaded; speed: steps a second (0: unpaced);
  // stopAfter: pause there once; onReady(), onError(message): for the element.
  constructor(root, { preset, loadPreset, onPreset, openScenario = null, autoplay = false, speed = 50, stopAfter = null,
    onReady = () => {}, onError = () => {} }) {
    this.root = root;
    this.preset = preset;
    this.openScenario = openScenario;
    this.autoplay = autoplay;
    this.onReady = onReady;
    this.onError = onError;
    this.losses = [];
    this.evals = [];
    this.at = null;        // the evaluation index the timeline shows; null: the latest
    this.selected = { layer: 0, head: 0 };
    this.own = null;       // the learner's sequence and its evaluation
    this.updates = 0;
    this.build(onPreset);
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.addEventListener('message', ({ data }) => this.receive(data));
    this.speed.value = String(speed);
    this.worker.postMessage({ type: 'speed', rate: Number(this.speed.value) });
    if (stopAfter !== null) this.worker.postMessage({ type: 'stop-after', steps: stopAfter });
    loadPreset(preset).then((text) => this.worker.postMessage({ type: 'load', text }), (error) => this.fail(error.message));
  }

  build(onPreset) {
    const root = this.root;
    root.classList.add('training');
    const controls = element(root, 'div', { className: 'training-controls' });
    const presetField = element(controls, 'label', { className: 'field', textContent: 'Task ' });
    this.select = element(presetField, 'select', { id: 'train-preset' });
    for (const id of trainingIds) this.select.add(new Option(id.replace(/-/g, ' '), id));
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
    this.speed.value = '50';
    this.speed.addEventListener('change', () => this.worker.postMessage({ type: 'speed', rate: Number(this.speed.value) }));
    this.buildSettings(controls);
    this.status = element(root, 'p', { className: 'training-status', id: 'train-status' });
    this.status.setAttribute('aria-live', 'polite');
    this.about = element(root, 'p', { className: 'training-about' });

    this.curves = new Curves(element(root, 'div', { className: 'training-curves' }));
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
    const headsBox = element(views, 'section', { className: 'training-heads' });
    element(headsBox, 'h3', { className: 'small-heading', textContent: 'Every head’s attention on the probe' });
    this.heads = element(headsBox, 'div', { className: 'training-heads-grid' });
    const graphBox = element(views, 'section', { className: 'training-graph' });
    this.graphTitle = element(graphBox, 'h3', { className: 'small-heading' });
    this.graph = new Graph(element(graphBox, 'div'));
    this.open = element(graphBox, 'button', { type: 'button', id: 'train-open', hidden: !this.openScenario });
    this.open.addEventListener('click', () => this.worker.postMessage({ type: 'scenario', tokens: this.sequence(), ...this.selected }));

    const probe = element(root, 'section', { className: 'training-probe' });
    element(probe, 'h3', { className: 'small-heading', textContent: 'Predictions' });
    this.predictions = element(probe, 'table', { className: 'training-predictions' });
    const form = element(probe, 'form', { className: 'training-own' });
    const label = element(form, 'label', { className: 'field', textContent: 'Your own sequence (token ids, spaces between) ' });
    this.ownInput = element(label, 'input', { type: 'text', id: 'train-own', autocomplete: 'off', spellcheck: false });
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

  // "Your own task and model": a training file from the fields; the core
  // checks it and names the field that does not fit (training-v1.md limits).
  buildSettings(controls) {
    const details = element(this.root, 'details', { className: 'training-settings' });
    element(details, 'summary', { textContent: 'Set the task and model yourself' });
    const form = element(details, 'form', { className: 'training-settings-form' });
    const field = (name, label, value, attrs = {}) => {
      const wrap = element(form, 'label', { className: 'field', textContent: `${label} ` });
      const input = element(wrap, 'input', { type: 'number', name, value: String(value), ...attrs });
      input.id = `train-${name}`;
      return input;
    };
    const taskWrap = element(form, 'label', { className: 'field', textContent: 'Task ' });
    const task = element(taskWrap, 'select', { name: 'task', id: 'train-task' });
    for (const name of ['previous', 'reverse', 'sort', 'induction']) task.add(new Option(name, name));
    task.value = 'induction';
    const inputs = {
      tokens: field('tokens', 'Tokens', 8, { min: 1, max: 64 }),
      length: field('length', 'Length (previous, induction)', 16, { min: 1, max: 64 }),
      half: field('half', 'Half (reverse, sort)', 8, { min: 1, max: 32 }),
      lo: field('lo', 'Period from', 3, { min: 1, max: 64 }),
      hi: field('hi', 'to', 8, { min: 1, max: 64 }),
      embed: field('embed', 'Embedding', 16, { min: 1, max: 128 }),
      heads: field('heads', 'Heads', 1, { min: 1, max: 8 }),
      layers: field('layers', 'Layers', 2, { min: 1, max: 4 }),
      steps: field('steps', 'Steps', 1000, { min: 1, max: 100000 }),
      lr: field('lr', 'Learning rate', 0.003, { step: 'any', min: 0 }),
    };
    element(form, 'button', { type: 'submit', id: 'train-custom', textContent: 'Train these settings' });
    this.settingsError = element(form, 'p', { className: 'field-error', id: 'train-settings-error', hidden: true });
    this.settingsError.setAttribute('role', 'alert');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const n = (name) => Number(inputs[name].value);
      const spec = task.value === 'reverse' || task.value === 'sort'
        ? { name: task.value, tokens: n('tokens'), half: n('half') }
        : task.value === 'previous' ? { name: 'previous', tokens: n('tokens'), length: n('length') }
        : { name: 'induction', tokens: n('tokens'), length: n('length'), period: [n('lo'), n('hi')] };
      const file = { version: 1, id: 'custom', title: `Your ${task.value} task`, seed: 1337, task: spec,
        model: { embed: n('embed'), heads: n('heads'), layers: n('layers') },
        train: { steps: n('steps'), batch: 32, lr: n('lr') }, eval: { every: Math.max(1, Math.round(n('steps') / 100)), batch: 512, seed: 10000 } };
      this.pendingCustom = true;
      this.worker.postMessage({ type: 'load', text: JSON.stringify(file) });
    });
  }

  // The learner's sequence, read and checked here only for its form; the
  // core checks the ids against the vocabulary and says so in one line.
  attendOwn() {
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

  receive(data) {
    switch (data.type) {
      case 'loaded':
        this.pendingCustom = false;
        this.settingsError.hidden = true;
        this.at = null;
        this.own = null;
        this.headViews = null;
        this.info = data.info;
        this.losses = [];
        this.evals = [compact(data.eval)];
        this.live = null;
        this.about.textContent = `${data.info.title}. ${data.info.layers} layer${data.info.layers > 1 ? 's' : ''} of ${data.info.heads} head${data.info.heads > 1 ? 's' : ''}, embedding ${data.info.embed}, ${data.info.parameters.toLocaleString('en')} weights; vocabulary ${data.info.vocab}, ${data.info.length} tokens a sequence.`;
        this.ownInput.placeholder = data.info.probe.tokens.slice(0, 8).join(' ');
        this.setPlaying(false);
        this.root.dataset.state = 'ready';
        this.status.classList.remove('error');
        this.draw();
        if (this.autoplay) {
          this.worker.postMessage({ type: 'play' });
          this.setPlaying(true);
        }
        this.onReady();
        break;
      case 'progress':
        this.losses.push(...data.losses);
        this.evals.push(...data.evals.map(compact));
        this.bound();
        this.live = data.live;  // the model now, when now is between evaluations
        this.draw();
        break;
      case 'paused':
        this.setPlaying(false, data.finished);
        this.root.dataset.worker = 'paused';  // the worker has stopped: no progress follows
        break;
      case 'attended':
        this.own = { tokens: this.ownTokens(), eval: data.eval };
        this.ownBack.hidden = false;
        this.ownError.hidden = true;
        this.ownInput.setAttribute('aria-invalid', 'false');
        this.draw();
        break;
      case 'scenario':
        this.openScenario(JSON.stringify(data.scenario));
        break;
      case 'error':
        if (this.pendingCustom) {
          // the settings are refused; the fields and the current run stay
          this.pendingCustom = false;
          this.settingsError.hidden = false;
          this.settingsError.textContent = data.message;
        } else if (this.info && /^tokens/.test(data.message)) {
          this.ownError.hidden = false;
          this.ownError.textContent = data.message;
          this.ownInput.setAttribute('aria-invalid', 'true');
        } else this.fail(data.message);
        break;
      default:
        break;
    }
  }

  // The evaluations kept for the timeline: at most 4,194,304 attention
  // numbers (16 MB as float32); past that every other one is dropped, the
  // first and the latest kept, so the timeline still spans the whole run.
  bound() {
    const { layers, heads, length } = this.info;
    const most = Math.max(20, Math.floor(maxAttention / (layers * heads * length * length)));
    if (this.evals.length <= most) return;
    this.evals = this.evals.filter((_, i) => i % 2 === 0 || i === this.evals.length - 1);
    if (this.at !== null) this.at = Math.min(this.evals.length - 1, Math.floor(this.at / 2));
  }

  ownTokens() {
    return this.ownInput.value.trim().split(/[\s,]+/).filter(Boolean).map(Number);
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

  // Everything from the evaluation the timeline is on (or the learner's own sequence).
  draw() {
    if (!this.info) return;
    this.updates++;
    const latest = this.evals.length - 1;
    const index = this.at ?? latest;
    const now = this.live ?? this.evals[latest];  // the model as it stands
    const shown = this.own ? this.own.eval : this.at === null ? now : this.evals[index];
    const tokens = this.own ? this.own.tokens : this.info.probe.tokens;
    const targets = this.own ? null : this.info.probe.targets;
    const labels = labelsOf(tokens, this.info);
    this.root.dataset.step = String(now.step);
    this.root.dataset.accuracy = String(now.accuracy);
    this.root.dataset.losses = String(this.losses.length);
    // a diverged run keeps its line while the learner scrubs what it kept
    if (this.root.dataset.state !== 'error') this.status.textContent = `Step ${now.step} of ${this.info.steps} · validation loss ${now.loss.toFixed(3)} · accuracy ${(now.accuracy * 100).toFixed(1)}%`;
    this.timeline.max = String(latest);
    if (this.at === null) this.timeline.value = String(latest);
    this.timelineText.textContent = this.own ? ' your sequence, latest weights' : ` step ${shown.step}${this.at === null ? ' (latest)' : ''}`;
    this.curves.draw({ losses: this.losses, evals: this.evals, steps: this.info.steps, marked: this.at === null ? null : this.evals[index].step });
    this.drawHeads(shown, labels);
    this.drawGraph(shown, labels);
    this.drawPredictions(tokens, targets, shown.predictions, labels);
  }

  drawHeads(shown, labels) {
    const { layers, heads } = this.info;
    const T = labels.length;
    if (!this.headViews || this.headViews.length !== layers * heads) {
      this.heads.textContent = '';
      this.heads.style.setProperty('--columns', String(heads));
      this.headViews = [];
      for (let l = 0; l < layers; l++)
        for (let h = 0; h < heads; h++) {
          const view = new Heatmap(this.heads, { name: 'attention', hook: `attention-l${l}h${h}`, label: `layer ${l}, head ${h}`, scale: 'sequential' });
          view.figure.classList.add('training-head');
          view.figure.addEventListener('click', () => {
            this.selected = { layer: l, head: h };
            this.draw();
          });
          this.headViews.push(view);
        }
    }
    this.headViews.forEach((view, k) => {
      const data = shown.attention.data.slice(k * T * T, (k + 1) * T * T);
      view.draw({ shape: [T, T], data }, { rowLabels: labels, colLabels: labels, maxCell: 18 });
      view.figure.classList.toggle('selected', k === this.selected.layer * heads + this.selected.head);
    });
  }

  drawGraph(shown, labels) {
    const { layer, head } = this.selected;
    this.graphTitle.textContent = `Layer ${layer}, head ${head}: who listens to whom`;
    this.open.textContent = `Open layer ${layer}, head ${head} in the playground`;
    this.graph.show(headTrace(`train-${this.updates}`, labels, shown.attention, layer, head, this.info.heads), { head: 0, step: 'weights', progress: 1, batch: 0 });
  }

  drawPredictions(tokens, targets, predicted, labels) {
    const table = this.predictions;
    table.textContent = '';
    const row = (name, cells, marks) => {
      const tr = element(table, 'tr');
      element(tr, 'th', { scope: 'row', textContent: name });
      cells.forEach((c, i) => {
        const td = element(tr, 'td', { textContent: c });
        if (marks?.[i]) td.className = marks[i];
      });
    };
    const next = labelsOf(predicted, this.info);
    row('token', labels);
    if (targets) row('target', targets.map((t) => (t < 0 ? '' : String(t))));
    const marks = targets ? predicted.map((p, i) => (targets[i] < 0 ? 'unscored' : p === targets[i] ? 'right' : 'wrong')) : null;
    row('predicted next', next, marks);
    if (targets) {
      const scored = targets.filter((t) => t >= 0).length;
      const right = predicted.filter((p, i) => targets[i] >= 0 && p === targets[i]).length;
      table.dataset.right = String(right);
      table.dataset.scored = String(scored);
    }
  }

  dispose() {
    this.worker.terminate();
    this.root.textContent = '';
  }
}
