// The lines about the step shown: the facts of the scenario they are
// written from (notebooks.js's stepText functions read them), and the prompt under
// the player that says what to do next.
import { create } from '../views/dom.js';

// What the step lines say about this scenario: its sizes, self or cross, and
// how it made x (randn, an embedding of a sentence, the notebook's numbers).
// s: the trace's summary; head: the head shown; scenario: the scenario
// computed (its x tensor's entry), or null.
export function stepFacts(s, { head: h, scenario }) {
  const head = s.heads[h] ?? s.heads[0];
  const x = s.tensors.find((t) => t.name === s.x);
  return {
    cross: s.cross,
    batch: s.batch,
    Tq: s.query_length,
    Tkv: s.context_length,
    headSize: head.steps.q ? head.steps.q[1] : null,
    rotary: s.rotary,  // {theta, offset} or null
    mask: s.mask,      // 'causal', 'none' or 'custom'
    x: { entry: scenario?.tensors?.find((t) => t.name === s.x), shape: x?.shape ?? [] },
  };
}

// One line that says what to do next: the first action on the first step,
// where the learner is in the middle, what to look at on the last.
export function showPrompt(box, index, count) {
  const key = (text) => create('kbd', { text });
  // the keys in a span a touch screen hides (views.css), with what a tap does instead
  const hint = (className, ...parts) => {
    const span = create('span', { className });
    span.append(...parts);
    return span;
  };
  const parts = index === 0
    ? [hint('key-hint', 'Press ', key('→'), ' to step, ', key('Space'), ' to play.'), hint('touch-hint', 'Tap a step, or Play.')]
    : index < count - 1
    ? [`Step ${index + 1} of ${count}`, hint('key-hint', ': ', key('→'), ' next, ', key('←'), ' back.')]
    : ['The layer’s output.', hint('key-hint', ' ', key('Home'), ' starts again.')];
  box.replaceChildren(...parts);
}
