// The Model view's token in focus (a chip hovered, focused or tapped, or a
// node of the graph under the pointer): its chip, the guesses after it, its
// row in every head and in the large one, its node and edges in the graph.
// null: none, and the guesses after the last token; for a BERT filling in,
// its first [MASK]'s guesses and row (what the hidden word listens to).
import { restingPosition } from './fill.js';

// fromGraph: the graph's own focus moved (it is told nothing back).
export function focusToken(view, t, { fromGraph = false } = {}) {
  if (!view.result) return;
  view.position = t;
  view.showGuesses(t);
  if (!view.hasHeads()) return;  // a model without blocks: the guesses only
  const lit = t ?? restingPosition(view);
  view.grid.markRow(lit);
  view.heatmap.setHighlightRow(lit);
  // an encoder with no token to light (no [MASK], no head): "One query" on a
  // middle token, whose edges come from both sides (a decoder's last hears the most)
  if (lit === null && !fromGraph && !view.family.causal) view.graph.setQuery(Math.floor(view.result.tokens.length / 2));
  if (fromGraph || (view.graph.focus?.node ?? null) === lit) return;  // a keystroke's draw paints the graph once
  view.picking = true;  // the graph tells its onNode: not back here
  try {
    view.graph.pick(lit === null ? null : { pool: 0, node: lit });
  } finally {
    view.picking = false;
  }
}
