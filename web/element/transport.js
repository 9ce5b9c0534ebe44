// A trace figure's controls: back, play and forward, the steps, and with
// controls="full" the batch and head selectors. Built once per trace;
// `show` marks the step shown and the player's state on them.
import { make } from './figure.js';
import { tokenText } from '../views/format.js';

const stepLabels = { x: 'x', qkv: 'q, k, v', rotate: 'rotate', scores: 'scores', scaled: 'scaled', masked: 'masked', weights: 'weights', out: 'out' };

// root: the figure's root; s: its settings; summary: the trace's; steps:
// the trace's step names; player: the step player; choose(patch): a batch
// or head picked ({batch} or {head}).
export function buildTransport(root, { s, summary, steps, player, choose }) {
  const controls = make(root, 'div', 'controls');
  const transport = make(controls, 'div', 'transport');
  const button = (text, label, action, className) => {
    const b = make(transport, 'button', className, text);
    b.type = 'button';
    b.setAttribute('aria-label', label);
    b.addEventListener('click', action);
    return b;
  };
  const parts = {
    back: button('◀', 'Step back', () => player.back()),
    play: button('Play', 'Play', () => player.toggle(), 'primary play'),
    forward: button('▶', 'Step forward', () => player.forward()),
  };
  const list = make(controls, 'ol', 'steps');
  list.setAttribute('aria-label', 'Steps');
  parts.steps = steps.map((step, i) => {
    const b = make(make(list, 'li'), 'button', 'step-button', stepLabels[step]);
    b.type = 'button';
    b.addEventListener('click', () => player.go(i));
    return b;
  });
  if (s.controls !== 'full') return parts;
  const selectors = make(controls, 'div', 'selectors');
  const select = (label, count, text, value, onChange) => {
    const wrap = make(selectors, 'label', null, `${label} `);
    const el = make(wrap, 'select');
    for (let i = 0; i < count; i++) el.add(new Option(text(i), String(i)));
    el.value = String(value);
    el.addEventListener('change', () => onChange(Number(el.value)));
  };
  select('Batch', summary.batch, (b) => `${b}: ${summary.tokens[b].slice(0, 4).map(tokenText).join(' ')}`, s.batch, (batch) => choose({ batch }));
  select('Head', summary.heads.length, (h) => `head ${h}`, s.head, (head) => choose({ head }));
  return parts;
}

// The step at `index` of `count` current, Play or Pause as the player is.
export function showTransport(parts, { index, count, playing }) {
  parts.play.textContent = playing ? 'Pause' : 'Play';
  parts.play.setAttribute('aria-label', playing ? 'Pause' : 'Play');
  parts.play.setAttribute('aria-pressed', String(playing));
  parts.back.disabled = index === 0;
  parts.forward.disabled = index === count - 1;
  parts.steps.forEach((b, i) => {
    b.classList.toggle('current', i === index);
    if (i === index) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  });
}
