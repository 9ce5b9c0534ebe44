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
import { buildLens } from '../lens/hook.js';
import { familyLineAfter, familyOf, familyView } from './family.js';
export { titleOf } from './family.js';
import { FolderSource, textLabel } from './folder.js';
import { lightToken } from './focus.js';
import { HeadView } from './head.js';
import { buildLayout } from './layout.js';
import { idsNoteLine, startText } from './ids-start.js';
import { factsLine, headInModel, Opening, openInWorker, refusalLine } from './opening.js';
import { Generated } from './generated.js';
import { Generation } from './generation.js';
import { StartHere } from './start-here.js';
import { TryList } from './try-list.js';
import { labelsOf } from './tokens.js';
import { showUnread, unreadLine } from './unread.js';
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
    this.runs = 0;           // the newest run asked for: older answers are dropped
    this.position = null;    // the token in focus (null: the last)
    this.family = familyOf(null);  // what the model's family changes (family.js): a GPT's until one opens
    this.settings = { model: defaultModel, text: defaultText, layer: 0, head: 0 };
    this.build(root);
    this.generated = new Generated(this.chips.list, {  // which tokens Generate wrote
      read: () => ({ text: this.settings.text, tokenizer: this.tokenizer, info: this.info }),
      onRuns: (generated) => { this.settings.generated = generated; },
      onRefused: () => this.onState(this.settings),
    });
    this.startHere = startHere ? new StartHere(this.box, { shipped: defaultModel, onSelect: (s, button) => this.select(s, { reveal: true, from: { button, name: '“Start here”', fallback: () => this.input } }), onLenses: () => this.lens.open(), afterDismiss: () => this.input.focus() }) : null;
    // any other model's "Try:" lines, where "Start here" may show (the page, not a figure)
    this.tryList = startHere ? new TryList(this.facts, () => this.lens.open()) : null;
  }

  build(root) {
    Object.assign(this, buildLayout(root, {
      openHead: !!this.onOpenHead,
      on: {
        pickFiles: (files) => this.folder.openPicked(files),
        cancel: () => this.cancelOpening(),
        folder: (source, opening) => new FolderSource(source, {
          opening,
          starting: () => this.starting(),
          open: (source, options) => this.open(source, options),
          refused: (label, error) => this.refused(label, error),
          showStatus: (line) => this.showStatus(line),
        }),
        typed: (text) => {
          const before = this.settings.text;
          this.settings.text = text;
          this.generated.edit(before, text);  // what Generate wrote that the learner did not change
          this.onState(this.settings, { typing: true });
          this.run();
        },
        position: (t) => this.focusToken(t),
        select: (s) => this.select(s),
        back: () => this.head.goBack(),
        resize: () => this.drawHeatmap(),
        openHead: () => this.openInPlayground(),
        sampled: () => this.generation.sampled(),
        generate: () => this.generation.generate(),
        node: (node) => this.picking || this.focusToken(node ? node.node : null, { fromGraph: true }),
      },
    }));
    this.head = new HeadView({ section: this.headPanel, title: this.headTitle, back: this.back, openHead: this.openHead, heatmap: this.heatmap, graph: this.graph, grid: this.grid });
    this.lens = buildLens(this, this.body, (ids) => labelsOf(ids, this.tokenizer));  // the lenses: web/lens/
    this.generation = new Generation(this.panel, {  // the sliders' sampling and Generate
      read: () => ({ worker: this.worker, runs: this.runs, result: this.result, family: this.family, tokenizer: this.tokenizer }),
      onSampling: (sampling) => this.change(sampling),
      onTempered: (tempered) => {
        this.result.tempered = tempered;
        this.showGuesses(this.position);
      },
      onGenerated: (added, text) => {
        this.generated.added(added, text);
        this.settings.text += text;
        this.input.value = this.settings.text;
        this.onState(this.settings);
        return this.run();
      },
    });
  }

  // A line under a field ('' hides it).
  say(line, message) { Object.assign(line, { textContent: message, hidden: !message }); }

  showStatus(message) { this.say(this.status, message); }
  get loading() { return this.opening.busy; }  // a model is being opened

  // Opens settings.model unless it is already shown; then the text, layer and head.
  async show(settings) {
    const changed = settings.model !== this.settings.model || !this.worker;
    this.settings = { ...this.settings, ...settings };
    if (!changed) Object.assign(this.settings, headInModel(this.settings, this.info.config));  // a link's layer past the open model: its last
    Object.assign(this.settings, this.generation.fromLink(settings));  // a link's sampling, when valid
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

  // Another model is asked for: the last opening's line, a folder's summary, go.
  starting() {
    this.showStatus('');
    this.box.dataset.state = 'loading';
  }

  // A new worker opens the model (opening.js); the one shown stays until it
  // has. options: {config, name, label, file (a file, which cannot be in a
  // link), folder (folder-source.js's, in place of source)}.
  async open(source, { config = '', name, label, file = false, folder = null }) {
    this.starting();
    let opened;
    try {
      opened = await openInWorker(this.opening, source, { config, name, label, folder });
    } catch (error) {
      return this.refused(label, error);
    }
    if (!opened) return;  // left or replaced meanwhile
    this.worker?.terminate();
    const { worker, info, tokenizer } = opened;
    Object.assign(this, { worker, info, tokenizer, label, family: familyOf(info) });
    if (file) this.settings.model = null;
    this.showStatus('');
    Object.assign(this.settings, this.generation.opened(info.config.vocab), headInModel(this.settings, info.config));
    this.name.textContent = `Model: ${label}`;
    this.facts.textContent = factsLine(info, tokenizer);
    this.textLabel.textContent = textLabel(tokenizer);
    // the views drew the last model: hidden until this one has read the text
    this.result = null;
    this.position = null;
    this.body.hidden = this.chips.list.hidden = this.stale.hidden = true;
    delete this.box.dataset.tokens;
    this.generated.opened();
    this.adapt({ folder });
    // the page's guide describes this model from now, whether or not it can read the text
    this.startHere?.opened(this.settings.model);
    this.tryList?.opened({ model: this.settings.model, label, tokenizer, family: this.family, folder: !!folder, place: this.familyLine && !this.familyLine.hidden ? this.familyLine : this.facts });
    this.onState(this.settings);
    await this.run();
  }

  // A model just opened: typed ids' starter and why ids (ids-start.js),
  // then what its family changes (family.js).
  adapt({ folder }) {
    const { family, tokenizer } = this;
    const start = startText({ info: this.info, family, typed: tokenizer.typed, text: this.settings.text, starter: this.idsStarter, folder, defaultText });
    this.idsNote ??= idsNoteLine(this.textLabel, this.input);
    this.say(this.idsNote, start.note);
    this.box.dataset.ids = start.ids ? '1' : '0';
    this.idsStarter = start.starter;
    const adapted = familyView(family, { typed: tokenizer.typed, text: start.text, defaultText });
    this.settings.text = adapted.text;
    this.box.dataset.mode = family.mode;
    if (adapted.fill) this.textLabel.textContent = adapted.label;
    this.input.placeholder = adapted.placeholder;
    if (this.input.value !== this.settings.text) this.input.value = this.settings.text;
    this.panel.adapt(family);
    this.familyLine ??= familyLineAfter(this.facts);
    this.say(this.familyLine, adapted.line);
    this.onFamily(family);
  }

  // An opening refused (label: what it opened, or null): its line, the model shown kept.
  refused(label, error) {
    this.opening.end();
    this.box.dataset.state = this.worker ? 'ready' : 'error';
    this.showStatus(refusalLine(label, error, this.worker ? this.label : null));
  }

  // A part changed what the link keeps (a lens, its settings): kept, then told to the page.
  change(changes) {
    Object.assign(this.settings, changes);
    this.onState(this.settings);
  }

  cancelOpening() {
    if (this.opening.cancel()) this.refused(null, new ModelError('Opening was cancelled'));
  }

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
      const result = await worker.run(tokens, this.generation.runSampling);
      if (run !== this.runs || worker !== this.worker) return;
      this.say(this.textError, '');
      this.say(this.textNote, [cut ? `The model reads ${context} tokens at most: the first ${cut} are left out` : '', this.generated.problem].filter(Boolean).join('. '));
      this.result = result;
      this.shownText = text;
      this.labels = labelsOf(tokens, this.tokenizer);
      this.made = made;
      this.draw();
      this.generation.drawn();  // a slider moved while it ran: the guesses again
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

  // The field's text is not what the views show (unread.js): the last text
  // this model read, named, or none, and why.
  showUnread(message) {
    showUnread(this, unreadLine({ label: this.label, message, shownText: this.result ? this.shownText : null }));
  }

  // Measured as 'model-draw' (user timing): a keystroke's page work once the worker has answered.
  draw() {
    const start = performance.now();
    const { attention } = this.result;
    // the widths hold from one draw of a model to the next (its grid's column
    // keeps its size): read before this draw writes, as a read after the
    // chips' writes forces a layout. The first draw of a model reads them
    // once the views are shown and the grid is built.
    const same = !this.body.hidden && this.grid.shape?.[0] === attention.shape[0] && this.grid.shape?.[1] === attention.shape[1];
    const read = same ? this.head.readFirst() : null;
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
      this.drawHead(read ?? this.head.readFirst());
    }
    // the token in focus stays in focus while it is there (a keystroke at the end)
    this.focusToken(this.position !== null && this.position < this.result.tokens.length ? this.position : null);
    this.box.dataset.state = 'ready';
    this.box.dataset.tokens = this.result.tokens.join(',');
    performance.measure('model-draw', { start });
    this.lens.update();  // the lens open, on these tokens
    this.startHere?.update({ model: this.settings.model, scores: this.result.scores, text: this.settings.text, labels: this.labels });
    if (this.settings.model === defaultModel) this.tryList?.hide();
    else this.tryList?.update({ family: this.family, scores: this.result.scores, place: this.familyLine && !this.familyLine.hidden ? this.familyLine : this.facts });
  }

  // Whether the last run has heads to draw (a model without blocks has none).
  hasHeads() { const [L, H] = this.result.attention.shape; return L > 0 && H > 0; }

  // reveal: the head was chosen away from its views (a lens's table, "Start
  // here"): shown and outlined, with the way back to `from` (head.js).
  select(selected, { reveal = false, from = null } = {}) {
    Object.assign(this.settings, selected);
    this.onState(this.settings);
    this.drawHead();
    this.head.hideBack();
    if (reveal && !this.headPanel.hidden) this.head.reveal(from);
  }

  // The selected head, large (head.js); read: the widths read before a draw wrote.
  drawHead(read = undefined) {
    if (this.result && this.hasHeads()) this.head.draw(this.shown(), this.settings, read);
  }

  // a resize's frame (after another model was asked for, maybe: nothing to draw)
  drawHeatmap() {
    if (this.result && this.hasHeads()) this.head.drawHeatmap(this.shown(), this.settings);
  }

  // What the parts read of the view (never write): next.js, fill.js, focus.js.
  shown() {
    const { result, family, tokenizer, labels, made, info } = this;
    return { result, family, tokenizer, labels, made, info };
  }

  // The token in focus (null: none): its guesses (next.js), its row and node lit (focus.js).
  // fromGraph: the graph's own focus moved (it is told nothing back).
  focusToken(t, { fromGraph = false } = {}) {
    if (!this.result) return;
    this.position = t;
    this.showGuesses(t);
    if (!this.hasHeads()) return;  // a model without blocks: the guesses only
    const node = lightToken(this, this.shown(), t, { fromGraph });
    if (node === undefined) return;
    this.picking = true;  // the graph tells its onNode: not back here
    try {
      this.graph.pick(node);
    } finally {
      this.picking = false;
    }
  }

  showGuesses(t) {
    if (this.result) this.chips.mark(this.panel.show(this.shown(), t));
  }

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
    if (!this.worker) return 'no model is open';
    return this.textError.hidden || this.result ? '' : this.textError.textContent;
  }

  dispose() {
    this.opening.dispose();
    this.worker?.terminate();
    this.worker = null;
  }
}
