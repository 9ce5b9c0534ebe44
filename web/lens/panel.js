// The lenses of an open model (lens-v1.md): four tabs, head scores, ablation,
// the logit lens and attribution, each drawn from the JSON the core answered
// in the model's worker (engine/model-client.js's lens()): the page asks and
// draws, and never computes a lens itself. Which lens, the heads ablated and
// how, and the position and token attributed are the view's settings, so
// they go into the link and come back from it. One request is out at a
// time; what the learner changes meanwhile is asked for once it is back.
// Where an answer tells a weaker story (story.js), one sentence says so and
// links the clearer example.
import { ModelError } from '../engine/model-client.js';
import { AblateLens } from './ablate.js';
import { AttributionLens } from './attribution.js';
import { element, headName, headsOf } from './dom.js';
import { LogitLens } from './logit-lens.js';
import { ScoresLens } from './scores.js';
import { sayStory } from './story.js';

const lenses = [
  ['scores', 'Head scores', ScoresLens],
  ['ablate', 'Ablate', AblateLens],
  ['logit-lens', 'Logit lens', LogitLens],
  ['attribution', 'Attribution', AttributionLens],
];

export class LensPanel {
  // view: the ModelView; section: lens/hook.js's; label(ids): the tokens' texts;
  // onClose(): the learner closed the lenses.
  constructor(view, section, label, { onClose }) {
    this.view = view;
    this.label = label;
    this.onClose = onClose;
    this.asked = null;   // the newest request's key (each lens keeps the key of the answer it drew)
    this.busy = false;
    element(section, 'link', { rel: 'stylesheet', href: new URL('./lens.css', import.meta.url).href });
    const box = this.box = element(section, 'div', { className: 'lens-panel' });
    const top = element(box, 'div', { className: 'lens-top' });
    element(top, 'h3', { className: 'small-heading', textContent: 'What each head does: the lenses' });
    const close = element(top, 'button', { type: 'button', className: 'lens-close', textContent: 'Close' });
    close.setAttribute('aria-label', 'Close the lenses');
    close.addEventListener('click', () => this.set({ lens: null }));
    this.tabs = element(box, 'div', { className: 'lens-tabs' });
    this.tabs.setAttribute('role', 'tablist');
    this.tabs.setAttribute('aria-label', 'Lens');
    this.tabs.addEventListener('keydown', (event) => this.onKey(event));
    this.page = element(box, 'div', { className: 'lens-page' });
    this.page.setAttribute('role', 'tabpanel');
    this.about = element(this.page, 'p', { className: 'lens-about' });
    // where this model's answer tells a weaker story than the lessons': one sentence, and the clearer example
    this.story = element(this.page, 'p', { className: 'lens-story', hidden: true });
    this.allOn = element(this.page, 'p', { className: 'note lens-all-on', hidden: true,
      textContent: 'Every head is on here; switching heads off applies to the Ablate tab.' });
    this.replay = element(this.page, 'button', { type: 'button', className: 'lens-replay', hidden: true });
    this.replay.addEventListener('click', () => this.replayHead());
    this.status = element(this.page, 'p', { className: 'lens-status' });
    this.status.setAttribute('aria-live', 'polite');
    this.lenses = new Map();
    for (const [id, name, Lens] of lenses) {
      const tab = element(this.tabs, 'button', { type: 'button', className: 'lens-tab', textContent: name });
      tab.id = `lens-tab-${id}-${Math.random().toString(36).slice(2)}`;
      tab.dataset.lens = id;
      tab.setAttribute('role', 'tab');
      tab.addEventListener('click', () => this.set({ lens: id }));
      const body = element(this.page, 'div', { className: `lens-body lens-${id}`, hidden: true });
      this.lenses.set(id, { id, tab, body, lens: new Lens(body, this) });
    }
    this.page.append(this.replay);  // under what the lens shows: the head it names is read there first
  }

  // The learner changed a lens setting: into the view's settings (and the link), then drawn.
  set(changes) {
    this.view.change(changes);
    if (changes.lens === null) this.onClose();
    else this.update();
  }

  // The tabs as a tab list: the arrows and Home and End move between them.
  onKey(event) {
    const ids = lenses.map(([id]) => id);
    const at = ids.indexOf(this.view.settings.lens);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: ids.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const id = ids[(to + ids.length) % ids.length];
    this.set({ lens: id });
    this.lenses.get(id).tab.focus();
  }

  // Draws the lens the settings name on the tokens the view drew (asking the
  // worker when the answer shown is not for them).
  update() {
    const { view } = this;
    const id = view.settings.lens;
    this.box.hidden = !id;
    if (!id || !view.result || !view.worker) return;
    const current = this.lenses.get(id) ?? this.lenses.get('scores');
    for (const [other, { tab, body }] of this.lenses) {
      const on = current === this.lenses.get(other);
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      body.hidden = !on;
      if (on) this.page.setAttribute('aria-labelledby', tab.id);
    }
    this.box.dataset.lens = id;
    this.about.textContent = current.lens.about;
    // the logit lens and attribution read the whole model, whatever the Ablate tab switched off
    this.allOn.hidden = !(id === 'logit-lens' || id === 'attribution') || !headsOf(view.settings.ablate).length;
    const asked = current.lens.request(view.settings, view.result.tokens);
    if (typeof asked === 'string') {  // nothing to ask yet (no head ablated): why
      this.asked = current.shown = null;
      this.box.dataset.state = 'idle';
      this.say(asked);
      sayStory(this.story, current.id, null);
      current.lens.clear();
      this.showReplay(current.lens);
      return;
    }
    const request = { ...asked, tokens: view.result.tokens };
    const key = JSON.stringify([id, request]);
    this.asked = key;
    if (key !== current.shown) sayStory(this.story, current.id, null);  // an older answer's: not this one's
    if (key === current.shown && current.worker === view.worker) return this.settle(current, request);
    this.ask(current, request, key);
  }

  // One request out at a time; the newest asked for is asked once it is back.
  async ask(current, request, key) {
    if (this.busy) return;
    this.busy = true;
    this.box.dataset.state = 'busy';
    this.say(`Computing ${current.tab.textContent.toLowerCase()} in the model’s worker…`);
    const worker = this.view.worker;
    let answer = null;
    let problem = '';
    try {
      answer = await worker.lens(request);
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      problem = error.message;
    } finally {
      this.busy = false;
    }
    if (worker !== this.view.worker) return this.update();  // another model opened meanwhile
    // kept for its lens, drawn even when another tab is shown by now
    Object.assign(current, { shown: key, worker, problem, answer: problem ? null : answer });
    const start = performance.now();
    if (problem) current.lens.clear();
    else current.lens.draw(answer, this.view);
    performance.measure('lens-draw', { start });  // the page's work for an answer (the worker's is its own)
    if (key !== this.asked) return this.update();  // asked again meanwhile
    this.settle(current, request);
  }

  // The lens shown, answered: ready, or the core's one line. A refusal of the
  // lens itself, with no setting of the learner's to blame (an encoder's logit
  // lens), leaves that line alone: no key, pickers or replay round nothing.
  settle(current, request) {
    const { problem } = current;
    const refused = Boolean(problem) && Object.keys(request).every((k) => k === 'what' || k === 'tokens');
    current.body.hidden = refused;
    this.box.dataset.state = problem ? 'error' : 'ready';
    this.say(problem, Boolean(problem));
    sayStory(this.story, current.id, current.answer);
    this.showReplay(current.lens);
    if (refused) this.replay.hidden = true;
  }

  say(text, error = false) {
    this.status.classList.toggle('field-error', error);
    this.status.textContent = text;
    this.status.hidden = !text;
  }

  // The head the lens names ({layer, head}; else the view's selected one): its step-by-step replay.
  showReplay(lens) {
    const { layer, head } = lens.named ?? this.view.settings;
    this.replay.hidden = !this.view.onOpenHead || !this.view.hasHeads();
    this.replay.dataset.layer = String(layer);
    this.replay.dataset.head = String(head);
    const why = lens.named && lens.why ? ` (${lens.why})` : '';
    this.replay.textContent = lens.named ? `Replay layer ${layer}, head ${head}${why} step by step in the playground`
      : `Replay the head selected above (layer ${layer}, head ${head}) step by step in the playground`;
  }

  replayHead() {
    this.view.select({ layer: Number(this.replay.dataset.layer), head: Number(this.replay.dataset.head) });
    return this.view.openInPlayground();
  }

  // A head into the heads ablated, or out of them; open: show the ablation.
  toggleHead(layer, head, { open = false } = {}) {
    const heads = headsOf(this.view.settings.ablate);
    const kept = heads.filter(([l, h]) => l !== layer || h !== head);
    if (kept.length === heads.length) kept.push([layer, head]);
    this.set({ ablate: kept.map(([l, h]) => headName(l, h)).join(','), ...(open ? { lens: 'ablate' } : {}) });
  }

  // The focus on a head's button in the Ablate tab's grid (drawn by now: set() draws synchronously).
  focusToggle(layer, head) {
    this.lenses.get('ablate')?.lens.focusHead(layer, head);
  }

  // Names a head in the Model view (its grid, heatmap and graph follow) and for the replay.
  // button: the head's name that was pressed, where "Back to …" returns.
  selectHead(lens, layer, head, button = null) {
    lens.named = { layer, head };
    lens.why = '';  // the learner's own choice
    const tab = [...this.lenses.values()].find((l) => l.lens === lens)?.tab;
    // the way back once the name is gone from sight: its tab, else (the lenses closed) the button that opens them
    const open = this.box.closest('.lens-section')?.querySelector('.lens-open');
    const from = button && { button, name: tab ? tab.textContent : 'the lenses', fallback: () => [tab, open].find((e) => e?.checkVisibility()) };
    this.view.select({ layer, head }, { reveal: true, from });
    this.showReplay(lens);
  }
}
