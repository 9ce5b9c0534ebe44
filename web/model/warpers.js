// The Model view's top-k and top-p, beside the temperature (as Transformer
// Explainer has them): two sliders over round stops, each value shown beside
// it ("off" at top-k 0 and top-p 1), and the one line under them that says
// why a value was refused (the slider's range, or the core's line when
// Generate refuses it). The bars and Generate both read topK and topP; the
// core applies them as transformers' warpers, after the temperature.
import { quoteText } from '../state/state.js';
import { create, element } from '../views/dom.js';

export const topKStops = [0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000];
export const topPStops = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1];

// The stop nearest to v (top-k 7 shows on 5's place, its own value beside).
const nearest = (stops, v) => stops.reduce((best, s, n) => (Math.abs(s - v) < Math.abs(stops[best] - v) ? n : best), 0);

function slider(parent, name, stops, shown) {
  const id = `model-${name.toLowerCase()}-${Math.random().toString(36).slice(2)}`;
  const box = create('div', { className: 'field model-warper' });
  element(box, 'label', { text: name, htmlFor: id });
  const row = element(box, 'div', { className: 'model-temperature-row' });
  const input = element(row, 'input', { type: 'range', min: '0', max: String(stops.length - 1), step: '1', id });
  const output = element(row, 'output', { className: 'model-temperature-value', attrs: { for: id } });
  parent.append(box);
  return {
    box, input, stops,
    show(v) {
      const at = nearest(this.stops, v);
      if (Number(input.value) !== at) input.value = String(at);
      output.textContent = shown(v);
      input.setAttribute('aria-valuetext', shown(v));
    },
  };
}

export class WarperFields {
  // parent: where they go; onChange(): a new valid top-k or top-p.
  constructor(parent, { topK = 0, topP = 1, onChange }) {
    this.onChange = onChange;
    this.k = slider(parent, 'Top-k', topKStops, (k) => (k === 0 ? 'off' : String(k)));
    this.p = slider(parent, 'Top-p', topPStops, (p) => (p === 1 ? 'off' : String(p)));
    this.error = element(parent, 'p', { className: 'field-error model-warper-error', hidden: true, id: `${this.k.input.id}-error`, attrs: { 'aria-live': 'polite' } });
    for (const s of [this.k, this.p]) s.input.setAttribute('aria-describedby', this.error.id);
    this.k.input.addEventListener('input', () => this.set({ topK: this.k.stops[Number(this.k.input.value)] }));
    this.p.input.addEventListener('input', () => this.set({ topP: this.p.stops[Number(this.p.input.value)] }));
    this.topK = 0;
    this.topP = 1;
    this.vocabulary = Infinity;
    this.set({ topK, topP }, { quiet: true });
  }

  // The model's vocabulary: the top-k slider ends at the last stop within it.
  setVocabulary(V) {
    this.vocabulary = V;
    this.k.stops = topKStops.filter((k) => k <= V);
    this.k.input.max = String(this.k.stops.length - 1);
    if (this.topK <= V) return this.k.show(this.topK);
    const was = this.topK;
    this.set({ topK: 0 });
    this.showError(`Top-k: ${was} is more than this model's ${V.toLocaleString('en')} tokens; turned off`);
  }

  // Values from anywhere (the sliders, a link): a whole top-k from 0 to the
  // vocabulary and a top-p in (0, 1] are taken; another is refused in one
  // line, the last one kept.
  set({ topK = this.topK, topP = this.topP }, { quiet = false } = {}) {
    if (!(Number.isInteger(topK) && topK >= 0 && topK <= this.vocabulary)) {
      this.showError(`Top-k: expected a whole number from 0 (off) to ${Number.isFinite(this.vocabulary) ? this.vocabulary.toLocaleString('en') : 'the vocabulary'}, got ${quoteText(String(topK))}; kept ${this.topK || 'off'}`);
      return false;
    }
    if (!(typeof topP === 'number' && topP > 0 && topP <= 1)) {
      this.showError(`Top-p: expected a number above 0 and at most 1 (off), got ${quoteText(String(topP))}; kept ${this.topP === 1 ? 'off' : this.topP}`);
      return false;
    }
    this.showError('');
    const changed = topK !== this.topK || topP !== this.topP;
    Object.assign(this, { topK, topP });
    this.k.show(topK);
    this.p.show(topP);
    if (changed && !quiet) this.onChange();
    return true;
  }

  // What the core takes: {topK, topP}.
  get value() { return { topK: this.topK, topP: this.topP }; }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }
}
