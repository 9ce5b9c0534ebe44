// One clock for every view of a step: how far its animation has got, in
// rows and cells, so the matrices, their highlights and the graph move
// together. progress runs 0 … 1 through a step (state/player.js).

// Rows of a matrix revealed row by row (q, k, v, masked, out).
export function rowsShown(progress, rows) {
  return Math.round(progress * rows);
}

// Cells revealed one by one (scores).
export function cellsShown(progress, cells) {
  return Math.round(progress * cells);
}

// softmax in two moves: in the first half each row's exponentials
// exp(masked − row max) appear, row by row; in the second half they are
// divided by their row's sum, and every row comes to sum to 1.
export function softmaxPhase(progress) {
  return { exps: Math.min(1, progress * 2), normalized: Math.max(0, progress * 2 - 1) };
}

// The out row being built: its messages travel in the first half of the
// row's time and land as the row appears (rowsShown passes it).
export function buildingRow(progress, rows) {
  const at = progress * rows;
  const row = Math.floor(at);
  return { row, travel: Math.min(1, (at - row) * 2) };
}

// The cell or row a step is working on at this point, for the highlights;
// at the end of a step (and under reduced motion) the last one, so a still
// picture shows the same relations the animation did.
export function activeOf(step, progress, rows, cols) {
  const last = (n) => Math.max(0, n - 1);
  switch (step) {
    case 'scores': {
      const cell = Math.min(last(rows * cols), Math.max(0, cellsShown(progress, rows * cols) - 1));
      return { row: Math.floor(cell / cols), col: cell % cols };
    }
    case 'masked':
    case 'out':
      return { row: Math.min(last(rows), Math.floor(progress * rows)) };
    case 'weights': {
      const { exps, normalized } = softmaxPhase(progress);
      return { row: normalized > 0 ? last(rows) : Math.min(last(rows), Math.floor(exps * rows)), normalizing: normalized > 0 };
    }
    default:
      return null;
  }
}
