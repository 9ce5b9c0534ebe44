// The page's one tokenizer interface: whatever reads a model's text, the
// Model view asks it the same things and never which kind it is.
//   kind        'characters' (the core's vocabulary, read by the model's
//               worker), 'gpt2' (GPT-2's BPE), 'hf' (a folder's
//               tokenizer.json, hf-tokenizer.js) or 'ids' (typed as numbers,
//               typed-ids.js): for what a line says of the model
//   typed       the learner types token ids ("3, 1, 4"), not words
//   characters  each token is one character of the text
//   contextual  a token's text depends on the tokens before it
//   encode(text) → a promise of the ids; a ModelError of one line when the
//               text cannot be read
//   decode(ids, before = []) → a promise of the text the ids add after the ids `before`
//   piece(ids)  → their text on their own, without the worker, or null
//               (a tokenizer.json's depends on the tokens before)
//   label(id)   → how a view names the token
// An id a tokenizer has no text for is <id>; typed ids name the [CLS],
// [SEP] and [MASK] of a BERT folder (its [MASK] shows where a word is hidden).
import { ModelError } from './model.js';
import { idsFromText, idsOf } from './typed-ids.js';

// info: the model's info (info.tokenizer names the kind); worker: the
// model's worker (a character model's text is the core's to read);
// library: the kind's own tokenizer: gpt-tokenizer's ({encode(text, vocab),
// decode, label}: web/model/tokens.js) or hf-tokenizer.js's.
export function tokenizerFor(info, { worker = null, library = null } = {}) {
  if (info.tokenizer === 'gpt2' && library) return gpt2Kind(library, info.config?.vocab);
  if (info.tokenizer === 'hf' && library) return hfKind(library);
  if (info.tokenizer === 'ids') return idsKind(info);
  return charactersKind(info, worker);
}

const base = { typed: false, characters: false, contextual: false };

function charactersKind(info, worker) {
  const vocabulary = Array.isArray(info.vocabulary) ? info.vocabulary : null;
  const label = vocabulary ? (id) => vocabulary[id] ?? `<${id}>` : specialLabel(info);
  return {
    ...base,
    kind: 'characters',
    characters: true,
    encode: async (text) => worker.encode(text),
    decode: async (ids) => worker.decode(ids),
    piece: (ids) => (vocabulary && ids.every((id) => typeof vocabulary[id] === 'string') ? ids.map((id) => vocabulary[id]).join('') : null),
    label,
  };
}

function gpt2Kind(library, vocab) {
  return {
    ...base,
    kind: 'gpt2',
    encode: async (text) => library.encode(text, vocab),
    decode: async (ids) => library.decode(ids),
    piece: (ids) => library.decode(ids),
    label: (id) => library.label(id),
  };
}

// A tokenizer.json whose vocabulary has none of the text (no unk_token)
// gives no ids: said so here.
function hfKind(library) {
  return {
    ...base,
    kind: 'hf',
    contextual: true,
    async encode(text) {
      const { ids } = library.encode(text);
      if (ids.length === 0) throw new ModelError('text: the folder\'s tokenizer.json has no token for any of it');
      return ids;
    },
    decode: async (ids, before = []) => library.continuation(before, ids),
    piece: () => null,
    label: (id) => library.label(id),
  };
}

// A folder without tokenizer.json reads ids checked against its vocabulary;
// a GPT model file that names no tokenizer, any whole numbers.
function idsKind(info) {
  const written = (ids) => ids.map((id) => `, ${id}`).join('');
  return {
    ...base,
    kind: 'ids',
    typed: true,
    encode: async (text) => (info.trace === 'folder' ? idsFromText(text, info.config.vocab) : idsOf(text)),
    decode: async (ids) => written(ids),
    piece: written,
    label: specialLabel(info),
  };
}

function specialLabel(info) {
  const special = new Map([[info.clsId, '[CLS]'], [info.sepId, '[SEP]'], [info.maskId, '[MASK]']].filter(([id]) => Number.isSafeInteger(id)));
  return (id) => special.get(id) ?? `<${id}>`;
}
