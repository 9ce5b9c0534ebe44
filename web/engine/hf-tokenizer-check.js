// tokenizer.json's shape, checked before the tokenizer library sees it: the
// library trusts its input (a missing field is a TypeError deep inside it,
// an unknown type an error that repeats the file's text), so each problem
// here is one line naming tokenizer.json and the field, with any of the
// file's text quoted and cut short. Also reads what the labels need: whether
// pieces are byte-level, which characters stand for a space (Metaspace's ▁),
// whether <0xNN> pieces are bytes.
import { ModelError } from './model.js';
import { quoteText } from '../state/state.js';

// A tokenizer.json is a few MB (Llama 3's 9 MB, Qwen2's 7 MB, BERT's 0.7 MB).
export const tokenizerLimit = 32 << 20;

// Ids above this are refused: the largest vocabularies are ~256 K tokens.
const maxId = (1 << 24) - 1;

// The component types @huggingface/tokenizers 0.2.0 builds (its create_*
// functions), and the fields a Sequence lists its parts in.
const types = {
  normalizer: ['BertNormalizer', 'Precompiled', 'Sequence', 'Replace', 'NFC', 'NFD', 'NFKC', 'NFKD', 'Strip', 'StripAccents', 'Lowercase', 'Prepend'],
  pre_tokenizer: ['BertPreTokenizer', 'Sequence', 'Whitespace', 'WhitespaceSplit', 'Metaspace', 'ByteLevel', 'Split', 'Punctuation', 'Digits', 'Replace', 'FixedLength'],
  post_processor: ['TemplateProcessing', 'ByteLevel', 'BertProcessing', 'RobertaProcessing', 'Sequence'],
  decoder: ['ByteLevel', 'WordPiece', 'Metaspace', 'BPEDecoder', 'CTC', 'Sequence', 'Replace', 'Fuse', 'Strip', 'ByteFallback'],
};
const parts = { normalizer: 'normalizers', pre_tokenizer: 'pretokenizers', post_processor: 'processors', decoder: 'decoders' };

const fail = (problem) => new ModelError(`tokenizer.json: ${problem}`);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isId = (v) => Number.isInteger(v) && v >= 0 && v <= maxId;

// tokenizer.json's text → {json (with absent components as null), kind,
// vocab, special, byteLevel, metaspace, byteFallback}, or a ModelError.
export function checkTokenizerJson(text) {
  if (typeof text !== 'string') throw fail('not text');
  if (text.length > tokenizerLimit) throw fail(`${text.length.toLocaleString('en-US')} characters is over the page's limit of ${tokenizerLimit.toLocaleString('en-US')} (32 MiB)`);
  let json;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // the engine's message may quote the text: keep only where it stopped
    const at = /position (\d+)/.exec(String(error?.message))?.[1];
    throw fail(at === undefined ? 'not valid JSON' : `not valid JSON (at character ${at})`);
  }
  if (!isObject(json)) throw fail('not a tokenizer (its top level is not an object)');
  const model = json.model;
  if (!isObject(model)) throw fail('model is missing or not an object');
  if (model.type === undefined) throw fail('model.type is missing');
  if (model.type !== 'BPE' && model.type !== 'WordPiece')
    throw fail(`model.type ${quoteText(String(model.type))} is not one the page reads (BPE or WordPiece)`);

  // model.vocab: token → id
  if (!isObject(model.vocab)) throw fail('model.vocab is missing or not an object of token → id');
  let largest = -1;
  for (const [token, id] of Object.entries(model.vocab)) {
    if (!isId(id)) throw fail(`model.vocab: the id of ${quoteText(token)} is not a whole number from 0 to ${maxId.toLocaleString('en-US')}`);
    largest = Math.max(largest, id);
  }
  if (largest < 0) throw fail('model.vocab is empty');
  if (model.type === 'BPE') checkMerges(model);
  else if (typeof model.unk_token !== 'string' || !Object.hasOwn(model.vocab, model.unk_token))
    throw fail('model.unk_token is missing or not in model.vocab (WordPiece needs it for words it cannot split)');

  // added_tokens: [{id, content, special, …}]
  const added = json.added_tokens ?? [];
  if (!Array.isArray(added)) throw fail('added_tokens is not a list');
  added.forEach((t, i) => {
    if (!isObject(t) || !isId(t.id) || typeof t.content !== 'string' || t.content === '')
      throw fail(`added_tokens[${i}] is not a token with a whole-number id up to ${maxId.toLocaleString('en-US')} and a non-empty content`);
    largest = Math.max(largest, t.id);
  });

  const components = {};
  for (const name of Object.keys(types)) components[name] = checkComponent(json[name] ?? null, name, name, 0);
  checkTemplate(components.post_processor, model.vocab, added);

  const all = Object.values(components).flatMap((c) => flatten(c));
  const byteLevel = all.some((c) => c.type === 'ByteLevel');
  // what stands for a space: Metaspace's replacement, or a Replace of " " (Llama 2's normalizer, decoder)
  const metaspace = [...new Set(all.flatMap((c) => {
    if (c.type === 'Metaspace') return [typeof c.replacement === 'string' && c.replacement ? c.replacement : '\u2581'];
    if (c.type === 'Replace' && typeof c.pattern?.String === 'string' && c.pattern.String && c.content === ' ') return [c.pattern.String];
    if (c.type === 'Replace' && c.pattern?.String === ' ' && typeof c.content === 'string' && c.content) return [c.content];
    return [];
  }))];
  const kind = model.type === 'WordPiece' ? 'WordPiece' : byteLevel ? 'byte-level BPE' : metaspace.length ? 'Metaspace BPE' : 'BPE';
  const special = [...new Map(added.filter((t) => t.special === true).map((t) => [t.id, t.content]))]
    .map(([id, content]) => ({ id, text: content })).sort((a, b) => a.id - b.id);
  return {
    json: { ...json, ...components, added_tokens: added },
    kind,
    vocab: largest + 1,
    special,
    byteLevel,
    metaspace,
    byteFallback: model.type === 'BPE' && model.byte_fallback === true,
  };
}

// BPE's merges: "a b" strings (the old format) or [a, b] pairs.
function checkMerges(model) {
  if (!Array.isArray(model.merges)) throw fail('model.merges is missing or not a list (BPE needs its merges)');
  model.merges.forEach((m, i) => {
    const pair = typeof m === 'string' ? m.indexOf(' ') > 0 && m.indexOf(' ') < m.length - 1 : Array.isArray(m) && m.length === 2 && m.every((p) => typeof p === 'string' && p);
    if (!pair) throw fail(`model.merges[${i}] is not a pair of tokens ("a b" or ["a", "b"])`);
  });
  for (const field of ['unk_token', 'continuing_subword_prefix', 'end_of_word_suffix'])
    if (model[field] != null && typeof model[field] !== 'string') throw fail(`model.${field} is not text`);
}

// A component (normalizer, pre_tokenizer, post_processor, decoder): null, or
// an object whose type the library builds; a Sequence's parts likewise.
function checkComponent(c, kind, where, depth) {
  if (c === null) return null;
  if (!isObject(c)) throw fail(`${where} is not an object`);
  if (!types[kind].includes(c.type))
    throw fail(`${where}.type ${c.type === undefined ? 'is missing' : `${quoteText(String(c.type))} is not one the tokenizer library reads`}`);
  // a pattern (Split, Replace) is {"String": …} or {"Regex": …}
  if ((c.type === 'Split' || c.type === 'Replace' || 'pattern' in c) && !(isObject(c.pattern) && (typeof c.pattern.String === 'string' || typeof c.pattern.Regex === 'string')))
    throw fail(`${where}.pattern is missing or not {"String": text} or {"Regex": text}`);
  if (c.type !== 'Sequence') return c;
  if (depth > 8) throw fail(`${where}: Sequences nested more than 8 deep`);
  const list = c[parts[kind]];
  if (!Array.isArray(list)) throw fail(`${where}.${parts[kind]} is missing or not a list`);
  return { ...c, [parts[kind]]: list.map((p, i) => checkComponent(p ?? [], kind, `${where}.${parts[kind]}[${i}]`, depth + 1)) };
}

// a component and, for a Sequence, its parts'
function flatten(c) {
  if (c === null) return [];
  const list = c.normalizers ?? c.pretokenizers ?? c.processors ?? c.decoders;
  return c.type === 'Sequence' && Array.isArray(list) ? list.flatMap(flatten) : [c];
}

// TemplateProcessing: its templates are lists of SpecialToken and Sequence
// items, and every special token it adds is in the vocabulary.
function checkTemplate(processor, vocab, added) {
  for (const [i, p] of flatten(processor).entries()) {
    if (p.type !== 'TemplateProcessing') continue;
    const where = processor.type === 'Sequence' ? `post_processor.processors[${i}]` : 'post_processor';
    for (const field of ['single', 'pair']) {
      const template = p[field];
      if (!Array.isArray(template)) throw fail(`${where}.${field} is missing or not a list`);
      for (const item of template) {
        const token = item?.SpecialToken?.id;
        if (typeof token === 'string') {
          if (!Object.hasOwn(vocab, token) && !added.some((t) => t.content === token)) throw fail(`${where} adds ${quoteText(token)}, which is not in the vocabulary`);
        } else if (!['A', 'B'].includes(item?.Sequence?.id)) throw fail(`${where}.${field} holds an item that is neither a SpecialToken nor the Sequence A or B`);
      }
    }
  }
}
