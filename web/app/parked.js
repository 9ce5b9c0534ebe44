// The run "Inspect what you trained" left: the training view, or the lesson
// hosting one, parked while the Model view shows its model (its nodes
// detached, its worker alive), under the link it was at. That link drawn
// again (Back, its tab) takes it back as it was; any view but the Model view
// ends it, so at most one run is kept. Loaded with the first Inspect.
import { toHash } from '../state/state.js';
import { beforeRender } from './router.js';

let parked = null;  // { link, nodes, run }

// state: the view's when the learner left it; body: the element it leaves;
// run: what the view keeps of it, with dispose() to end it (its worker).
export function park(state, body, run) {
  parked?.run.dispose();
  parked = { link: toHash(state), nodes: [...body.childNodes], run };
  body.replaceChildren();
}

// state's own parked run, its nodes put back into body (the caller disposes it from then on); else null.
export function unpark(state, body) {
  if (parked?.link !== toHash(state)) return null;
  const { nodes, run } = parked;
  parked = null;
  body.replaceChildren(...nodes);
  return run;
}

// Before a view is drawn: kept for the Model view and for its own link, ended for any other.
beforeRender((state) => {
  if (!parked || state.model || parked.link === toHash(state)) return;
  parked.run.dispose();
  parked = null;
});
