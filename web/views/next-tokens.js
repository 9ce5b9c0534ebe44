// The model's payoff: its ten most probable next tokens as bars, each with
// the token's text (as a label shows it) and its probability, the numbers
// the core gave. `after` says which position they follow.
import { tokenText } from './format.js';
import { set } from './write.js';

export class NextTokens {
  constructor(parent) {
    this.box = document.createElement('section');
    this.box.className = 'next-tokens';
    this.title = document.createElement('h3');
    this.title.className = 'next-tokens-title';  // not small-heading's capitals: the token's case matters
    this.list = document.createElement('ol');
    this.list.className = 'next-token-bars';
    this.box.append(this.title, this.list);
    parent.append(this.box);
  }

  // guesses: [[text, probability] …] best first; after: a description of the position.
  // The bars are kept and changed in place: each keystroke brings ten new ones.
  draw(guesses, after) {
    const title = `Next token after ${after}`;
    if (this.title.textContent !== title) this.title.textContent = title;
    const items = this.list.children;
    while (items.length > guesses.length) this.list.lastChild.remove();
    while (items.length < guesses.length) this.list.append(barItem());
    guesses.forEach(([text, p], n) => {
      const [label, track, value] = items[n].children;
      set(label, 'textContent', tokenText(text));
      set(track.firstChild.style, 'width', `${(p * 100).toFixed(2)}%`);
      set(value, 'textContent', percent(p));
      set(items[n].dataset, 'p', String(p));
    });
  }
}

// A bar's item: the token's text, the bar and its fill, the probability.
function barItem() {
  const item = document.createElement('li');
  const label = Object.assign(document.createElement('span'), { className: 'next-token-text' });
  const track = Object.assign(document.createElement('span'), { className: 'next-token-bar' });
  track.append(Object.assign(document.createElement('span'), { className: 'next-token-fill' }));
  const value = Object.assign(document.createElement('span'), { className: 'next-token-p' });
  item.append(label, track, value);
  return item;
}

export function percent(p) {
  return p < 0.001 ? '<0.1%' : `${(p * 100).toFixed(1)}%`;
}
