// What the communication graph says in words: its caption (which pools are
// shown, and that they never talk) and the key under the picture (how to
// read this step's edges). graph.js draws; these lines follow its state.
import { maskedFrom } from './graph-edges.js';
import { touchScreen } from './touch.js';
import { element } from './dom.js';

// "Communication graph (…)" into `caption`; one sentence (the Model view)
// has no pools to tell apart. s: the trace's shapes; first: the first pool
// shown, pools: how many are.
export function setCaption(caption, s, first, pools) {
  caption.textContent = '';
  element(caption, 'span', {
    className: 'matrix-name',
    text: s.cross ? 'Communication graph: context → queries' : s.batch > 1 ? 'Communication graph' : 'Communication graph: who listens to whom',
  });
  element(caption, 'span', {
    className: 'matrix-shape',
    text: s.batch === 1 ? '' : s.batch > pools
      ? pools === 1 ? ` (batch element ${first} of ${s.batch}; pools never talk)` : ` (batch elements ${first}–${first + pools - 1} of ${s.batch}; pools never talk)`
      : ` (${s.batch} pool${s.batch > 1 ? 's' : ''}, one per batch element; pools never talk)`,
  });
}

// The key for the graph's model (graph-model.js) at its step. columns: the
// "From → to" layout; mode: 'all' edges or 'one' query's.
export function graphKey(model, { columns, mode }) {
  const { cross, step, future } = model;
  const shape = columns
    ? 'Each edge runs from a token on the left to the token on the right that receives it (arrowhead).'
    : cross
    ? 'Each edge runs from a context token (top) down to the query that receives it (arrowhead).'
    : `Each edge runs to the token that receives it (arrowhead), itself included (the loop); edges from the past arc above the tokens${future ? ', edges from the future below' : ''}.`;
  const scored = model.scores ? ' Colour: the score before softmax, blue below 0, red above, as in the matrix.' : '';
  const now = !maskedFrom.includes(step)
    ? scored ? ` Before the mask, every token could hear every other.${scored}` : ' Before the mask, every token could hear every other: no edge has a score yet.'
    : step === 'masked'
    ? ` The mask removes the dashed edges.${scored}`
    : step === 'weights'
    ? model.unnormalized
      ? ' Thicker means more weight; these given rows do not all sum to 1 (the note says which).'
      : ' Thicker means more weight: each token’s incoming weights sum to 1.'
    : ' Each token’s value travels along its edges, scaled by their weight, and they add up in the receiving token as its out.';
  const one = mode === 'one' ? ` One query: the edges into the token picked (${touchScreen() ? 'tap a token' : 'click a token, or arrow keys'}), with their numbers.` : '';
  return shape + now + one;
}
