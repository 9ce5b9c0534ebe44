// "Inspect what you trained": the model as it stands leaves the training
// view as a gpt-v1 model file the core writes in memory (the worker's
// 'model-file'), for the page to open in the Model view with its lenses, as
// it opens a file from disk. Nothing is saved. The Model view opens on the
// sequence the training view shows (the probe, or the learner's own): a
// toy's repeated pattern of ids, or a line of a text model's own text.
import { create, element } from './dom.js';

// The induction lesson's example (lessons/learn.js, whose numbers are
// measured on it): eight distinct ids, then the same eight again, the last
// left out for the model to guess, so its next-token bars answer it.
export const inductionExample = [6, 4, 5, 7, 3, 2, 1, 0];

function exampleFor({ vocab, length }) {
  const half = inductionExample.filter((id) => id < vocab).slice(0, Math.floor(length / 2));
  return half.length < 2 ? null : [...half, ...half.slice(0, -1)];
}

// The text the Model view reads: an induction model's example (unless the
// learner typed a sequence of their own), another toy's sequence shown, as
// ids typed ("5, 2, 1"); a text model's characters, its longest line (a line
// reads better than a window cut anywhere).
export function inspectText(tokens, info, own = false) {
  const example = !own && info.task === 'induction' ? exampleFor(info) : null;
  if (example) return example.join(', ');
  if (!info.vocab_chars) return tokens.join(', ');
  const text = tokens.map((t) => info.vocab_chars[t] ?? '').join('');
  return text.split('\n').reduce((a, b) => (b.trim().length > a.trim().length ? b : a), '').trim() || text;
}

// What the Model view calls the model: its preset and its step, so a model
// opened from the training view is never taken for the shipped one.
export function inspectLabel(info, step) {
  return `the ${info.id} model you trained (step ${step.toLocaleString('en')})`;
}

// The button in the training view's controls, and the line under them that
// says why a file could not be made. view: the TrainingView.
export class InspectButton {
  constructor(controls, view) {
    this.view = view;
    this.button = element(controls, 'button', { type: 'button', id: 'train-inspect', textContent: 'Inspect what you trained', hidden: true });
    this.button.addEventListener('click', () => {
      this.button.disabled = true;  // one file at a time
      this.say('');
      view.worker.postMessage({ type: 'model-file' });
    });
    // under the controls' row, not in it
    this.line = create('p', { className: 'field-error training-inspect-error', hidden: true, attrs: { 'aria-live': 'polite' } });
    controls.after(this.line);
  }

  // Shown once a step has run (there are trained weights) and while the
  // training is stopped (paused, done): the file is the model as it stands.
  // A run that diverged has no model worth showing.
  show() {
    const { view } = this;
    const step = view.step ?? 0;
    const shown = step > 0 && !view.playing && view.root.dataset.state !== 'error';
    this.button.hidden = !shown;
    if (!shown) this.say('');  // a refusal is about the model it was asked of
    if (shown) this.button.title = `Open the model at step ${step.toLocaleString('en')} in the Model view, with its lenses`;
  }

  // The worker's answer: the file, to the Model view; or its refusal, in one line.
  answered({ bytes, step, error }) {
    this.button.disabled = false;
    this.say(error ?? '');
    if (error) return;
    const { info } = this.view;
    this.view.inspect({ bytes, name: `${info.id}.safetensors`, label: inspectLabel(info, step), text: inspectText(this.view.sequence(), info, Boolean(this.view.own)) });
  }

  say(message) {
    this.line.textContent = message;
    this.line.hidden = !message;
  }
}
