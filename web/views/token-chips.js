// The learner's text as the model reads it: one chip per token, each a
// button; hovering or focusing one asks for what the model guesses after it
// (onPosition(t)), leaving asks for the last position again (onPosition(null)).
// A chip's text is set as text, never markup; a byte-level token that is part
// of a UTF-8 character comes here already written as its bytes (\xF0\x9F).
import { tokenText } from './format.js';

export class TokenChips {
  constructor(parent, { onPosition }) {
    this.list = document.createElement('ol');
    this.list.className = 'token-chips';
    this.list.setAttribute('aria-label', 'Tokens');
    this.onPosition = onPosition;
    this.list.addEventListener('mouseleave', () => onPosition(null));
    this.list.addEventListener('focusout', (event) => {
      if (!this.list.contains(event.relatedTarget)) onPosition(null);
    });
    parent.append(this.list);
  }

  // labels: each token's text; ids: their ids (shown on hover as a title).
  draw(labels, ids) {
    this.list.textContent = '';
    labels.forEach((label, t) => {
      const item = document.createElement('li');
      const chip = document.createElement('button');
      chip.type = 'button';
      chip.className = 'token-chip';
      chip.textContent = tokenText(label);
      chip.title = `token ${t}: id ${ids[t]}`;
      chip.dataset.position = String(t);
      chip.addEventListener('mouseenter', () => this.onPosition(t));
      chip.addEventListener('focus', () => this.onPosition(t));
      item.append(chip);
      this.list.append(item);
    });
  }

  mark(position) {
    for (const chip of this.list.querySelectorAll('.token-chip')) chip.classList.toggle('active', Number(chip.dataset.position) === position);
  }
}
