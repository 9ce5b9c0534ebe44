// What a text model writes: the sample the core generated at an evaluation
// (gpt-v1.md, "Samples"), shown for the evaluation the timeline is on, so
// scrubbing back shows the noise that became words. Text only, never markup.
import { printedText } from '../views/format.js';
import { create, element } from './dom.js';

export class Sample {
  constructor(parent) {
    this.box = create('section', { className: 'training-sample' });
    this.heading = element(this.box, 'h3', { className: 'small-heading' });
    this.text = element(this.box, 'pre', { className: 'training-sample-text', tabIndex: 0 });  // it scrolls: reachable by keyboard
    parent.append(this.box);
  }

  // evaluation: {step, sample}
  show(evaluation) {
    const none = typeof evaluation?.sample !== 'string';
    if (this.box.hidden !== none) this.box.hidden = none;
    if (none) return;
    const heading = `What the model writes at step ${evaluation.step}`;
    // written only when it changes: a training model's frames must not dirty the layout
    if (this.heading.textContent !== heading) this.heading.textContent = heading;
    if (this.shown !== evaluation) this.text.textContent = printedText(evaluation.sample);
    this.shown = evaluation;
    if (this.box.dataset.step !== String(evaluation.step)) this.box.dataset.step = String(evaluation.step);
  }
}
