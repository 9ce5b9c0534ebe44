// The model's payoff: its ten most probable next tokens as bars, each with
// the token's text (as a label shows it) and its probability, the numbers
// the core gave. The bars are what Generate samples from at the learner's
// temperature; a faint outline beside each is the model's own probability
// (temperature 1), so a learner sees what the temperature did to it. Tokens
// top-k or top-p removed are dimmed (their bar the probability they had
// before the cut), and `cut` says in one sentence what the cut did.
// `after` says which position they follow. An encoder's guesses for a
// position (BERT's fill-in) are the same bars under their own title.
import { tokenText } from './format.js';
import { set } from './write.js';
import { create, element } from './dom.js';

export class NextTokens {
  constructor(parent) {
    this.box = create('section', { className: 'next-tokens' });
    this.title = element(this.box, 'h3', { className: 'next-tokens-title' });  // not small-heading's capitals: the token's case matters
    this.key = element(this.box, 'p', { className: 'next-tokens-key' });
    this.list = element(this.box, 'ol', { className: 'next-token-bars' });
    parent.append(this.box);
  }

  // guesses: [[text, probability, own, kept] …] best first (probability at
  // `temperature`, own at 1, kept false: removed by top-k or top-p); after: a
  // description of the position; cut: what top-k and top-p did ('' when off).
  // The bars are kept and changed in place: each keystroke brings ten new ones.
  // last: `after` is the last token, the one Generate continues from; at any
  // other the bars are what the model guesses there, which Generate never draws.
  draw(guesses, after, temperature = 1, cut = '', last = true) {
    const what = last ? 'What Generate draws from' : 'What the model would draw after this token (Generate continues after the last one)';
    this.show(guesses, `Next token after ${after}`, (temperature === 1
      ? `${what} at temperature 1: the model’s own probabilities.`
      : `${what} at temperature ${temperature}; the outline is the model’s own (temperature 1).`) + (cut ? ` ${cut}` : ''), temperature);
  }

  // The bars under a title and a key line (an encoder's guesses for one
  // position, model/fill.js: at temperature 1, no Generate; [] for none).
  show(guesses, title, key, temperature = 1) {
    set(this.title, 'textContent', title);
    set(this.key, 'textContent', key);
    this.box.dataset.temperature = String(temperature);
    const items = this.list.children;
    while (items.length > guesses.length) this.list.lastChild.remove();
    while (items.length < guesses.length) this.list.append(barItem());
    guesses.forEach(([text, p, own = p, kept = true], n) => {
      const [label, track, value, ownText] = items[n].children;
      set(label, 'textContent', tokenText(text));
      set(track.firstChild.style, 'width', `${(p * 100).toFixed(2)}%`);
      set(track.lastChild.style, 'width', `${(own * 100).toFixed(2)}%`);
      set(value, 'textContent', percent(p));
      set(ownText, 'textContent', `${temperature === 1 ? '' : `, the model’s own ${percent(own)}`}${kept ? '' : ', removed: never drawn'}`);
      set(items[n].dataset, 'p', String(p));
      set(items[n].dataset, 'own', String(own));
      set(items[n].dataset, 'kept', kept ? '1' : '0');
    });
  }
}

// A bar's item: the token's text, the bar with its fill and the own
// probability's outline, the probability (and the own, for screen readers).
function barItem() {
  const item = create('li');
  element(item, 'span', { className: 'next-token-text' });
  const track = element(item, 'span', { className: 'next-token-bar' });
  element(track, 'span', { className: 'next-token-fill' });
  element(track, 'span', { className: 'next-token-own' });
  element(item, 'span', { className: 'next-token-p' });
  element(item, 'span', { className: 'next-token-own-text' });
  return item;
}

export function percent(p) {
  return p < 0.001 ? '<0.1%' : `${(p * 100).toFixed(1)}%`;
}
