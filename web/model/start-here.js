// "Start here": what a first-time visitor of the Model view needs before the
// grid of heads means anything. Shown only on the shipped model (a link that
// names another model, or a file the learner opened, is someone who knows
// why they came), until dismissed: which model this is and what it reads,
// the head to look at first (the clearest previous-token head, by the
// core's score on the text shown), and what to try next.
import { touchScreen } from '../views/touch.js';
import { element } from '../views/dom.js';
import { dismissed, rememberDismissed } from './dismissal.js';

const dismissedKey = 'attention-playground:model-start-here';

// "What does each head do?": a line whose button opens the lenses (lens/hook.js),
// which otherwise wait at the foot of the view. try-list.js has it too.
export function lensLine(list, onLenses) {
  const item = element(list, 'li', { className: 'lens-line', textContent: 'What does each head do? ' });
  element(item, 'button', { type: 'button', className: 'lens-line-open', textContent: 'Open the lenses' }).addEventListener('click', onLenses);
}

export class StartHere {
  // parent: where the box goes (first); shipped: the shipped model's id;
  // onSelect({layer, head}, button): "Show this head"; onLenses(): opens the lenses;
  // afterDismiss(): where the focus goes once the box is gone
  constructor(parent, { shipped, onSelect, onLenses, afterDismiss = () => {} }) {
    this.shipped = shipped;
    this.afterDismiss = afterDismiss;
    this.onSelect = onSelect;
    this.closed = dismissed(dismissedKey);
    this.box = element(parent, 'aside', { className: 'start-here', hidden: true });
    this.box.setAttribute('aria-labelledby', 'model-start-here-title');
    parent.prepend(this.box);
    const top = element(this.box, 'div', { className: 'start-here-top' });
    element(top, 'h3', { id: 'model-start-here-title', textContent: 'Start here' });
    const close = element(top, 'button', { type: 'button', className: 'start-here-close', textContent: 'Dismiss' });
    close.setAttribute('aria-label', 'Dismiss “Start here”');
    close.addEventListener('click', () => this.dismiss());
    this.what = element(this.box, 'p', { className: 'start-here-what' });
    this.look = element(this.box, 'p', { className: 'start-here-look' });
    this.lookText = element(this.look, 'span');
    this.show = element(this.look, 'button', { type: 'button', className: 'start-here-show' });
    this.show.addEventListener('click', () => this.best && this.onSelect({ layer: this.best.layer, head: this.best.head }, this.show));
    const next = element(this.box, 'ul', { className: 'start-here-next' });
    for (const text of [
      'Type your own sentence in Text: every head reads it again as you type.',
      `${touchScreen() ? 'Tap a token' : 'Point at a token (or focus it and use the arrow keys)'}: the bars show what the model guesses comes after it.`,
      'Open the head in the playground: every number of its attention, and how each was computed.',
    ]) element(next, 'li', { textContent: text });
    lensLine(next, onLenses);
  }

  // A model has opened (model: the link's model id, null for a file): the
  // box is the shipped model's, gone at once for any other, even one that
  // cannot read the text yet (try-list.js's box describes that one).
  opened(model) {
    if (model !== this.shipped) this.box.hidden = true;
  }

  dismiss() {
    const focused = this.box.contains(document.activeElement);
    this.closed = true;
    this.box.hidden = true;
    rememberDismissed(dismissedKey);
    if (focused) this.afterDismiss();  // not dropped to the page with the box
  }

  // After each draw of the view: model (the link's model id, null for a
  // file), scores (the run's head scores, which came with it: no call after
  // the run), text, labels (the text's tokens as shown).
  update({ model, scores, text, labels }) {
    if (this.closed || model !== this.shipped) {
      this.box.hidden = true;
      return;
    }
    const unit = labels.every((l) => [...l].length <= 1) ? 'character' : 'token';
    // past its context the model reads the text's end only: quote that, and say so
    const read = labels.join('');
    const whole = [...text].length;
    const reading = unit === 'character' && labels.length < whole
      ? `reading the end of your text, “…${read}”: the last ${labels.length} of its ${whole} characters`
      : `reading “${text}”: ${labels.length} ${unit}s`;
    this.what.textContent = `This is ${model}, a small GPT trained on quotations about literature, ${reading}, each a row and a column of every head below.`;
    // the head whose weight sits most on the token just before: the easiest pattern to see
    this.best = (scores ?? []).reduce((best, s) => (!best || s.previous > best.previous ? s : best), null);
    this.look.hidden = !this.best;
    if (this.best) {
      const { layer, head, previous } = this.best;
      this.lookText.textContent = `Look at layer ${layer}, head ${head} first: it looks one ${unit} back. On this text ${previous.toFixed(2)} of each ${unit}’s attention goes, on average, to the one just before it (its previous-token score): the bright line under its diagonal. `;
      this.show.textContent = `Show layer ${layer}, head ${head}`;
      this.box.dataset.head = `${layer}.${head}`;
      this.box.dataset.score = String(previous);
    }
    this.box.hidden = false;
  }
}
