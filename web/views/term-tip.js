// The shown line of a term (terms.js), loaded when a term is first pointed
// at or focused: beside the word, hidden when the pointer or focus leaves
// (not while the pointer moves onto the line), on Escape and on scroll.
import { element } from './dom.js';

// aria-hidden: the term's description already says it
const tip = element(document.body, 'div', { className: 'term-tip', hidden: true, attrs: { 'aria-hidden': 'true' } });

export function show(e) {
  const term = e.target instanceof Element && e.target.closest('[data-term]');
  if (!term) return;
  // the lines the term's description points at (terms.js keeps them in the page)
  tip.textContent = term.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  tip.hidden = false;
  const box = term.getBoundingClientRect();
  tip.style.left = `${Math.max(8, Math.min(box.left, window.innerWidth - tip.offsetWidth - 8))}px`;
  const below = box.bottom + 6;
  tip.style.top = `${below + tip.offsetHeight < window.innerHeight ? below : Math.max(8, box.top - tip.offsetHeight - 6)}px`;
}

function hide(e) {
  const from = e.target instanceof Element && e.target.closest('[data-term]');
  const to = e.relatedTarget instanceof Element ? e.relatedTarget : null;
  if (!from || (to && (to.closest('[data-term]') === from || tip.contains(to)))) return;
  tip.hidden = true;
}

document.addEventListener('mouseover', show);
document.addEventListener('focusin', show);
document.addEventListener('mouseout', hide);
document.addEventListener('focusout', hide);
document.addEventListener('keydown', (e) => { if (e.key === 'Escape') tip.hidden = true; });
window.addEventListener('scroll', () => { tip.hidden = true; }, { passive: true });
tip.addEventListener('mouseleave', () => { tip.hidden = true; });
