// <attention-playground>: one view of the playground inside any page.
//
//   <script type="module" src="/assets/attention-playground/attention-playground.js"></script>
//   <attention-playground scenario="bank-raw" view="graph" step="weights" controls="player"></attention-playground>
//
// Attributes: scenario (a preset id, or the URL of a scenario JSON file),
// sentence (instead of a scenario), view (matrices, graph, both, or a lesson
// id, or train: a tiny transformer learning live, with training = a
// training preset id or the URL of a training file), step, head, batch,
// controls (full, player, none), autoplay, theme
// (light, dark, auto). Methods play() and pause(); property step; events
// ready, stepchange and error; data-state="loading|ready|error" on the
// element. Its files are found beside this script (import.meta.url), and
// every element on a page shares one WebAssembly module.
import { checkOffThread, loadEngine, scenarioBytes, ScenarioError, tooLarge } from './engine.js';
import { lessons } from './lessons/index.js';
import { drive, Player } from './player.js';
import { presetScenario, trainingText } from './presets.js';
import { defaultState, quoteText, steps } from './state.js';
import { scenarioFromSentence, withOverrides } from './sentence.js';
import { LinkedViews } from './views/linked.js';

const lessonIds = lessons.map((l) => l.id);
const choices = {
  view: ['matrices', 'graph', 'both', ...lessonIds, 'train'],
  controls: ['full', 'player', 'none'],
  theme: ['light', 'dark', 'auto'],
  step: steps,
};
const defaults = { view: 'both', controls: 'player', theme: 'auto', step: 'weights', scenario: 'sun-rises-causal' };
const stepLabels = { x: 'x', qkv: 'q, k, v', scores: 'scores', scaled: 'scaled', masked: 'masked', weights: 'weights', out: 'out' };

// Both stylesheets once per page, adopted by every element (a <style> in
// Shadow DOM would break a strict style-src 'self').
let sheets = null;
function loadSheets() {
  sheets ??= Promise.all(['views.css', 'element.css'].map(async (name) => {
    const response = await fetch(new URL(name, import.meta.url));
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(await response.text());
    return sheet;
  }));
  return sheets;
}

// Which scenario URLs a figure loads: the page's own origin, by a relative or
// absolute URL, over http(s). A link to embed.html can carry any URL, so
// data:, blob:, javascript: and other origins are refused before any request.
export function scenarioUrl(text) {
  let url;
  try {
    url = new URL(text, document.baseURI);
  } catch {
    throw new ScenarioError(`scenario: ${quoteText(text)} is neither a preset id nor a URL`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.origin !== window.location.origin)
    throw new ScenarioError(`scenario: ${quoteText(text)} is not on this site; scenario files load from the page's own origin only`);
  return url;
}

function make(parent, tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  parent.append(node);
  return node;
}

export class AttentionPlayground extends HTMLElement {
  static get observedAttributes() {
    return ['scenario', 'sentence', 'view', 'step', 'head', 'batch', 'controls', 'autoplay', 'theme', 'training'];
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.trace = null;
    this.started = false;
    this.pending = null;
    this.player = new Player(steps.length, {
      reducedMotion: window.matchMedia('(prefers-reduced-motion: reduce)').matches,
      onChange: ({ stepChanged }) => this.onPlayer(stepChanged),
    });
  }

  connectedCallback() {
    if (!this.dataset.state) this.dataset.state = 'loading';
    if (!this.shadowRoot.firstChild) make(this.shadowRoot, 'p', 'loading root', 'Attention Playground: loading when scrolled into view…');
    loadSheets().then((s) => { this.shadowRoot.adoptedStyleSheets = s; }).catch((e) => this.fail(`styles: ${e.message}`));
    // Start only when near the viewport: a long page of figures loads as it is read.
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        this.observer.disconnect();
        this.start();
      }
    }, { rootMargin: '200px' });
    this.observer.observe(this);
  }

  disconnectedCallback() {
    this.observer?.disconnect();
    this.player.pause();
    this.training?.dispose();
    this.training = null;
  }

  attributeChangedCallback() {
    if (this.started) this.schedule();
  }

  // ---- the scripting interface ----
  play() {
    this.player.play();
  }

  pause() {
    this.player.pause();
  }

  get step() {
    return steps[this.player.index];
  }

  set step(name) {
    const index = steps.indexOf(name);
    if (index < 0) throw new RangeError(`attention-playground: step must be one of ${steps.join(', ')}`);
    this.player.go(index, { animate: false });
  }

  // ---- internals ----
  async start() {
    this.started = true;
    try {
      this.engine = await loadEngine();
    } catch (error) {
      this.fail(`the WebAssembly core did not load: ${error.message}`);
      return;
    }
    await this.schedule();
    if (this.hasAttribute('autoplay') && this.dataset.state === 'ready') this.play();
  }

  // Several attribute changes in one task become one update.
  schedule() {
    this.pending ??= Promise.resolve().then(() => {
      this.pending = null;
      return this.update().catch((error) => this.fail(error.message));
    });
    return this.pending;
  }

  // Attribute values, checked: {settings} or throws RangeError naming the attribute.
  settings() {
    const value = (name) => this.getAttribute(name);
    const s = {};
    for (const name of ['view', 'controls', 'theme', 'step']) {
      const given = value(name);
      if (given !== null && !choices[name].includes(given))
        throw new RangeError(`${name} must be one of ${choices[name].join(', ')}; got ${quoteText(given)}`);
      s[name] = given ?? defaults[name];
    }
    for (const name of ['head', 'batch']) {
      const given = value(name);
      if (given !== null && !/^\d{1,3}$/.test(given)) throw new RangeError(`${name} must be a whole number from 0; got ${quoteText(given)}`);
      s[name] = given === null ? 0 : Number(given);
    }
    if (value('scenario') !== null && value('sentence') !== null) throw new RangeError('give a scenario or a sentence, not both');
    s.sentence = value('sentence');
    s.scenario = value('scenario') ?? (s.sentence === null ? defaults.scenario : null);
    if (s.scenario !== null && s.scenario.trim() === '') throw new RangeError('scenario must be a preset id or the URL of a scenario file');
    if (s.sentence !== null && s.sentence.trim() === '') throw new RangeError('sentence must have at least one word');
    if (s.sentence !== null && s.sentence.length > 400) throw new RangeError(`sentence must be at most 400 characters; got ${s.sentence.length}`);
    return s;
  }

  async scenarioFor(s) {
    if (s.sentence !== null) return scenarioFromSentence({ ...defaultState(), seed: 123, embed: 3, head_size: 2, value_size: 4, heads: 1, sentence: s.sentence });
    if (/^[a-z0-9-]+$/.test(s.scenario)) return presetScenario(s.scenario);
    const url = scenarioUrl(s.scenario);
    const response = await fetch(url);
    if (!response.ok) throw new ScenarioError(`scenario: cannot load ${quoteText(url.pathname)} (HTTP ${response.status})`);
    // the core's limit, before reading the body into the page
    const declared = Number(response.headers.get('Content-Length') ?? 0);
    if (declared > scenarioBytes) throw tooLarge(declared);
    const text = await response.text();
    await checkOffThread(text);  // a bad file is refused without freezing the host page
    return text;
  }

  async update() {
    let s;
    try {
      s = this.settings();
    } catch (error) {
      this.fail(error.message);
      return;
    }
    this.current = s;
    this.training?.dispose();
    this.training = null;
    if (s.view === 'train') {
      await this.renderTraining();
      return;
    }
    if (choices.view.indexOf(s.view) >= 3) {
      await this.renderLesson(s);
      return;
    }
    let next;
    try {
      next = this.engine.run(await this.scenarioFor(s));
    } catch (error) {
      if (!(error instanceof ScenarioError || error instanceof RangeError)) throw error;
      this.fail(error.message);
      return;
    }
    this.disposeLesson?.();
    this.trace?.dispose();
    this.trace = next;
    const summary = next.summary;
    if (s.batch >= summary.batch) return this.fail(`batch ${s.batch} is beyond this scenario's ${summary.batch} batch elements`);
    if (s.head >= summary.heads.length) return this.fail(`head ${s.head} is beyond this scenario's ${summary.heads.length} heads`);
    this.build(s, summary);
    this.player.go(steps.indexOf(s.step), { animate: false });
    this.render();
    this.ready();
  }

  // The shadow tree for a trace view: title, controls, matrices and/or graph.
  build(s, summary) {
    const root = document.createElement('div');
    root.className = 'root';
    root.setAttribute('part', 'root');
    make(root, 'p', 'title', summary.title || summary.id);
    if (s.controls !== 'none') this.buildControls(root, s, summary);
    const body = make(root, 'div', 'body');
    const matrices = s.view !== 'graph' ? make(body, 'div', 'matrices') : null;
    const graph = s.view !== 'matrices' ? make(body, 'div', 'graph-box') : null;
    const detail = s.controls === 'full' ? make(root, 'div', 'detail') : null;
    if (detail) detail.setAttribute('aria-live', 'polite');
    this.views = new LinkedViews({ matrices, graph, detail });
    this.shadowRoot.replaceChildren(root);
    this.view = { head: s.head, batch: s.batch };
  }

  buildControls(root, s, summary) {
    const controls = make(root, 'div', 'controls');
    const transport = make(controls, 'div', 'transport');
    const button = (text, label, action, className) => {
      const b = make(transport, 'button', className, text);
      b.type = 'button';
      b.setAttribute('aria-label', label);
      b.addEventListener('click', action);
      return b;
    };
    this.backButton = button('◀', 'Step back', () => this.player.back());
    this.playButton = button('Play', 'Play', () => this.player.toggle(), 'primary play');
    this.forwardButton = button('▶', 'Step forward', () => this.player.forward());
    const list = make(controls, 'ol', 'steps');
    list.setAttribute('aria-label', 'Steps');
    this.stepButtons = steps.map((step, i) => {
      const b = make(make(list, 'li'), 'button', 'step-button', stepLabels[step]);
      b.type = 'button';
      b.addEventListener('click', () => this.player.go(i));
      return b;
    });
    if (s.controls !== 'full') return;
    const selectors = make(controls, 'div', 'selectors');
    const select = (label, count, text, value, onChange) => {
      const wrap = make(selectors, 'label', null, `${label} `);
      const el = make(wrap, 'select');
      for (let i = 0; i < count; i++) el.add(new Option(text(i), String(i)));
      el.value = String(value);
      el.addEventListener('change', () => onChange(Number(el.value)));
    };
    select('Batch', summary.batch, (b) => `${b}: ${summary.tokens[b].slice(0, 4).join(' ')}`, s.batch, (b) => { this.view.batch = b; this.render(); });
    select('Head', summary.heads.length, (h) => `head ${h}`, s.head, (h) => { this.view.head = h; this.render(); });
  }

  async renderLesson(s) {
    const lesson = lessons.find((l) => l.id === s.view);
    const state = { ...defaultState(), ...(this.lessonState ?? {}), batch: s.batch };
    const root = document.createElement('div');
    root.className = 'root';
    make(root, 'p', 'title', lesson.title);
    const body = make(root, 'div', 'lesson-body');
    this.disposeLesson?.();
    this.shadowRoot.replaceChildren(root);
    const update = (patch) => {
      this.lessonState = { ...state, ...patch };
      this.schedule();
    };
    this.disposeLesson = (await lesson.render(body, { engine: this.engine, presetScenario, withOverrides, state, update })) ?? null;
    this.ready();
  }

  // view="train": training="<preset id or URL>" (same origin), autoplay.
  async renderTraining() {
    const given = this.getAttribute('training') ?? 'induction';
    const load = async (id) => {
      if (/^[a-z0-9-]+$/.test(id)) return trainingText(id);
      const url = scenarioUrl(id);
      const response = await fetch(url);
      if (!response.ok) throw new ScenarioError(`training: cannot load ${quoteText(url.pathname)} (HTTP ${response.status})`);
      const declared = Number(response.headers.get('Content-Length') ?? 0);
      if (declared > 64 * 1024) throw new ScenarioError('training: more than 65536 bytes; the limit of a training file');
      return response.text();
    };
    const root = document.createElement('div');
    root.className = 'root';
    make(root, 'p', 'title', 'Watch attention learn');
    const body = make(root, 'div', 'training-body');
    this.disposeLesson?.();
    this.trace?.dispose();
    this.trace = null;
    this.views = null;
    this.shadowRoot.replaceChildren(root);
    const { TrainingView } = await import('./training/view.js');  // only figures that train load it
    this.training = new TrainingView(body, {
      preset: given,
      loadPreset: load,
      onPreset: (id) => this.setAttribute('training', id),
      autoplay: this.hasAttribute('autoplay'),
      onReady: () => this.ready(),
      onError: (message) => {
        this.dataset.state = 'error';
        this.dispatchEvent(new CustomEvent('error', { detail: { message: `Attention Playground: ${message}` } }));
      },
    });
  }

  onPlayer(stepChanged) {
    if (!this.views) return;
    this.render();
    if (stepChanged) this.dispatchEvent(new CustomEvent('stepchange', { detail: { step: this.step, index: this.player.index } }));
    if (this.player.playing || this.player.progress < 1) drive(this.player);
  }

  render() {
    if (!this.trace || !this.views) return;
    const index = this.player.index;
    this.views.show(this.trace, { ...this.view, step: steps[index], progress: this.player.progress });
    if (this.playButton) {
      this.playButton.textContent = this.player.playing ? 'Pause' : 'Play';
      this.playButton.setAttribute('aria-label', this.player.playing ? 'Pause' : 'Play');
      this.playButton.setAttribute('aria-pressed', String(this.player.playing));
      this.backButton.disabled = index === 0;
      this.forwardButton.disabled = index === steps.length - 1;
      this.stepButtons.forEach((b, i) => {
        b.classList.toggle('current', i === index);
        if (i === index) b.setAttribute('aria-current', 'step');
        else b.removeAttribute('aria-current');
      });
    }
  }

  ready() {
    this.dataset.state = 'ready';
    this.dispatchEvent(new CustomEvent('ready'));
  }

  // A clear message inside the element, never a blank box, and an error event.
  fail(message) {
    const root = document.createElement('div');
    root.className = 'root';
    const box = make(root, 'p', 'message', `Attention Playground: ${message}`);
    box.setAttribute('role', 'alert');
    this.shadowRoot.replaceChildren(root);
    this.views = null;
    this.dataset.state = 'error';
    this.dispatchEvent(new CustomEvent('error', { detail: { message } }));
  }
}

if (!customElements.get('attention-playground')) customElements.define('attention-playground', AttentionPlayground);
