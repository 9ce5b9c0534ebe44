// What a text model writes: the sample the core generated at an evaluation
// (gpt-v1.md, "Samples"), shown for the evaluation the timeline is on, so
// scrubbing back shows the noise that became words. Text only, never markup.
import { printedText } from '../views/format.js';

export class Sample {
  constructor(parent) {
    this.box = document.createElement('section');
    this.box.className = 'training-sample';
    this.heading = document.createElement('h3');
    this.heading.className = 'small-heading';
    this.text = document.createElement('pre');
    this.text.className = 'training-sample-text';
    this.text.tabIndex = 0;  // it scrolls: reachable by keyboard
    this.box.append(this.heading, this.text);
    parent.append(this.box);
  }

  // evaluation: {step, sample}; latest: whether it is the run's latest one
  show(evaluation, { latest = false, live = null } = {}) {
    this.box.hidden = typeof evaluation?.sample !== 'string';
    if (this.box.hidden) return;
    const later = live !== null && live > evaluation.step ? ` (the model is at step ${live}; it writes again at the next evaluation)` : '';
    this.heading.textContent = `What the model writes at step ${evaluation.step}${latest ? later : ''}`;
    this.text.textContent = printedText(evaluation.sample);
    this.box.dataset.step = String(evaluation.step);
  }
}
