// BERT's fill-in (models-v2.md section 3): the masked-LM head's ten likeliest
// tokens for one position, the core's numbers (the run's guesses at every
// position: the softmax of the head's logits there, as the model trace's
// `last` holds them for its position), drawn as the next-token bars are. By
// default the position is the first [MASK]; a token pointed at shows its
// own. Without a [MASK] one line says how to write one, and no bars show
// until a token is pointed at. A BERT without its head guesses nothing
// (family.js says so, and hides the bars).
import { tokenText } from '../views/format.js';
import { labelsOf } from './tokens.js';

const ordinals = ['first', 'second', 'third', 'fourth', 'fifth'];

// The [MASK]s' positions in the tokens the view shows.
export function maskPositions(view) {
  const { maskId } = view.family;
  if (maskId === null || !view.result) return [];
  return view.result.tokens.flatMap((id, n) => (id === maskId ? [n] : []));
}

// The position an encoder's views light when no token is in focus: its first [MASK] (null: none).
export function restingPosition(view) {
  return view.family.mode === 'fill' ? maskPositions(view)[0] ?? null : null;
}

// The guesses for position t (null: the first [MASK]).
export function showFill(view, t) {
  const next = view.next;
  if (view.family.mode !== 'fill') {
    delete next.box.dataset.position;
    view.chips.mark(t);
    return;
  }
  const masks = maskPositions(view);
  const at = t ?? masks[0] ?? null;
  view.chips.mark(at);
  if (at === null) {
    next.show([], 'Fill in [MASK]', view.family.maskId === null
      ? 'This folder has no tokenizer.json, so the page cannot tell which id is [MASK]: point at a token to see BERT’s guesses for its position.'
      : 'No [MASK] in the text: write [MASK] where BERT should guess a word, as in “the cat sat on the [MASK].” Or point at a token to see BERT’s guesses for its position.');
    delete next.box.dataset.position;
    next.box.dataset.masked = '0';
    return;
  }
  const { k, ids, probabilities } = view.result.top;
  const guesses = [];
  for (let n = 0; n < 10 && n < k; n++) {
    const p = probabilities[at * k + n];
    guesses.push([labelsOf([ids[at * k + n]], view.info, view.tokenizer)[0], p, p, true]);
  }
  const nth = masks.indexOf(at);
  if (nth >= 0) {
    const others = masks.length > 1 ? ` The text has ${masks.length} [MASK]s: this is the ${ordinals[nth] ?? `number ${nth + 1}`}; point at another to see its guesses.` : '';
    next.show(guesses, `Fill in [MASK] (token ${at})`, `BERT’s 10 likeliest tokens for the hidden word, from its masked-LM head, which reads the words on both sides of it.${others}`);
  } else {
    next.show(guesses, `BERT’s guesses at token ${at}, ${JSON.stringify(tokenText(view.labels[at]))}`,
      'This token is not hidden: BERT sees it while it guesses, so this is no test. Write [MASK] in its place to hide it.');
  }
  next.box.dataset.position = String(at);
  next.box.dataset.masked = nth >= 0 ? '1' : '0';
}
