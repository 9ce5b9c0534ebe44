// The Model view's temperature: a slider over round stops (0.05 … 5, 1 near
// the middle), its value shown beside it, and the one line under it that
// says why a temperature was refused (the slider's range, or the core's
// line when Generate refuses it). The bars and Generate both read value.
import { quoteText } from '../state/state.js';
import { create, element } from '../views/dom.js';

// below 1 in small steps (where the likeliest token takes over), above it in growing ones
export const stops = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.5, 1.7, 2, 2.5, 3, 4, 5];
export const lowest = stops[0];
export const highest = stops.at(-1);

// The stop nearest to t (on a log scale: 0.06 is nearer 0.05 than 0.1).
const nearest = (t) => stops.reduce((best, s, n) => (Math.abs(Math.log(s / t)) < Math.abs(Math.log(stops[best] / t)) ? n : best), 0);

export class TemperatureField {
  // parent: where it goes; value: the first temperature; onChange(t): a new valid one.
  constructor(parent, { value = 0.8, onChange }) {
    this.onChange = onChange;
    const id = `model-temperature-${Math.random().toString(36).slice(2)}`;
    this.box = create('div', { className: 'field model-temperature' });
    element(this.box, 'label', { text: 'Temperature', htmlFor: id });
    const row = element(this.box, 'div', { className: 'model-temperature-row' });
    this.slider = element(row, 'input', { type: 'range', min: '0', max: String(stops.length - 1), step: '1', id, attrs: { 'aria-describedby': `${id}-error` } });
    this.output = element(row, 'output', { className: 'model-temperature-value', attrs: { for: id } });
    this.error = element(this.box, 'p', { className: 'field-error', hidden: true, id: `${id}-error`, attrs: { 'aria-live': 'polite' } });
    parent.append(this.box);
    this.slider.addEventListener('input', () => this.set(stops[Number(this.slider.value)]));
    this.value = null;
    this.set(value, { quiet: true });
  }

  // A temperature from anywhere (the slider, a caller): one in [lowest,
  // highest] is taken; another is refused in one line, the last one kept.
  set(t, { quiet = false } = {}) {
    if (!(typeof t === 'number' && t >= lowest && t <= highest)) {
      this.showError(`Temperature: expected a number from ${lowest} to ${highest}, got ${quoteText(String(t))}${this.value === null ? '' : `; kept ${this.value}`}`);
      return false;
    }
    this.showError('');
    const changed = t !== this.value;
    this.value = t;
    const at = nearest(t);
    if (Number(this.slider.value) !== at) this.slider.value = String(at);
    this.output.textContent = String(t);
    this.slider.setAttribute('aria-valuetext', String(t));
    if (changed && !quiet) this.onChange(t);
    return true;
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }
}
