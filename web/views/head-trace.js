// One head's weights (T × T) on a sequence, shaped as a trace for the Graph
// view: the training view's heads and the Model view's selected head draw
// their communication graph from it. Causal: position t hears 0 … t; an
// encoder's (causal false, BERT) hears every position, so its graph has
// edges both ways, as the playground's encoder scenarios (mask "none") do.
// marked: which tokens the graph marks apart (the Model view's generated
// ones), their labels underlined with dots (marked-label.js).
import { underline } from './marked-label.js';

export function headTrace(id, labels, weights, T, { causal = true, marked = null, unnormalized = false } = {}) {
  const keep = new Uint8Array(T * T).map((_, n) => (!causal || n % T <= Math.floor(n / T) ? 1 : 0));
  return {
    id,
    summary: { batch: 1, query_length: T, context_length: T, cross: false, tokens: [labels], context_tokens: [labels], ...(marked && { marked: [marked], underline }), ...(unnormalized && { unnormalized }) },
    keep: { shape: [T, T], data: keep },
    step: (_, name) => (name === 'weights' ? { shape: [T, T], data: weights } : null),
  };
}
