// Ablation (lens-v1.md section 2): a button a head, in a layers × heads
// grid, toggles it in the heads ablated; zero or mean says what replaces its
// output; the core's answer is drawn as the next-token bars before and after
// (views/next-tokens.js, the Model view's own bars) and the loss before and
// after, as the core gave them.
import { NextTokens } from '../views/next-tokens.js';
import { element, headName, headsOf } from './dom.js';

// a loss that moved by less than this share of itself "barely moved"
const barelyMoved = 0.005;

export class AblateLens {
  constructor(body, panel) {
    this.panel = panel;
    this.named = null;
    const controls = element(body, 'div', { className: 'lens-ablate-controls' });
    const mode = element(controls, 'fieldset', { className: 'lens-mode' });
    element(mode, 'legend', { textContent: 'Replace the heads’ output by' });
    const name = `lens-mode-${Math.random().toString(36).slice(2)}`;
    this.modes = ['zero', 'mean'].map((value) => {
      const label = element(mode, 'label');
      const input = element(label, 'input', { type: 'radio', name, value });
      label.append(value === 'zero' ? ' zeros' : ' its mean over the positions');
      input.addEventListener('change', () => input.checked && panel.set({ mode: value }));
      return input;
    });
    this.gridBox = element(controls, 'div', { className: 'lens-ablate-grid-box' });
    element(this.gridBox, 'p', { className: 'lens-ablate-grid-title', textContent: 'Heads to switch off (rows: layers; “0.2” is layer 0, head 2)' });
    this.grid = element(this.gridBox, 'div', { className: 'lens-ablate-grid' });
    this.grid.setAttribute('role', 'group');
    this.grid.setAttribute('aria-label', 'Heads to ablate');
    this.clearButton = element(this.gridBox, 'button', { type: 'button', className: 'lens-ablate-clear', textContent: 'Switch every head back on' });
    this.clearButton.addEventListener('click', () => {
      panel.set({ ablate: '' });
      this.grid.querySelector('button')?.focus();  // the button is disabled now: it would drop the focus
    });
    this.loss = element(body, 'p', { className: 'lens-loss' });
    const bars = element(body, 'div', { className: 'lens-ablate-bars' });
    this.before = new NextTokens(bars);
    this.after = new NextTokens(bars);
    this.before.box.dataset.side = 'before';
    this.after.box.dataset.side = 'after';
    this.shape = null;
    this.at = null;  // an encoder's position (null: a GPT's last token)
  }

  // What the lens shows: a decoder's next token and loss; an encoder's guesses at one position (no loss).
  get about() {
    const what = 'What you see: the model’s guesses with every head on (before), and with the heads you ablate switched off (after). '
      + 'Zero replaces a head’s output with 0; mean, with its average over the positions. Beside each guess after: its change in percentage points (pp).';
    const todo = 'What to do: click heads in the grid to switch them off or on again, and compare.';
    if (this.panel.view.family?.causal === false) {
      return `${what} The guesses are at the [MASK] (or the position the link’s at= names): a head whose removal changes them was doing work there. An encoder predicts no next token, so there is no loss. ${todo}`;
    }
    return `${what} The guesses are for the token after the last one, and the loss is on this text: a head whose loss rises when it is off was doing work here. ${todo}`;
  }

  // The grid of heads, the mode and the request; a string: why nothing is asked.
  request(settings, tokens) {
    const heads = headsOf(settings.ablate);
    this.drawGrid(heads);
    for (const input of this.modes) input.checked = input.value === (settings.mode === 'mean' ? 'mean' : 'zero');
    this.named = heads.length ? { layer: heads.at(-1)[0], head: heads.at(-1)[1] } : null;
    this.why = 'the last head switched off';
    if (!heads.length) return 'No head is switched off yet: click one in the grid, or a head’s “Ablate” in the head scores.';
    const request = { what: 'ablate', heads, mode: settings.mode === 'mean' ? 'mean' : 'zero' };
    // an encoder's guesses are its masked-LM head's at a position: at=, else its first [MASK] (lens-v1.md)
    const { causal, maskId } = this.panel.view.family;
    const at = settings.at ?? (maskId == null ? -1 : tokens.indexOf(maskId));
    if (!causal && at >= 0) request.position = at;
    this.at = causal || at < 0 ? null : at;
    return request;
  }

  // The focus on head (layer, head)'s button in the grid.
  focusHead(layer, head) {
    this.grid.querySelector(`.lens-ablate-toggle[data-head="${headName(layer, head)}"]`)?.focus();
  }

  // A button a head of the model shown, pressed when it is ablated.
  drawGrid(heads) {
    const { layers, heads: H } = this.panel.view.info.config;
    const on = new Set(heads.map(([l, h]) => headName(l, h)));
    if (this.shape !== `${layers}x${H}`) {
      this.shape = `${layers}x${H}`;
      this.grid.textContent = '';
      this.grid.style.gridTemplateColumns = `auto repeat(${H}, minmax(2.6em, max-content))`;
      for (let l = 0; l < layers; l++) {
        element(this.grid, 'span', { className: 'lens-ablate-layer', textContent: `layer ${l}` });
        for (let h = 0; h < H; h++) {
          const button = element(this.grid, 'button', { type: 'button', className: 'lens-ablate-toggle', textContent: headName(l, h) });
          button.dataset.head = headName(l, h);
          button.setAttribute('aria-label', `Layer ${l}, head ${h}`);
          button.addEventListener('click', () => this.panel.toggleHead(l, h));
        }
      }
    }
    for (const button of this.grid.querySelectorAll('button')) button.setAttribute('aria-pressed', String(on.has(button.dataset.head)));
    this.clearButton.disabled = on.size === 0;
  }

  // Each guess after, against before: its change in percentage points (the
  // difference of the core's two probabilities, for display), or "new" when
  // it was not among the guesses before.
  deltas(json) {
    const before = new Map(json.before.top.map(([id, p]) => [id, p]));
    [...this.after.list.children].forEach((item, n) => {
      item.querySelector('.lens-delta')?.remove();
      const [id, p] = json.after.top[n];
      const d = before.has(id) ? (p - before.get(id)) * 100 : null;
      const text = d === null ? 'new' : `${d < 0 ? '−' : '+'}${Math.abs(d).toFixed(1)} pp`;
      const span = element(item, 'span', { className: `lens-delta${d === null ? ' lens-delta-new' : d < 0 ? ' lens-delta-down' : ''}`, textContent: text });
      span.title = d === null ? 'not among the guesses before' : 'change from before, in percentage points';
      item.dataset.delta = d === null ? 'new' : String(d);
    });
  }

  clear() {
    this.loss.textContent = '';
    this.before.box.hidden = this.after.box.hidden = true;
  }

  draw(json, view) {
    const label = (top) => top.map(([id, p]) => [this.panel.label([id])[0], p]);
    const names = json.heads.map(([l, h]) => headName(l, h)).join(', ');
    const one = json.heads.length === 1;
    const how = json.mode === 'mean' ? (one ? 'its mean over the positions' : 'each its own mean over the positions') : 'zeros';
    this.before.box.hidden = this.after.box.hidden = false;
    const where = this.at === null ? `Next token after the last token, ${JSON.stringify(view.labels.at(-1))}` : `The guesses for position ${this.at}, ${JSON.stringify(view.labels[this.at] ?? '')}`;
    this.before.show(label(json.before.top), 'Before: every head on', `${where}: the model as it is${this.at === null ? ', its own probabilities (temperature 1, where the bars above use the slider’s)' : ''}.`);
    this.after.show(label(json.after.top), `After: ${names} off`, `The same, with the output of ${one ? 'head' : 'heads'} ${names} replaced by ${how}.`);
    this.deltas(json);
    const loss = (v) => (v === null ? '—' : v.toFixed(4));
    // which way it went: a comparison of the core's two numbers; a change of
    // under 0.5% is not a head helping or hurting (2.0887 -> 2.0885 read as "hurting")
    const change = json.after.loss - json.before.loss;
    const way = change === 0 ? ''
      : Math.abs(change) < barelyMoved * json.before.loss ? ' The loss barely moved: on this text these heads make little difference to the guesses.'
      : change < 0 ? ' The loss fell: with them on, these heads were hurting the guesses on this text.'
      : ' The loss rose: these heads were helping the guesses on this text.';
    this.loss.textContent = json.before.loss === null
      ? (this.at === null ? 'Loss: one token has no next token to predict, so no loss.' : 'Loss: an encoder predicts no next token, so no loss.')
      : `Loss on this text (the mean cross-entropy of each next token): ${loss(json.before.loss)} before, ${loss(json.after.loss)} after.${way}`;
    this.loss.dataset.before = String(json.before.loss);
    this.loss.dataset.after = String(json.after.loss);
  }
}
