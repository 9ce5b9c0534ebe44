// BERT's fill-in (models-v2.md section 3): the masked-LM head's ten likeliest
// tokens for one position, the core's numbers (the run's guesses at every
// position: the softmax of the head's logits there, as the model trace's
// `last` holds them for its position), drawn as the next-token bars are. By
// default the position is the first [MASK]; a token pointed at shows its
// own. Without a [MASK] one line says how to write one (typed ids: which
// number is [MASK], ids-start.js), and no bars show
// until a token is pointed at. A BERT without its head guesses nothing
// (family.js says so, and hides the bars).
import { tokenText } from '../views/format.js';
import { labelsOf } from './tokens.js';

const ordinals = ['first', 'second', 'third', 'fourth', 'fifth'];

// shown: what the Model view shows, read only: {result, family, tokenizer, labels}.

// The [MASK]s' positions in the tokens shown.
export function maskPositions({ family, result }) {
  const { maskId } = family;
  if (maskId === null || !result) return [];
  return result.tokens.flatMap((id, n) => (id === maskId ? [n] : []));
}

// The position an encoder's views light when no token is in focus: its first [MASK] (null: none).
export function restingPosition(shown) {
  return shown.family.mode === 'fill' ? maskPositions(shown)[0] ?? null : null;
}

// How to hide a word: with words, write the family's mask token ([MASK]); with typed ids, its id.
const typed = (shown) => shown.tokenizer?.typed === true;
const hideHow = (shown) => (typed(shown) ? `type ${shown.family.maskId}, ${shown.family.mask}’s id,` : `write ${shown.family.mask}`);
const example = (shown) => (typed(shown) ? `“${maskedIds(shown).join(', ')}”.` : `“${shown.family.starter}”`);
const capital = (text) => text[0].toUpperCase() + text.slice(1);

// The ids shown with their middle one hidden (the example of a hint).
function maskedIds({ result, family }) {
  const ids = [...(result?.tokens ?? [])].slice(0, 6);
  if (ids.length === 0) return [family.maskId];
  ids[Math.floor(ids.length / 2)] = family.maskId;
  return ids;
}

// The guesses for position t (null: the first [MASK]) in next (the bars,
// views/next-tokens.js). → the position whose chip to mark.
export function showFill(next, shown, t) {
  if (shown.family.mode !== 'fill') {
    delete next.box.dataset.position;
    return t;
  }
  const masks = maskPositions(shown);
  const at = t ?? masks[0] ?? null;
  if (at === null) {
    next.show([], `Fill in ${shown.family.mask}`, shown.family.maskId === null
      ? `This folder names no ${shown.family.mask} id (no tokenizer.json, vocab.txt or tokenizer_config.json), so the page cannot tell which id hides a word: point at a token to see ${shown.family.name}’s guesses for its position.`
      : `No ${shown.family.mask} in the text: ${hideHow(shown)} where ${shown.family.name} should guess a word, as in ${example(shown)} Or point at a token to see ${shown.family.name}’s guesses for its position.`);
    delete next.box.dataset.position;
    next.box.dataset.masked = '0';
    return at;
  }
  const { k, ids, probabilities } = shown.result.top;
  const guesses = [];
  for (let n = 0; n < 10 && n < k; n++) {
    const p = probabilities[at * k + n];
    guesses.push([labelsOf([ids[at * k + n]], shown.tokenizer)[0], p, p, true]);
  }
  const nth = masks.indexOf(at);
  if (nth >= 0) {
    const others = masks.length > 1 ? ` The text has ${masks.length} ${shown.family.mask}s: this is the ${ordinals[nth] ?? `number ${nth + 1}`}; point at another to see its guesses.` : '';
    next.show(guesses, `Fill in ${shown.family.mask} (token ${at})`, `${shown.family.name}’s 10 likeliest tokens for the hidden word, from its masked-LM head, which reads the words on both sides of it.${others}`);
  } else {
    next.show(guesses, `${shown.family.name}’s guesses at token ${at}, ${JSON.stringify(tokenText(shown.labels[at]))}`,
      `This token is not hidden: ${shown.family.name} sees it while it guesses, so this is no test. ${shown.family.maskId === null
        ? `This folder names no ${shown.family.mask} id, so no id hides a word.` : `${capital(hideHow(shown))} in its place to hide it.`}`);
  }
  next.box.dataset.position = String(at);
  next.box.dataset.masked = nth >= 0 ? '1' : '0';
  return at;
}
