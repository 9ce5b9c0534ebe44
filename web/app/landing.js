// A bare link's first screen (no step= in it): the weights, one query in
// focus (its row lit, the graph showing its incoming edges) and one sentence
// that says where to look, in the scenario's own tokens.
import { tokenText } from '../views/format.js';
import { term } from '../views/terms.js';
import { create } from '../views/dom.js';

// The query in focus: one in the middle that hears more than itself.
// keep: the trace's mask, {shape: [Tq, Tkv], data}.
export function landingQuery(s, keep, batch) {
  const T = s.query_length;
  const row = Math.min(T - 1, Math.max(1, Math.floor((T - 1) / 2)));
  const tokens = s.tokens[batch] ?? [];
  const unnamed = tokens.every((t, i) => t === String(i));
  const name = unnamed ? `position ${row}` : `‘${tokenText(tokens[row])}’`;
  const cols = keep.shape[1];
  const kept = Array.from(keep.data.subarray(row * cols, (row + 1) * cols));
  const heard = s.cross ? 'each word of the context'
    : kept.every(Boolean) ? 'every word, itself included'
    : kept.every((k, j) => Boolean(k) === j <= row) ? 'each word up to itself'
    : 'each word its mask keeps';
  return { row, name, heard };
}

export function showLanding(box, { name, heard }) {
  const key = (text) => create('kbd', { text });
  const keys = create('span', { className: 'key-hint' });  // hidden on a touch screen (views.css)
  keys.append(' ', key('←'), ' shows how they were computed, ', key('Home'), ' goes back to the inputs.');
  box.replaceChildren(`Row ${name} is a `, term('query'), `: how much ${name} listens to ${heard}, its weights summing to 1.`, keys);
}
