// How the training view names tokens: a text task's characters (newline,
// tab and space made visible, nothing passed as markup), the separator of
// reverse and sort as "sep", else the ids themselves.
import { tokenText } from '../views/format.js';

export function labelsOf(tokens, info) {
  if (info.vocab_chars) return tokens.map((t) => tokenText(info.vocab_chars[t] ?? '?'));
  const separator = info.task === 'reverse' || info.task === 'sort' ? info.vocab - 1 : -1;
  return tokens.map((t) => (t === separator ? 'sep' : String(t)));
}

// A probability as the guesses print it: whole percents, "<1%" below one.
export function percent(p) {
  return p < 0.005 ? '<1%' : `${Math.round(p * 100)}%`;
}
