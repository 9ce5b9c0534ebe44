// Which edges of the communication graph a step shows, and how strongly:
// every pair before the mask, the mask's edges fading at `masked`, the kept
// ones taking their weight as softmax normalizes (timing.js keeps them in
// step with the weights heatmap). The canvas and the SVG export both ask here.
import { softmaxPhase } from './timing.js';

export const open = 0.18;  // an edge's strength before it has a weight
export const maskedFrom = ['masked', 'weights', 'out'];  // the steps from which the mask shows

// What every pair (j → i) of pool p looks like at this step and point:
// calls draw(from, to, strength, removed) with removed = 0 for a live edge,
// else how far the mask's edge has faded (0 < removed ≤ 1).
export function eachEdge(model, p, draw) {
  const { tq, tkv, keep, step, progress } = model;
  const weights = model.pools[p].weights;
  const masking = maskedFrom.includes(step);
  const masked = step === 'masked' ? progress * tq : tq;  // rows the mask has reached
  const normalized = step === 'weights' ? softmaxPhase(progress).normalized : step === 'out' ? 1 : 0;
  for (let i = 0; i < tq; i++)
    for (let j = 0; j < tkv; j++) {
      const n = i * tkv + j;
      if (!keep[n]) {
        // gone after the masked step; at it, fading as its row is masked
        if (step === 'masked') draw(j, i, open, Math.max(0.001, Math.min(1, masked - i)));
        else if (!masking) draw(j, i, open, 0);
        continue;
      }
      const w = weights ? weights[n] : 0;
      draw(j, i, open + (w - open) * normalized, 0);
    }
}
