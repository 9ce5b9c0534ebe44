// Where a model's lenses tell a weaker story than the lessons do: no head
// with a clear role (every head's largest score under 0.5), or an MLP, not
// a head, moving the attributed logit most. Read from the JSON the core
// answered, comparing its numbers only; any model, whatever its name. The
// sentence points to the induction model, trained in the lesson "What
// attention learns" ("Induction heads" in the navigation), whose heads
// have crisp roles.
import { partLabel } from './attribution.js';
import { element, signed } from './dom.js';
import { clearFrom } from '../views/head-role.js';
import { bestRole, roles } from './scores.js';

// The induction lesson's step where the learner trains it (web/state/state.js's keys).
export const inductionLink = '#lesson=learn&preset=induction';

const isHead = (name) => /^\d+\.\d+$/.test(name);
const roleName = (key) => roles.find(([k]) => k === key)[1];

// What makes this lens's answer a weaker story, as the first half of the
// sentence; null when it tells the story well (or says nothing of heads).
// what: the lens's id; json: the core's answer.
export function weakStory(what, json) {
  if (what === 'scores') {
    let top = null;  // the head with the largest best-match score
    for (const head of json?.heads ?? []) {
      const best = bestRole(head);
      if (best !== null && (top === null || head[best] > top.head[top.best])) top = { head, best };
    }
    if (!top || top.head[top.best] >= clearFrom) return null;
    const { head, best } = top;
    return `No head scores ${clearFrom} or more on any role here (the highest: head ${head.layer}.${head.head}, ${roleName(best)} ${head[best].toFixed(2)}), so no head has a clear job on this text`;
  }
  if (what === 'attribution') {
    const parts = json?.parts ?? [];
    if (!parts.length) return null;
    const largest = parts.reduce((a, b) => (Math.abs(b.value) > Math.abs(a.value) ? b : a));
    if (!/^\d+\.mlp$/.test(largest.name)) return null;
    const heads = parts.filter(({ name }) => isHead(name));
    const head = heads.length ? heads.reduce((a, b) => (Math.abs(b.value) > Math.abs(a.value) ? b : a)) : null;
    return `The ${partLabel(largest.name)} moves this logit most (${signed(largest.value)}${head ? `, against ${signed(head.value)} from head ${head.name}, the head that moves it most` : ''}), so attention is a small part of this answer`;
  }
  return null;
}

// The sentence into p (emptied first), with its link; hidden when the story holds.
export function sayStory(p, what, json) {
  const finding = json ? weakStory(what, json) : null;
  p.textContent = '';
  p.hidden = !finding;
  if (!finding) return;
  p.append(`${finding}; the clearer example is `);
  element(p, 'a', { href: inductionLink, className: 'lens-story-link', text: 'the induction model you train in the “Induction heads” lesson' });
  p.append(', whose heads each do one clear job.');
}
