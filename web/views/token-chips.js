// The learner's text as the model reads it: one chip per token, each a
// button; hovering, focusing or tapping one asks for what the model guesses after it
// (onPosition(t)), leaving asks for the last position again (onPosition(null)).
// A chip's text is set as text, never markup; a byte-level token that is part
// of a UTF-8 character comes here already written as its bytes (\xF0\x9F).
// A token the model wrote (Generate) is marked apart: class "generated" and
// ", generated" in its name. The chips are one stop for Tab (the one last
// focused, else the first); the arrow keys, Home and End move between them.
import { tokenText } from './format.js';
import { set } from './write.js';
import { create, element } from './dom.js';

export class TokenChips {
  constructor(parent, { onPosition }) {
    this.list = create('ol', { className: 'token-chips', attrs: { 'aria-label': 'Tokens' } });
    this.onPosition = onPosition;
    // The pointer leaving gives the focus back to the chip that holds it (a
    // tap focuses its chip; Chromium's own mousemove after a layout change
    // may then find the pointer elsewhere), and to none when no chip has it.
    this.list.addEventListener('mouseleave', () => onPosition(this.focused()));
    this.list.addEventListener('focusout', (event) => {
      if (!this.list.contains(event.relatedTarget)) onPosition(null);
    });
    this.list.addEventListener('keydown', (event) => this.onKey(event));
    this.stop = 0;  // the chip Tab lands on
    parent.append(this.list);
  }

  // ←/↑ and →/↓ the chip before or after, Home and End the first and last.
  onKey(event) {
    const t = this.focused();
    const n = this.list.children.length;
    if (t === null || n === 0) return;
    const to = { ArrowLeft: t - 1, ArrowUp: t - 1, ArrowRight: t + 1, ArrowDown: t + 1, Home: 0, End: n - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();  // not the page's scroll
    this.focusChip(Math.max(0, Math.min(n - 1, to)));
  }

  focusChip(t) {
    this.setStop(t);
    this.list.children[t].firstChild.focus();
  }

  // Only chip t takes the focus from Tab.
  setStop(t) {
    const items = this.list.children;
    if (items[this.stop]) items[this.stop].firstChild.tabIndex = -1;
    this.stop = t;
    if (items[t]) items[t].firstChild.tabIndex = 0;
  }

  // labels: each token's text; ids: their ids (shown on hover as a title);
  // made: which of them the model wrote (null: none).
  // The chips are kept and changed in place: a keystroke adds or changes a
  // few tokens, and the others stay as they are (no restyle of every chip).
  draw(labels, ids, made = null) {
    const items = this.list.children;
    while (items.length > labels.length) this.list.lastChild.remove();
    while (items.length < labels.length) this.list.append(this.chip(items.length));
    labels.forEach((label, t) => {
      const chip = items[t].firstChild;
      const generated = made?.[t] === true;
      const text = tokenText(label), title = `token ${t}: id ${ids[t]}${generated ? ', generated' : ''}`;
      set(chip, 'textContent', text);
      set(chip, 'title', title);
      if (chip.classList.contains('generated') !== generated) chip.classList.toggle('generated', generated);
      const name = generated ? `${text}, generated` : null;
      if (chip.getAttribute('aria-label') !== name) name === null ? chip.removeAttribute('aria-label') : chip.setAttribute('aria-label', name);
    });
    if (this.stop >= labels.length) this.stop = 0;
    if (items[this.stop]) items[this.stop].firstChild.tabIndex = 0;
  }

  // The chip of position t, in its list item.
  chip(t) {
    const item = create('li');
    // tabIndex -1: draw() gives the list's one stop
    const chip = element(item, 'button', { type: 'button', className: 'token-chip', tabIndex: -1, attrs: { 'data-position': String(t) } });
    chip.addEventListener('mouseenter', () => this.onPosition(t));
    chip.addEventListener('focus', () => {
      if (this.stop !== t) this.setStop(t);
      this.onPosition(t);
    });
    chip.addEventListener('click', () => this.onPosition(t));  // a tap, where focus may not follow
    return item;
  }

  // The position of the chip that has the keyboard's focus, or null.
  focused() {
    const chip = document.activeElement;
    return chip && this.list.contains(chip) && chip.dataset.position !== undefined ? Number(chip.dataset.position) : null;
  }

  mark(position) {
    for (const item of this.list.children) {
      const chip = item.firstChild;
      const on = Number(chip.dataset.position) === position;
      if (chip.classList.contains('active') !== on) chip.classList.toggle('active', on);
    }
  }
}
