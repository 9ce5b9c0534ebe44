// What the communication graph draws, as data: the pools shown, each with
// its tokens, weights and out for one head, the mask and its sides, and at
// scores, scaled and masked the numbers before softmax that colour the edges.
// Pure: the SVG figures of `make dist` build it in Node too.

import { tokenText } from './format.js';

// the steps whose edges take the colour of their score before softmax
export const scoredSteps = ['scores', 'scaled', 'masked'];

// `pools` batch elements from `first`, each with its tokens, weights and
// out for `head`, and the mask's sides.
export function graphModel(trace, { head, step, progress = 1, batch = 0 }, first, pools) {
  const s = trace.summary;
  return {
    cross: s.cross,
    unnormalized: Boolean(s.unnormalized),  // given weights whose rows do not all sum to 1
    step,
    progress,
    current: batch,
    batches: s.batch,
    tq: s.query_length,
    tkv: s.context_length,
    pools: Array.from({ length: pools }, (_, k) => {
      const b = first + k;
      return { batch: b, tokens: s.tokens[b].map(tokenText), context: s.context_tokens[b].map(tokenText), marked: s.marked?.[b], underline: s.underline,
        weights: trace.step(head, 'weights', b).data, out: trace.step(head, 'out', b) };
    }),
    keep: trace.keep.data,
    // which sides of the row have arcs: a causal mask has none from the future
    ...sides(trace.keep),
  };
}

// The title over a pool: "batch element b" where the scenario has more than
// one; one sentence (the Model view, most lessons) has no batch to name.
export function poolTitle(model, pool) {
  return model.batches > 1 ? `batch element ${pool.batch}` : '';
}

// Each pool's numbers before softmax at a scored step (the trace's scores,
// scaled or masked), and their ± bound for the colours; null elsewhere.
export function scoresOf(trace, model, head, step) {
  if (!scoredSteps.includes(step)) return null;
  const values = model.pools.map((pool) => trace.step(head, step, pool.batch)?.data ?? null);
  if (values.some((v) => !v)) return null;
  let bound = 0;
  for (const list of values) for (const v of list) if (Number.isFinite(v)) bound = Math.max(bound, Math.abs(v));
  return { step, values, bound: bound || 1 };
}

function sides({ shape: [tq, tkv], data }) {
  let past = false;
  let future = false;
  for (let i = 0; i < tq; i++)
    for (let j = 0; j < tkv; j++)
      if (data[i * tkv + j]) {
        if (j < i) past = true;
        if (j > i) future = true;
      }
  return { past, future };
}

