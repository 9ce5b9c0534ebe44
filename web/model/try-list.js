// "Try:" for a model the learner opened (a Hugging Face folder, a file, a
// link to another model): the shipped model has its "Start here" box
// (start-here.js); any other model gets two or three quiet lines under the
// family sentence saying what to do first, and, when the core scores the
// last run's heads, which head to look at. Only on the page, never in an
// author's figure (the view makes it only where it makes "Start here").
import { dismissed, element, rememberDismissed } from './dismissal.js';
import { lensLine } from './start-here.js';

const dismissedKey = 'attention-playground:model-try';


const headLine = 'Click a head to see it large; open it in the playground to replay it step by step.';

// The lines for a family (family.js's familyOf): an encoder with its
// masked-LM head fills in [MASK]; a decoder guesses the next token.
export function tryLines({ mode }) {
  if (mode === 'fill') return ['Move [MASK] to another word: the bars show what BERT would put there.', headLine];
  if (mode === 'none') return [headLine];
  return ['Point at a token: every head lights its row, the bars show what the model guesses next.', headLine];
}

export class TryList {
  // after: the element the list follows (the family sentence's place); onLenses(): opens the lenses
  constructor(after, onLenses) {
    this.onLenses = onLenses;
    this.closed = dismissed(dismissedKey);
    this.asked = 0;
    this.box = document.createElement('div');
    this.box.className = 'model-try';
    this.box.hidden = true;
    after.after(this.box);
    const top = element(this.box, 'p', { className: 'model-try-title' });
    element(top, 'strong', { textContent: 'Try:' });
    const close = element(top, 'button', { type: 'button', className: 'model-try-close', textContent: 'Dismiss' });
    close.setAttribute('aria-label', 'Dismiss “Try”');
    close.addEventListener('click', () => this.dismiss());
    this.list = element(this.box, 'ul');
  }

  dismiss() {
    this.closed = true;
    this.box.hidden = true;
    rememberDismissed(dismissedKey);
  }

  // After each draw of a model other than the shipped one: family (familyOf),
  // worker (answers headScores() on the last run, or refuses), place (the
  // element to follow: the family sentence, or the facts when there is none).
  async update({ family, worker, place }) {
    if (this.closed) return this.hide();
    if (this.box.previousElementSibling !== place) place.after(this.box);
    const asked = ++this.asked;
    let scores = null;
    try {
      scores = await worker?.headScores();
    } catch {
      scores = null;  // no scores for this run: the list names no head
    }
    if (asked !== this.asked || this.closed) return;
    const best = (Array.isArray(scores) ? scores : []).reduce((b, s) => (Number.isFinite(s?.previous) && (!b || s.previous > b.previous) ? s : b), null);
    const lines = tryLines(family);
    if (best) lines.splice(1, 0, `Look at layer ${best.layer}, head ${best.head} first: of all the heads, it looks most at the token just before (${best.previous.toFixed(2)} of each token’s attention, on this text).`);
    this.list.textContent = '';
    for (const text of lines) element(this.list, 'li', { textContent: text });
    lensLine(this.list, this.onLenses);
    this.box.dataset.head = best ? `${best.layer}.${best.head}` : '';
    this.box.hidden = false;
  }

  hide() {
    ++this.asked;
    this.box.hidden = true;
  }
}
