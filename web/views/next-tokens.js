// The model's payoff: its ten most probable next tokens as bars, each with
// the token's text (as a label shows it) and its probability, the numbers
// the core gave. `after` says which position they follow.
import { tokenText } from './format.js';

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
  draw(guesses, after) {
    this.title.textContent = `Next token after ${after}`;
    this.list.textContent = '';
    for (const [text, p] of guesses) {
      const item = document.createElement('li');
      const label = Object.assign(document.createElement('span'), { className: 'next-token-text', textContent: tokenText(text) });
      const bar = Object.assign(document.createElement('span'), { className: 'next-token-bar' });
      const fill = Object.assign(document.createElement('span'), { className: 'next-token-fill' });
      fill.style.width = `${(p * 100).toFixed(2)}%`;
      bar.append(fill);
      const value = Object.assign(document.createElement('span'), { className: 'next-token-p', textContent: percent(p) });
      item.append(label, bar, value);
      item.dataset.p = String(p);
      this.list.append(item);
    }
  }
}

export function percent(p) {
  return p < 0.001 ? '<0.1%' : `${(p * 100).toFixed(1)}%`;
}
