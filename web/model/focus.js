// The Model view's token in focus (a chip hovered, focused or tapped, or a
// node of the graph under the pointer) lit in the heads: its row in every
// head and in the large one, its node and edges in the graph. null: none;
// for a BERT filling in, its first [MASK]'s row (what the hidden word
// listens to). The view keeps which token is in focus and shows its
// guesses (next.js); this lights the parts it is handed.
import { restingPosition } from './fill.js';

// parts: {grid, heatmap, graph}; shown: {result, family} (read only); t:
// the token in focus; fromGraph: the graph's own focus moved (it is told
// nothing back). → the node the graph should pick ({pool, node}, or null
// for none), or undefined: the graph is as it should be.
export function lightToken({ grid, heatmap, graph }, shown, t, { fromGraph = false } = {}) {
  const lit = t ?? restingPosition(shown);
  grid.markRow(lit);
  heatmap.setHighlightRow(lit);
  // an encoder with no token to light (no [MASK], no head): "One query" on a
  // middle token, whose edges come from both sides (a decoder's last hears the most)
  if (lit === null && !fromGraph && !shown.family.causal) graph.setQuery(Math.floor(shown.result.tokens.length / 2));
  if (fromGraph || (graph.focus?.node ?? null) === lit) return undefined;  // a keystroke's draw paints the graph once
  return lit === null ? null : { pool: 0, node: lit };
}
