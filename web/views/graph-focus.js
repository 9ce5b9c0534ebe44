// The learner's focus on a graph: the node under the pointer or reached
// with the arrow keys (told to onNode, with its weights once the step has
// them), and the edge of a matrix cell under the pointer, lit up.

export function nodeAt(graph, event) {
  if (!graph.L) return null;
  const box = graph.canvas.getBoundingClientRect();
  return graph.L.nodeAt(event.clientX - box.left, event.clientY - box.top);
}

export function pick(graph, target) {
  const same = target && graph.focus && target.pool === graph.focus.pool && target.node === graph.focus.node;
  if (target) graph.focus = target;
  else if (graph.canvas.getRootNode().activeElement !== graph.canvas) graph.focus = null;
  graph.edgeFocus = null;
  if (!same) graph.render();
  const f = graph.focus;
  const pool = f && graph.model.pools[f.pool];
  if (f) graph.figure.dataset.focusNode = `${pool.batch}:${f.node}`;
  else delete graph.figure.dataset.focusNode;
  // the weights are told once the learner has reached them
  const weighted = ['weights', 'out'].includes(graph.model.step);
  graph.onNode(f ? { batch: pool.batch, node: f.node, pool: weighted ? pool : { ...pool, weights: null } } : null);
}

export function onKey(graph, event) {
  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  const move = moves[event.key];
  if (!move || !graph.model) return;
  event.preventDefault();
  event.stopPropagation();
  const at = graph.focus ?? { pool: 0, node: 0 };
  // in the columns the tokens run down, the pools across
  const [dp, dn] = graph.layoutName === 'columns' ? [move[1], move[0]] : move;
  const next = {
    pool: Math.max(0, Math.min(graph.model.pools.length - 1, at.pool + dp)),
    node: Math.max(0, Math.min(graph.model.tq - 1, at.node + dn)),
  };
  if (graph.mode() === 'one') graph.query = next.node;  // the keys pick the query too
  graph.pick(next);
}

// A matrix cell (row i, column j) of batch element b: light up edge j → i.
export function highlightEdge(graph, batch, to, from) {
  if (!graph.model) return;
  const p = graph.model.pools.findIndex((pool) => pool.batch === batch);
  graph.edgeFocus = p >= 0 && to !== null ? { pool: p, to, from } : null;
  if (graph.edgeFocus) graph.figure.dataset.focusEdge = `${from}→${to}`;
  else delete graph.figure.dataset.focusEdge;
  if (!graph.edgeFocus) graph.focus = graph.canvas.getRootNode().activeElement === graph.canvas ? graph.focus : null;
  graph.render();
}
