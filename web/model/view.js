// The Model view: a real GPT from a model file, on the learner's text. The
// model lives in a Worker (engine/model-client.js): a file streams into it
// with a progress bar and a Cancel button, each keystroke re-runs it, and
// this view draws what the core answered: the tokens as chips, every layer
// × head's attention on one colour scale (views/model-grid.js), the selected
// head large with its communication graph, the next-token guesses after the
// last token or the token under the pointer or focus (whose row every head
// and the graph light up), at the learner's temperature, and Generate. A
// new model opens in a second worker, so the one shown stays live until the
// new one has opened; a refused file leaves it, and the text, as they were.
// A text the model cannot read leaves the views on the last text it read,
// marked as such, or, for a model that has read none yet, empty with why.
import { ModelError } from '../engine/model-client.js';
import { modelPresets, modelSource } from '../engine/presets.js';
import { quoteText } from '../state/state.js';
import { element } from '../views/dom.js';
import { Graph } from '../views/graph.js';
import { headTrace } from '../views/head-trace.js';
import { Heatmap } from '../views/heatmap.js';
import { underline } from '../views/marked-label.js';
import { HeadGrid } from '../views/model-grid.js';
import { TokenChips } from '../views/token-chips.js';
import { watchWidth } from '../views/observed-width.js';
import { buildLens } from '../lens/hook.js';
import { familyOf } from './family.js';
export { titleOf } from './family.js';
import { FolderSource } from './folder.js';
import * as focus from './focus.js';
import { cancelOpening, keepHeadInModel, openModel, refused } from './opening.js';
import { Generated } from './generated.js';
import * as nextToken from './next.js';
import { StartHere } from './start-here.js';
import { TryList } from './try-list.js';
import { labelsOf } from './tokens.js';
import { showUnread } from './unread.js';
import { defaultModel, defaultTemperature, defaultText } from './defaults.js';

export { defaultModel, defaultTemperature, defaultText };

export class ModelView {
  // root: an element to fill. settings: {model (a preset id or a same-origin
  // URL), text, layer, head}. onState(settings): what the learner changed, for
  // the URL; onOpenHead({scenario, layer, head}): "Open this head in the playground";
  // startHere: the page's first-visit box (start-here.js), not an author's figure;
  // onFamily(family): a model of another kind opened (family.js's familyOf), for the page's title.
  constructor(root, { onState = () => {}, onOpenHead = null, startHere = false, onFamily = () => {} } = {}) {
    this.onState = onState;
    this.onFamily = onFamily;
    this.onOpenHead = onOpenHead;
    this.worker = null;      // the model shown
    this.info = null;
    this.loading = null;     // {worker} while a model opens
    this.runs = 0;           // the newest run asked for: older answers are dropped
    this.position = null;    // the token in focus (null: the last)
    this.seed = 1;
    this.family = familyOf(null);  // what the model's family changes (family.js): a GPT's until one opens
    this.settings = { model: defaultModel, text: defaultText, layer: 0, head: 0 };
    this.build(root);
    this.generated = new Generated(this);  // which tokens Generate wrote
    this.startHere = startHere ? new StartHere(this.box, { shipped: defaultModel, onSelect: (s, button) => this.select(s, { reveal: true, from: { button, name: '“Start here”', fallback: () => this.input } }), onLenses: () => this.lens.open(), afterDismiss: () => this.input.focus() }) : null;
    // any other model's "Try:" lines, where "Start here" may show (the page, not a figure)
    this.tryList = startHere ? new TryList(this.facts, () => this.lens.open()) : null;
  }

  build(root) {
    const box = element(root, 'div', { className: 'model-view' });
    this.box = box;
    // the view's own styles (the family's), loaded with it: not on a first visit
    element(box, 'link', { rel: 'stylesheet', href: new URL('./model.css', import.meta.url).href });
    const source = element(box, 'div', { className: 'model-source' });
    this.name = element(source, 'p', { className: 'model-name' });
    const fileField = element(source, 'div', { className: 'field' });
    const fileLabel = element(fileField, 'label', { textContent: 'Open a model file (.safetensors, with its config.json)' });
    this.fileInput = element(fileField, 'input', { type: 'file', multiple: true, accept: '.safetensors,.json,application/json' });
    this.fileInput.id = `model-file-${Math.random().toString(36).slice(2)}`;
    fileLabel.htmlFor = this.fileInput.id;
    this.fileInput.addEventListener('change', () => {
      const files = [...this.fileInput.files];
      this.fileInput.value = '';  // the same file chosen again opens again
      this.folder.openPicked(files);
    });
    this.progressBox = element(box, 'div', { className: 'model-progress', hidden: true });
    this.progress = element(this.progressBox, 'progress', { max: 1, value: 0 });
    this.progress.setAttribute('aria-label', 'Opening the model');
    this.progressText = element(this.progressBox, 'span', { className: 'model-progress-text' });
    this.cancel = element(this.progressBox, 'button', { type: 'button', textContent: 'Cancel' });
    this.cancel.addEventListener('click', () => this.cancelOpening());
    this.status = element(box, 'p', { className: 'model-status', hidden: true });
    this.status.setAttribute('role', 'alert');
    this.facts = element(box, 'p', { className: 'model-facts' });
    this.folder = new FolderSource(this, source, box);

    const textField = element(box, 'div', { className: 'field model-text-field' });
    const textLabel = this.textLabel = element(textField, 'label', { textContent: 'Text' });  // a folder without tokenizer.json: ids; a BERT's: [MASK]
    // a textarea: a newline is text the model reads (↵ in the chips)
    this.input = element(textField, 'textarea', { rows: 2, maxLength: 400, autocomplete: 'off', spellcheck: false });
    this.input.id = `model-text-${Math.random().toString(36).slice(2)}`;
    textLabel.htmlFor = this.input.id;
    this.textError = element(textField, 'p', { className: 'field-error model-text-error', hidden: true });
    this.textError.id = `${this.input.id}-error`;
    this.textError.setAttribute('aria-live', 'polite');
    this.input.setAttribute('aria-describedby', this.textError.id);
    this.textNote = element(textField, 'p', { className: 'note model-text-note', hidden: true });
    this.input.addEventListener('input', () => {
      this.generated.edit(this.input.value);  // the text, and what Generate wrote that the learner did not change
      this.onState(this.settings, { typing: true });
      this.run();
    });
    // the views drawn from an older text than the field's: which one
    this.stale = element(box, 'p', { className: 'note model-stale', hidden: true });
    this.chips = new TokenChips(box, { onPosition: (t) => this.focusToken(t) });
    // a model that has read none of the text yet: nothing to show, and why
    this.empty = element(box, 'p', { className: 'model-empty', hidden: true });

    const body = element(box, 'div', { className: 'model-body', hidden: true });
    this.body = body;
    const gridPanel = element(body, 'section', { className: 'model-grid-panel' });
    element(gridPanel, 'h3', { className: 'small-heading', textContent: 'Every head of every layer' });
    this.grid = new HeadGrid(gridPanel, { onSelect: (s) => this.select(s) });
    // a model without blocks (n_layer 0) has no head: its guesses come from the embeddings alone
    this.noHeads = element(gridPanel, 'p', { className: 'note model-no-heads', hidden: true,
      textContent: 'This model has no blocks, so no attention layers: its next-token guesses come from the token and position embeddings alone.' });
    const headPanel = this.headPanel = element(body, 'section', { className: 'model-head-panel' });
    this.headTitle = element(headPanel, 'h3', { className: 'small-heading' });
    // after a head was shown from elsewhere (a lens's name, "Start here"): one press back to where it was chosen
    this.back = element(headPanel, 'button', { type: 'button', className: 'model-head-back', hidden: true });
    this.back.addEventListener('click', () => this.goBack());
    const headViews = element(headPanel, 'div', { className: 'model-head-views' });
    // a new width (a window resized, a phone turned) sizes the heatmap's cells again (the graph lays itself out)
    watchWidth(headViews, (width) => width && requestAnimationFrame(() => this.drawHeatmap()));
    this.heatmap = new Heatmap(headViews, { name: 'weights', hook: 'model-head', label: 'weights', scale: 'sequential' });
    this.openHead = element(headPanel, 'button', { type: 'button', className: 'model-open-head', hidden: !this.onOpenHead });
    this.openHead.addEventListener('click', () => this.openInPlayground());
    // the guesses before the graph in the markup, as the wide layout reads
    // (grid | head | guesses, the graph under them): Tab went from the graph
    // back up to the sampling sliders
    nextToken.buildPanel(this, element(body, 'section', { className: 'model-next-panel' }), defaultTemperature);
    // the graph takes the page's whole width: a token a node, 32 of them do
    // not fit the middle column (and it lays itself out again when that changes)
    const graphPanel = element(body, 'section', { className: 'model-graph-panel' });
    this.graphPanel = graphPanel;
    this.graph = new Graph(element(graphPanel, 'div', { className: 'model-graph' }), {
      onNode: (node) => this.picking || this.focusToken(node ? node.node : null, { fromGraph: true }),
    });

    this.lens = buildLens(this, body, (ids) => labelsOf(ids, this.tokenizer));  // the lenses: web/lens/
  }

  // A line under a field ('' hides it).
  say(line, message) {
    line.textContent = message;
    line.hidden = !message;
  }

  showStatus(message) { this.say(this.status, message); }

  // Opens settings.model unless it is already shown; then the text, layer and head.
  async show(settings) {
    const changed = settings.model !== this.settings.model || !this.worker;
    this.settings = { ...this.settings, ...settings };
    if (!changed) keepHeadInModel(this);  // a link's layer past the open model: its last (a new model's is kept on opening)
    // a link's sampling: taken when valid, else refused in the field's line
    if (settings.temperature != null && settings.temperature !== this.temperature.value) this.temperature.set(settings.temperature, { quiet: true });
    const warp = { topK: settings.topK ?? this.warpers.topK, topP: settings.topP ?? this.warpers.topP };
    if (warp.topK !== this.warpers.topK || warp.topP !== this.warpers.topP) this.warpers.set(warp, { quiet: true });
    Object.assign(this.settings, { temperature: this.temperature.value, ...this.warpers.value });
    if (this.input.value !== this.settings.text) this.input.value = this.settings.text;
    if (settings.generated !== undefined) this.generated.fromLink(settings.generated);
    if (changed) {
      const model = this.settings.model;
      const label = Object.hasOwn(modelPresets, model) ? model : quoteText(model, 80);
      let url;
      try {
        url = modelSource(model);
      } catch (error) {
        this.showStatus(`${error.message}${this.worker ? `; still showing ${this.label}` : ''}`);
        return;
      }
      // a URL ending in "/" is a Hugging Face folder's (folder.js)
      if (new URL(url).pathname.endsWith('/')) await this.folder.openUrl(url, label);
      else await this.open(url, { name: model.split('/').pop(), label });
    } else await this.run();
  }

  // opening.js: a new worker opens the model; the one shown stays until it has
  open(source, options) { return openModel(this, source, options); }
  refused(label, error) { refused(this, label, error); }
  cancelOpening() { cancelOpening(this); }

  // A model file made in the page (a model trained in the training view):
  // opened as a file picked from disk is, from its first head, on `text`,
  // with the lens `lens` open (null: closed).
  openFile(file, { label, text, lens = null }) {
    Object.assign(this.settings, { text, lens, layer: 0, head: 0 });
    this.input.value = text;
    return this.open(file, { config: '', name: file.name, label, file: true });
  }

  async run() {
    if (!this.worker) return;
    const run = ++this.runs;
    const worker = this.worker;
    const text = this.settings.text;
    try {
      if (!text) throw new ModelError('text: type something for the model to read');
      let { tokens, made } = await this.generated.tokensOf(text);  // made: which Generate wrote
      const context = this.info.config.length;
      const cut = tokens.length > context ? tokens.length - context : 0;
      if (cut) [tokens, made] = [tokens.slice(cut), made?.slice(cut) ?? null];  // the model reads at most `context` tokens: the last ones
      const result = await worker.run(tokens, { temperature: this.temperature.value, warpers: this.warpers.value });
      if (run !== this.runs || worker !== this.worker) return;
      this.say(this.textError, '');
      this.say(this.textNote, [cut ? `The model reads ${context} tokens at most: the first ${cut} are left out` : '', this.generated.problem].filter(Boolean).join('. '));
      this.result = result;
      this.shownText = text;
      this.labels = labelsOf(tokens, this.tokenizer);
      this.made = made;
      this.draw();
      if (nextToken.moved(this)) this.retemper();  // moved while it ran
    } catch (error) {
      if (run !== this.runs) return;
      if (!(error instanceof ModelError)) throw error;
      // the text stays as typed; the views keep the last text the model could read, saying so
      this.say(this.textError, error.message);
      this.say(this.textNote, '');
      this.showUnread(error.message);
      this.box.dataset.state = 'ready';
    }
  }

  // The field's text is not what the views show: unread.js
  showUnread(message) { showUnread(this, message); }

  // Measured as 'model-draw' (user timing): a keystroke's page work once the worker has answered.
  draw() {
    const start = performance.now();
    const { attention } = this.result;
    // the widths hold from one draw of a model to the next (its grid's column
    // keeps its size): read before this draw writes, as a read after the
    // chips' writes forces a layout. The first draw of a model reads them
    // once the views are shown and the grid is built.
    const same = !this.body.hidden && this.grid.shape?.[0] === attention.shape[0] && this.grid.shape?.[1] === attention.shape[1];
    const read = same ? this.readFirst() : null;
    this.body.hidden = this.chips.list.hidden = false;
    this.stale.hidden = this.empty.hidden = true;
    this.box.dataset.shows = 'text';
    this.chips.draw(this.labels, this.result.tokens, this.made);
    this.generated.drawn(this.made);
    const heads = this.hasHeads();
    this.noHeads.hidden = heads;
    this.grid.box.hidden = this.headPanel.hidden = this.graphPanel.hidden = !heads;
    if (heads) {
      this.grid.draw(attention, this.settings, this.family);
      this.drawHead(read ?? this.readFirst());
    }
    // the token in focus stays in focus while it is there (a keystroke at the end)
    this.focusToken(this.position !== null && this.position < this.result.tokens.length ? this.position : null);
    this.box.dataset.state = 'ready';
    this.box.dataset.tokens = this.result.tokens.join(',');
    performance.measure('model-draw', { start });
    this.lens.update();  // the lens open, on these tokens
    this.startHere?.update({ model: this.settings.model, worker: this.worker, text: this.settings.text, labels: this.labels });
    if (this.settings.model === defaultModel) this.tryList?.hide();
    else this.tryList?.update({ family: this.family, worker: this.worker, place: this.familyLine && !this.familyLine.hidden ? this.familyLine : this.facts });
  }

  // Whether the last run has heads to draw (a model without blocks has none).
  hasHeads() {
    return this.result.attention.shape[0] > 0 && this.result.attention.shape[1] > 0;
  }

  // reveal: the head was chosen away from its views (a lens's table below,
  // "Start here" above): its panel is scrolled into sight and outlined a
  // moment, or the click would change nothing the learner can see.
  // from: {button, name, fallback}: the button that chose it, named for "Back to …"
  select(selected, { reveal = false, from = null } = {}) {
    Object.assign(this.settings, selected);
    this.onState(this.settings);
    this.drawHead();
    this.back.hidden = true;
    if (!reveal || this.headPanel.hidden) return;
    if (from) {
      // the focus comes along to the head shown, with the way back beside it (above or below it)
      this.from = from;
      const above = from.button.getBoundingClientRect().top < this.headPanel.getBoundingClientRect().top;
      this.back.textContent = `${above ? '↑' : '↓'} Back to ${from.name}`;
      this.back.hidden = false;
      this.back.focus({ preventScroll: true });
    }
    const box = this.headPanel.getBoundingClientRect();
    const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (box.top < 0 || box.top > innerHeight - 80) this.headPanel.scrollIntoView({ block: 'start', behavior: reduced ? 'auto' : 'smooth' });
    this.headPanel.classList.remove('model-head-shown');
    void this.headPanel.offsetWidth;  // the outline again on a second click
    this.headPanel.classList.add('model-head-shown');
  }

  weightsOf(layer, head) {
    const [, H, T] = this.result.attention.shape;
    const at = (layer * H + head) * T * T;
    return this.result.attention.data.slice(at, at + T * T);
  }

  // The px the head's heatmap and the graph may take, read together.
  readFirst() {
    return { heatmap: this.heatmap.figure.parentElement.clientWidth, graph: this.graph.width() };
  }

  // read: the widths read before this draw wrote (readFirst()); else read now.
  drawHead(read = this.readFirst()) {
    if (!this.result || !this.hasHeads()) return;
    const { layer, head } = this.settings;
    const T = this.result.attention.shape[2];
    const weights = this.weightsOf(layer, head);
    this.headTitle.textContent = `Layer ${layer}, head ${head}: who listens to whom`;
    this.openHead.textContent = `Open layer ${layer}, head ${head} in the playground`;
    const labels = this.labels;
    this.drawHeatmap(weights, read.heatmap);
    // the same tokens keep the graph's nodes and layout: another head only reweighs its edges
    // an encoder's edges run both ways (every token attends to every token)
    const { causal } = this.family;
    const id = `model:${causal ? '' : 'both:'}${this.made ?? ''}:${labels.join('\u0000')}`;
    // new tokens (typed, generated): "One query" shows the last, whose next
    // token the bars show; another head of the same tokens keeps the query
    if (causal && id !== this.graphTokens) this.graph.query = T - 1;
    this.graphTokens = id;
    this.graph.show(headTrace(id, labels, weights, T, { causal, marked: this.made }), { head: 0, step: 'weights', progress: 1, batch: 0 }, { width: read.graph });
    this.grid.select({ layer, head });
  }

  // Back to the button that showed the head, or its fallback (the first of
  // them still shown: a lens closed or another tab since, "Start here"
  // dismissed), in sight and focused; with neither, the head's title keeps
  // the focus from falling to the page.
  goBack() {
    const { button, fallback } = this.from ?? {};
    const shown = (e) => e?.isConnected && e.checkVisibility();
    const to = [button, fallback?.()].find(shown) ?? this.headTitle;
    this.back.hidden = true;
    if (to === this.headTitle) to.tabIndex = -1;
    to.scrollIntoView({ block: 'center', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    to.focus({ preventScroll: true });
  }

  // The selected head's weights as a heatmap, in `width` px (else read now).
  drawHeatmap(weights = null, width = undefined) {
    if (!this.result || !this.hasHeads()) return;  // a resize's frame after another model was asked for
    weights ??= this.weightsOf(this.settings.layer, this.settings.head);
    const T = this.result.attention.shape[2];
    this.heatmap.draw({ shape: [T, T], data: weights }, { rowLabels: this.labels, colLabels: this.labels, marked: this.made, underline, maxCell: 26 }, { width });
  }

  // The token in focus: focus.js; what it writes next: next.js
  focusToken(t, options) { focus.focusToken(this, t, options); }
  showGuesses(t) { nextToken.showGuesses(this, t); }
  retemper() { return nextToken.retemper(this); }
  // the temperature, top-k or top-p moved: into the link, the bars again
  sampled() {
    Object.assign(this.settings, { temperature: this.temperature.value, ...this.warpers.value });
    this.onState(this.settings);
    return this.retemper();
  }
  generate() { return nextToken.generate(this); }

  async openInPlayground() {
    const { layer, head } = this.settings;
    try {
      const scenario = await this.worker.headScenario(layer, head, { labels: this.labels });
      this.onOpenHead({ scenario, layer, head });
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      this.showStatus(error.message);
    }
  }

  // What keeps the view from showing the settings ('' when nothing): the
  // status line (a refused model), else the text's (a character not in the
  // vocabulary).
  problem() {
    if (!this.status.hidden) return this.status.textContent;
    if (!this.worker) return this.folder.line ?? 'no model is open';  // a folder the page cannot run yet says why
    return this.textError.hidden || this.result ? '' : this.textError.textContent;
  }

  dispose() {
    this.loading?.worker.terminate();
    this.worker?.terminate();
    this.loading = this.worker = null;
  }
}
