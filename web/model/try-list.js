// "Start here" for a model the learner opened (a Hugging Face folder, a
// file, a link to another model): the shipped model has its own box
// (start-here.js); any other model gets a quieter one under the family
// sentence, from the moment it opens (even before it can read the text):
// which model it is and what it reads (typed ids, when it has no
// tokenizer), then two or three lines on what to try first and, when the
// core scores the last run's heads, which head to look at. Only on the
// page, never in an author's figure (the view makes it only where it makes
// "Start here").
import { defaultModel } from './defaults.js';
import { create, element } from '../views/dom.js';
import { dismissed, rememberDismissed } from './dismissal.js';
import { lensLine } from './start-here.js';

const dismissedKey = 'attention-playground:model-try';


const headLine = 'Click a head to see it large; open it in the playground to replay it step by step.';

// The lines for a family (family.js's familyOf): an encoder with its
// masked-LM head fills in [MASK] (typed ids: [MASK]'s id, where the folder
// names it); a decoder guesses the next token. ids: the model reads typed ids.
export function tryLines({ mode, maskId, mask, name }, ids = false) {
  if (mode === 'fill' && ids) return [maskId === null
    ? `Point at a token: the bars show what ${name} would put in its place (the folder does not say which id is ${mask}).`
    : `Move ${maskId}, ${mask}’s id, to another place in the ids: the bars show what ${name} would put there.`, headLine];
  if (mode === 'fill') return [`Move ${mask} to another word: the bars show what ${name} would put there.`, headLine];
  if (mode === 'none') return [headLine];
  return ['Point at a token: every head lights its row, the bars show what the model guesses next.', headLine];
}

// What each kind of tokenizer (engine/tokenizer.js) reads, for whatLine.
const reading = { hf: 'your text through its folder’s tokenizer.json', gpt2: 'your text through GPT-2’s tokenizer', characters: 'your text, a character a token' };

// Which model this is and what it reads, in a sentence (tokenizer: the model's).
export function whatLine({ label, tokenizer, family, folder }) {
  const name = family.family === 'gpt2' ? 'GPT' : family.name;
  const kind = family.mode === 'fill' ? `encoder that guesses words hidden behind ${family.mask}`
    : family.mode === 'none' ? 'encoder saved without its head that guesses words: the page shows its attention only'
      : 'that guesses the next token';
  const reads = tokenizer.typed ? `token ids you type, as ${folder ? 'its folder has no tokenizer.json' : 'its file names no tokenizer'}`
    : reading[tokenizer.kind] ?? reading.characters;
  return `This is ${label}, a ${name} ${kind}. It reads ${reads}.`;
}

export class TryList {
  // after: the element the list follows (the family sentence's place); onLenses(): opens the lenses
  constructor(after, onLenses) {
    this.onLenses = onLenses;
    this.closed = dismissed(dismissedKey);
    this.lines = [];
    this.box = create('div', { className: 'model-try', hidden: true, attrs: { 'aria-label': 'Start here' } });
    after.after(this.box);
    const top = element(this.box, 'p', { className: 'model-try-title' });
    element(top, 'strong', { textContent: 'Start here' });
    const close = element(top, 'button', { type: 'button', className: 'model-try-close', textContent: 'Dismiss' });
    close.setAttribute('aria-label', 'Dismiss “Start here”');
    close.addEventListener('click', () => this.dismiss());
    this.what = element(this.box, 'p', { className: 'model-try-what' });
    this.list = element(this.box, 'ul');
  }

  dismiss() {
    this.closed = true;
    this.box.hidden = true;
    rememberDismissed(dismissedKey);
  }

  // A model has opened (opening.js): model (the link's id, null for a file),
  // label, tokenizer (engine/tokenizer.js's), family (familyOf), folder (whether it came
  // as a folder), place (the element to follow). The shipped model's box is
  // start-here.js's; any other model's is this, drawn now, before any run.
  opened({ model, label, tokenizer, family, folder, place }) {
    if (model === defaultModel) return this.hide();
    this.what.textContent = whatLine({ label, tokenizer, family, folder });
    this.lines = tryLines(family, tokenizer.typed);
    this.draw(null, place);
  }

  // After each draw of a model other than the shipped one: family (familyOf),
  // scores (the run's head scores, which came with it), place (the element
  // to follow: the family sentence, or the facts when there is none).
  update({ scores, place }) {
    const best = (Array.isArray(scores) ? scores : []).reduce((b, s) => (Number.isFinite(s?.previous) && (!b || s.previous > b.previous) ? s : b), null);
    this.draw(best, place);
  }

  // The lines, with the head to look at first (best: its scores, or null).
  draw(best, place) {
    if (this.closed) return this.hide();
    if (this.box.previousElementSibling !== place) place.after(this.box);
    const lines = [...this.lines];
    if (best) lines.splice(1, 0, `Look at layer ${best.layer}, head ${best.head} first: of all the heads, it looks most at the token just before (${best.previous.toFixed(2)} of each token’s attention, on this text).`);
    this.list.textContent = '';
    for (const text of lines) element(this.list, 'li', { textContent: text });
    lensLine(this.list, this.onLenses);
    this.box.dataset.head = best ? `${best.layer}.${best.head}` : '';
    this.box.hidden = false;
  }

  hide() {
    this.box.hidden = true;
  }
}
