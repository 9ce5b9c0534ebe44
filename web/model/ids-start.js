// A model that reads token ids typed as numbers (a folder without
// tokenizer.json, a file that names no tokenizer): what it opens on. Words
// carried over from the last model are no ids, so the text becomes a starter
// of ids valid for this model (below its vocabulary, within its context), and
// a note under the field's label says why ids and how to type them. A
// masked LM's folder (its mask token among the model's facts: BERT,
// DistilBERT) may still name that token's id (and [CLS]'s, [SEP]'s) in its
// other files: config.json's mask_token_id, tokenizer_config.json's
// added_tokens_decoder, or vocab.txt, one token a line; the starter then
// hides a word behind it, and the note says which number hides one.
import { ModelError } from '../engine/model-client.js';
import { idsFromText } from '../engine/typed-ids.js';
import { create } from '../views/dom.js';

const limits = { tokenizerConfig: 1 << 20, vocab: 4 << 20 };

// The special tokens' ids a masked LM's folder without tokenizer.json
// names, read through folder-source.js's place: {mask, cls, sep} (each an
// id or null), and problem: one line on a file that could not be read (''
// when none). maskToken: the model's mask token ('' for a model that
// fills in nothing: nothing is read).
export async function specialIds(folder, place, maskToken) {
  const found = { mask: null, cls: null, sep: null, problem: '' };
  if (!maskToken || (folder.tokenizerText !== null && folder.tokenizerText !== undefined)) return found;
  const names = { mask: maskToken, cls: '[CLS]', sep: '[SEP]' };
  const vocab = folder.config.vocab_size;
  const take = (key, id, where) => {
    if (found[key] !== null || !Number.isSafeInteger(id) || id < 0) return;
    if (Number.isSafeInteger(vocab) && id >= vocab) found.problem ||= `${where}: ${names[key]} is ${id}, past the model's ${vocab} tokens`;
    else found[key] = id;
  };
  take('mask', folder.config.mask_token_id, 'config.json');
  take('cls', folder.config.cls_token_id, 'config.json');
  take('sep', folder.config.sep_token_id, 'config.json');
  const read = async (name, limit) => {
    try {
      return await place.text(name, limit);
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      found.problem ||= error.message;
      return null;
    }
  };
  const configText = await read('tokenizer_config.json', limits.tokenizerConfig);
  if (configText !== null) {
    let added = null;
    try {
      added = JSON.parse(configText)?.added_tokens_decoder;
    } catch {
      found.problem ||= 'tokenizer_config.json: not valid JSON';
    }
    for (const [id, token] of Object.entries(added && typeof added === 'object' ? added : {}))
      for (const key of Object.keys(names)) if (token?.content === names[key] && /^\d{1,9}$/.test(id)) take(key, Number(id), 'tokenizer_config.json');
  }
  if (found.mask === null || found.cls === null || found.sep === null) {
    const vocabText = await read('vocab.txt', limits.vocab);
    const lines = vocabText === null ? [] : vocabText.split(/\r?\n/);
    for (const key of Object.keys(names)) {
      const line = lines.indexOf(names[key]);
      if (line >= 0) take(key, line, 'vocab.txt');
    }
  }
  return found;
}

// Ids valid for the model: four spread over the vocabulary, then the same
// four again (a trained model's previous-token and induction heads show on
// the repeat); a BERT whose [MASK] is known gets one sentence with a word
// hidden, between [CLS] and [SEP] where known. At most `length` of them.
export function starterIds({ vocab, length }, special = {}) {
  const taken = new Set([special.mask, special.cls, special.sep].filter((id) => id !== null && id !== undefined));
  const spread = [];
  for (let k = 1; spread.length < 4 && k <= 4 * vocab + 4; k++) {
    const id = Math.floor((vocab * k) / 5) % vocab;
    if (!taken.has(id) && !spread.includes(id)) spread.push(id);
  }
  while (spread.length < 4) spread.push(spread[0] ?? 0);  // a vocabulary of a few tokens
  const mask = special.mask ?? null;
  const ids = mask === null ? [...spread, ...spread]
    : [special.cls, spread[0], spread[1], mask, spread[2], special.sep].filter((id) => id !== null && id !== undefined);
  const kept = ids.slice(0, Math.max(1, length));
  if (mask !== null && !kept.includes(mask)) kept[kept.length - 1] = mask;
  return kept;
}

// The text's ids as typed ("3, 1, 4").
export const idsText = (ids) => ids.join(', ');

// Whether the text is ids this model reads.
function readable(text, vocab) {
  try {
    idsFromText(text, vocab);
    return true;
  } catch (error) {
    if (error instanceof ModelError) return false;
    throw error;
  }
}

// The one line under the field's label: why ids, and how to type them.
export function idsNote(info, { folder, maskId }) {
  const { vocab, length } = info.config;
  const why = folder ? 'No tokenizer.json in this folder' : 'This model file names no tokenizer';
  const mask = maskId === null || maskId === undefined ? '' : ` ${maskId} is ${info.maskToken}: type it where ${info.familyName} should guess a word.`;
  return `${why}, so the model reads token ids, not words: type whole numbers from 0 to ${vocab - 1}, separated by commas or spaces (it reads ${length} at most).${mask}`;
}

// The line under the field's label that says why ids, made the first time
// a model opens: after `label`, and describing `input`. → the line.
export function idsNoteLine(label, input) {
  const note = create('p', { className: 'note model-ids-note', id: `${input.id}-ids` });
  label.after(note);
  input.setAttribute('aria-describedby', `${note.id} ${input.getAttribute('aria-describedby') ?? ''}`.trim());
  return note;
}

// As a model opens, before the family adapts the view (family.js): a model
// that reads ids (typed) gets the starter in place of words, and the note;
// any other model gets the default text back in place of the last starter.
// info, family: the model's; text: the text now; starter: the last starter
// shown. → {ids: it reads ids, note: the line ('' none), text: the text to
// show, starter: the starter to recognise from now}.
export function startText({ info, family, typed, text, starter, folder, defaultText }) {
  if (!typed) return { ids: false, note: '', text: text === starter ? defaultText : text, starter };
  const maskId = family.mode === 'fill' ? family.maskId : null;
  const note = `${idsNote(info, { folder: !!folder, maskId })}${info.specialProblem ? ` (${info.specialProblem})` : ''}`;
  if (readable(text, info.config.vocab)) return { ids: true, note, text, starter };  // ids the learner or a link gave: kept
  const fresh = idsText(starterIds(info.config, { mask: maskId, cls: info.clsId, sep: info.sepId }));
  return { ids: true, note, text: fresh, starter: fresh };
}
