// <attention-playground>: one view of the playground inside any page.
//
//   <script type="module" src="assets/attention-playground/attention-playground.js"></script>
//   <attention-playground scenario="bank-raw" view="graph" step="weights" mask="none">
//     <img src="assets/attention-playground/figures/bank-raw.svg" alt="…">  (shown until ready)
//   </attention-playground>
//
// Attributes: see element/settings.js (and the docs' reference/element.md); each one
// changes the view live, and a bad one is one line inside the element and an
// error event. Methods play() and pause(); property step; events ready,
// stepchange and error; data-state="loading|ready|error" on the element. Its
// files are found beside this script (import.meta.url), and every element
// on a page shares one WebAssembly module.
import { checkOffThread, loadEngine, scenarioBytes, ScenarioError, trainingBytes } from './engine/engine.js';
import { lessons, loadLesson } from './lessons/index.js';
import { drive, Player } from './state/player.js';
import { attributeNames, readSettings, traceProblem } from './element/settings.js';
import { followHostTheme, footer, lessonLinks, loadSheets, make, messageFigure, playgroundLink } from './element/figure.js';
import { showTransport } from './element/transport.js';
import { traceFigure } from './element/trace-figure.js';
import { presetScenario, sameOriginText, trainingText } from './engine/presets.js';
import { defaultState, stepsFor } from './state/state.js';
import { scenarioFromSentence, withOverrides } from './state/sentence.js';
import { create } from './views/dom.js';

export class AttentionPlayground extends HTMLElement {
  static get observedAttributes() {
    return attributeNames;
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.trace = null;
    this.started = false;
    this.pending = null;
    this.steps = stepsFor(null);  // the trace's steps: `rotate` only with rotary
    this.player = new Player(this.steps.length, {
      reducedMotion: window.matchMedia('(prefers-reduced-motion: reduce)').matches,
      onChange: ({ stepChanged }) => this.onPlayer(stepChanged),
    });
  }

  connectedCallback() {
    if (!this.dataset.state) this.dataset.state = 'loading';
    followHostTheme(this);  // a notebook's light or dark, for theme="auto"
    // what the author put inside the tag (a static figure, a sentence) shows
    // until the view is ready; with nothing inside, a line says it is coming
    if (!this.shadowRoot.firstChild) {
      const slot = make(make(this.shadowRoot, 'div', 'root fallback'), 'slot');
      make(slot, 'p', 'loading', 'Attention Playground: loading when scrolled into view…');
    }
    window.addEventListener('beforeprint', this.onPrint ??= () => { if (!this.started) this.start(); });
    this.styled ??= loadSheets().then((s) => { this.shadowRoot.adoptedStyleSheets = s; });
    this.styled.catch((e) => this.fail(`styles: ${e.message}`));
    // a sidebar that opens, a frame that resizes: the views measure again
    this.resizer ??= new ResizeObserver(([entry]) => {
      const width = Math.round(entry.contentRect.width);
      if (width === this.width) return;
      this.width = width;
      cancelAnimationFrame(this.resizeFrame);
      this.resizeFrame = requestAnimationFrame(() => this.views?.redraw());
    });
    this.resizer.observe(this);
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
    this.resizer.disconnect();
    this.dataWatch?.disconnect();
    followHostTheme(this, false);
    window.removeEventListener('beforeprint', this.onPrint);
    this.player.pause();
    if (this.mounted?.running) this.unmount();  // a training or a model stops its worker
  }

  attributeChangedCallback() {
    if (this.started) this.schedule();
  }

  // ---- the scripting interface ----
  play() {
    if (this.trace) this.player.play();  // only a trace's views have steps
  }

  pause() {
    this.player.pause();
  }

  // null until a trace is drawn, and in views without steps (a lesson, training, a model, given weights)
  get step() {
    return this.trace ? this.steps[this.player.index] : null;
  }

  set step(name) {
    const index = this.steps.indexOf(name);
    if (index < 0) throw new RangeError(`attention-playground: step must be one of ${this.steps.join(', ')}`);
    this.player.go(index, { animate: false });
  }

  // ---- internals ----
  async start() {
    if (this.started) return;
    this.started = true;
    // view="attention" draws given weights: it never waits on the WebAssembly core
    const loaded = await Promise.all([this.getAttribute('view') === 'attention' || this.loadCore(), this.styled.then(() => true, () => false)]);
    if (!loaded.every(Boolean)) return;  // measured once styled
    await this.schedule();
    if (this.hasAttribute('autoplay') && this.dataset.state === 'ready') this.play();
  }

  // The one WebAssembly module of the page: true once loaded, else false and the figure says why.
  async loadCore() {
    try {
      this.engine ??= await loadEngine();
      return true;
    } catch (error) {
      this.fail(`the WebAssembly core did not load: ${error.message}`);
      return false;
    }
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
    return readSettings((name) => this.getAttribute(name));
  }

  // The scenario to run: a sentence, a preset or a same-origin file, with
  // the figure's mask, scale and temperature.
  async scenarioFor(s) {
    const overrides = { mask: s.mask, scale: s.scale, temperature: s.temperature };
    if (s.sentence !== null) return withOverrides(scenarioFromSentence({ ...s, sentence: s.sentence }), overrides);
    if (/^[a-z0-9-]+$/.test(s.scenario)) return withOverrides(await presetScenario(s.scenario), overrides);
    const text = await sameOriginText('scenario', s.scenario, scenarioBytes);
    await checkOffThread(text);  // a bad file is refused without freezing the host page
    return [s.mask, s.scale, s.temperature].every((v) => v === null) ? text : withOverrides(JSON.parse(text), overrides);
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
    if (!['matrices', 'graph', 'both'].includes(s.view)) this.player.pause();  // a view without steps does not play
    if (this.training) this.unmount();  // new attributes train afresh
    if (s.view === 'model') {
      await this.renderModel(s);
      return;
    }
    if (this.modelView) this.unmount();
    if (s.view === 'attention') return this.renderAttention(s);
    if (!this.engine && !(await this.loadCore())) return;
    if (s.view === 'train') {
      await this.renderTraining(s);
      return;
    }
    if (!['matrices', 'graph', 'both'].includes(s.view)) {
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
    const summary = next.summary;
    const problem = traceProblem(s, summary);
    if (problem) {
      next.dispose();
      return this.fail(problem);
    }
    let link;
    try {
      link = playgroundLink(s);  // checked before the view replaces the old one
    } catch (error) {
      next.dispose();
      throw error;
    }
    this.steps = stepsFor(summary);
    this.player.count = this.steps.length;
    this.build(s, next, link);
    this.player.go(this.steps.indexOf(s.step), { animate: false });
    this.highlighted = null;
    this.render();
    this.ready();
  }

  // The view shown (a trace's, a lesson, a training, a model, given weights)
  // replaces the one before, which is torn down once: each brings its own
  // teardown. Returns the handle, for a view still being made to check that
  // it was not replaced meanwhile. running: it has a worker to stop when the
  // element leaves the page.
  mount(root, destroy = () => {}, { running = false } = {}) {
    this.unmount();
    this.shadowRoot.replaceChildren(root);
    this.mounted = { destroy, running };
    return this.mounted;
  }

  unmount() {
    const mounted = this.mounted;
    this.mounted = null;
    this.views = null;
    this.trace = null;
    this.training = null;
    this.modelView = null;
    mounted?.destroy();
  }

  // A trace view (element/trace-figure.js), mounted with the trace's teardown.
  build(s, trace, link) {
    this.view = { head: s.head, batch: s.batch };
    const choose = (patch) => { Object.assign(this.view, patch); this.render(); };
    const { root, views, transport } = traceFigure(s, trace.summary, { steps: this.steps, player: this.player, choose, link });
    this.transport = transport;
    this.mount(root, () => trace.dispose());
    this.trace = trace;
    this.views = views;
  }

  async renderLesson(s) {
    const { title } = lessons.find((l) => l.id === s.view);
    const lesson = await loadLesson(s.view);
    // new attributes start the lesson afresh; the reader's own changes last until then
    const key = JSON.stringify(s);
    if (key !== this.lessonKey) this.lessonState = null;
    this.lessonKey = key;
    const state = { ...defaultState(), positions: s.positions, ...(this.lessonState ?? {}), batch: s.batch };
    const link = playgroundLink(s);
    const root = create('div', { className: 'root' });
    make(root, 'p', 'title', title);
    const body = make(root, 'div', 'lesson-body');
    footer(root, s, link);
    this.player.pause();
    let dispose = null;
    const mounted = this.mount(root, () => dispose?.());
    const update = (patch) => {
      this.lessonState = { ...state, ...patch };
      this.schedule();
    };
    // "Train this rung live": the figure turns into that training
    const train = (id) => {
      this.setAttribute('training', id);
      this.setAttribute('view', 'train');
    };
    // a link inside the lesson opens the full page in a new tab, as the figure's own link does
    const linkTo = lessonLinks(s, link);
    dispose = (await lesson.render(body, { engine: this.engine, presetScenario, withOverrides, state, update, train, link: linkTo })) ?? null;
    if (this.mounted !== mounted) return dispose?.();  // replaced while it was being made
    for (const a of body.querySelectorAll('a.lesson-open')) Object.assign(a, { target: '_blank', rel: 'noopener' });
    this.ready();
  }

  // view="train": training (a preset id or a same-origin URL), steps, speed, autoplay.
  async renderTraining(s) {
    const load = (id) => (/^[a-z0-9-]+$/.test(id) ? trainingText(id) : sameOriginText('training', id, trainingBytes));
    const link = playgroundLink(s);
    const root = create('div', { className: 'root' });
    make(root, 'p', 'title', s.training.startsWith('text-') ? 'Watch a GPT learn to write' : 'Watch attention learn');
    const body = make(root, 'div', 'training-body');
    footer(root, s, link);
    let view = null;
    const mounted = this.mount(root, () => view?.dispose(), { running: true });
    const { TrainingView } = await import('./training/view.js');  // only figures that train load it
    if (this.mounted !== mounted) return;  // replaced meanwhile
    let shown = false;
    view = new TrainingView(body, {
      preset: s.training,
      loadPreset: load,
      onPreset: (id) => this.setAttribute('training', id),
      autoplay: s.autoplay,
      speed: s.speed,
      stopAfter: s.steps,
      onReady: () => {
        shown = true;
        this.ready();
      },
      onError: (message) => {
        // the figure's own training refused: one line, as any bad attribute (no empty trainer)
        if (!shown) {
          queueMicrotask(() => {
            if (this.training === view) this.fail(message);  // else replaced meanwhile
          });
          return;
        }
        // one the learner chose later: the trainer's own line, the run kept
        this.dataset.state = 'error';
        this.dispatchEvent(new CustomEvent('error', { detail: { message } }));
      },
    });
    this.training = view;
  }

  // view="model": a model file (a preset or a same-origin URL) on the text,
  // its layer and head selected. The view stays while view="model" does: a
  // new text or head re-runs the model it holds, a new model opens beside it.
  async renderModel(s) {
    if (!this.modelView) {
      const root = create('div', { className: 'root' });
      make(root, 'p', 'title', 'A real GPT: every head of every layer');
      const body = make(root, 'div', 'model-body-wrap');
      footer(root, s, playgroundLink(s));
      let view = null;
      const mounted = this.mount(root, () => view?.dispose(), { running: true });
      const { ModelView } = await import('./model/view.js');  // only model figures load it
      if (this.mounted !== mounted) return;  // replaced meanwhile
      this.modelView = view = new ModelView(body);
    }
    await this.modelView.show({ model: s.model, text: s.text, layer: s.layer, head: s.head });
    const problem = this.modelView.problem();
    // the page keeps a link's layer within a smaller model; an author's attribute past it is a mistake to name
    const c = this.modelView.info?.config;
    if (!problem && c?.layers > 0 && s.layer >= c.layers) return this.fail(`layer ${s.layer} is beyond this model's ${c.layers} layers`);
    if (!problem && c?.layers > 0 && s.head >= c.heads) return this.fail(`head ${s.head} is beyond this model's ${c.heads} heads`);
    if (!problem) return this.ready();
    this.dataset.state = 'error';
    this.dispatchEvent(new CustomEvent('error', { detail: { message: problem } }));
  }

  // view="attention": the weights given as JSON inside the element, drawn as given (element/attention-view.js).
  async renderAttention(s) {
    const { attentionFigure } = await import('./element/attention-view.js');
    // a new text inside the element draws again
    this.dataWatch ??= new MutationObserver(() => this.current?.view === 'attention' && this.schedule());
    this.dataWatch.observe(this, { childList: true, subtree: true, characterData: true });
    // a classic script before the tag (a notebook's inlined bundle) may start it while its JSON is still being parsed
    if (document.readyState === 'loading') await new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }));
    const figure = attentionFigure(this, s);
    if (figure.problem) return this.fail(figure.problem);
    footer(figure.root, s, null);
    this.mount(figure.root);  // drawn as given: nothing to tear down
    this.views = figure.show();  // the element's resize draws it again
    this.ready();
  }

  onPlayer(stepChanged) {
    if (!this.views || !this.trace) return;  // only a trace's views have steps
    this.render();
    if (stepChanged) this.dispatchEvent(new CustomEvent('stepchange', { detail: { step: this.step, index: this.player.index } }));
    if (this.player.playing || this.player.progress < 1) drive(this.player);
  }

  render() {
    if (!this.trace || !this.views) return;
    const index = this.player.index;
    this.views.show(this.trace, { ...this.view, step: this.steps[index], progress: this.player.progress });
    // highlight="…": lit as hovering lights it, again whenever the step rebuilds the panels
    const h = this.current?.highlight;
    if (h && this.highlighted !== this.steps[index]) {
      this.highlighted = this.steps[index];
      this.views.highlight({ batch: this.view.batch, ...h });
    }
    if (this.transport) showTransport(this.transport, { index, count: this.steps.length, playing: this.player.playing });
  }

  ready() {
    this.dataset.state = 'ready';
    this.dispatchEvent(new CustomEvent('ready'));
  }

  // A clear message inside the element, never a blank box, and an error event.
  fail(message) {
    this.mount(messageFigure(message));
    this.player.pause();
    this.dataset.state = 'error';
    this.dispatchEvent(new CustomEvent('error', { detail: { message } }));
  }
}

if (!customElements.get('attention-playground')) customElements.define('attention-playground', AttentionPlayground);
