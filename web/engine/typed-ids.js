// Token ids typed as numbers (tokenizer.js's kind 'ids'), for a model folder
// without tokenizer.json: "3, 1, 4" or "3 1 4" (commas, spaces or both between them; a comma at the
// end is allowed, as one is left while typing). A bad entry is one line naming
// its place and what is wrong with it.
import { ModelError } from './model.js';
import { quoteText } from '../state/state.js';

// text → ids; vocab: V, each id must be in 0..V−1 (unchecked when absent).
export function idsFromText(text, vocab) {
  const entries = String(text).trim().split(/\s*,\s*|\s+/);
  if (entries.length > 1 && entries.at(-1) === '') entries.pop();
  if (entries.length === 1 && entries[0] === '') throw new ModelError('text: this model has no tokenizer.json, so type token ids, like 3, 1, 4');
  return entries.map((entry, i) => {
    const place = `text: entry ${i + 1} of ${entries.length}`;
    if (entry === '') throw new ModelError(`${place} is empty`);
    if (!/^[+-]?\d+$/.test(entry)) throw new ModelError(`${place}, ${quoteText(entry, 12)}, is not a whole number`);
    const id = Number(entry);
    if (id < 0 || (vocab !== undefined && id >= vocab) || !Number.isSafeInteger(id))
      throw new ModelError(`${place}, ${quoteText(entry, 12)}, is outside 0..${vocab === undefined ? `${Number.MAX_SAFE_INTEGER}` : `${vocab - 1} (the model has ${vocab.toLocaleString('en-US')} tokens)`}`);
    return id;
  });
}

// A GPT model file that names no tokenizer reads any whole numbers: "3, 1, 4".
export function idsOf(text) {
  const parts = text.trim().split(/[\s,]+/);
  if (!parts.every((p) => /^\d{1,9}$/.test(p)))
    throw new ModelError(`text: this model has no tokenizer, so type token ids separated by commas, like 3, 1, 4; got ${quoteText(text)}`);
  return parts.map(Number);
}
