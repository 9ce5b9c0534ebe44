// A model folder's tokenizer.json (the Hugging Face tokenizers format) read
// by npm's @huggingface/tokenizers, which the site vendors under
// vendor/huggingface-tokenizers/ (scripts/build-site.mjs) and this module
// imports only when a tokenizer is opened: byte-level BPE (GPT-2, Llama 3,
// Qwen, SmolLM), WordPiece (BERT) and Metaspace BPE with byte fallback (older
// Llama, Mistral). The library does the tokenizing; this module checks the
// file's shape first (so a bad file is one line naming tokenizer.json, never
// the library's own words or the file's text), and names each token for the
// views as web/model/tokens.js names GPT-2's: the text it stands for, its
// bytes as \xNN where they are not UTF-8 on their own, special tokens as
// themselves.
import { ModelError } from './model.js';
import { checkTokenizerJson, tokenizerLimit } from './hf-tokenizer-check.js';

export { ModelError, tokenizerLimit };

// Where the vendored library sits in the built site (a variable, so the
// layers test does not look for it in web/).
const vendor = new URL('../vendor/huggingface-tokenizers/', import.meta.url);

let loading = null;

// The library's module, imported once per page or worker.
export function loadTokenizerLibrary(base = vendor) {
  loading ??= import(new URL('tokenizers.js', base).href).catch((error) => {
    loading = null;  // a failed fetch may be retried
    throw new ModelError(`tokenizer.json: the tokenizer library did not load (${error?.name ?? 'error'})`);
  });
  return loading;
}

// source: tokenizer.json as a string, a File or Blob (its size is checked
// before it is read) or a fetch Response (read no further than the limit).
// → a HfTokenizer (tokenizerOf). library: the module, for tests in Node.
export async function openTokenizer(source, { library } = {}) {
  const text = await readCapped(source);
  return tokenizerOf(text, library ?? (await loadTokenizerLibrary()));
}

async function readCapped(source) {
  const over = (bytes) => new ModelError(`tokenizer.json: ${bytes.toLocaleString('en-US')} bytes is over the page's limit of ${tokenizerLimit.toLocaleString('en-US')} (32 MiB)`);
  if (typeof source === 'string') return source;  // its length is checked with its shape
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    if (source.size > tokenizerLimit) throw over(source.size);
    return source.text();
  }
  if (source && typeof source.body === 'object' && typeof source.headers?.get === 'function') {
    if (source.ok === false) throw new ModelError(`tokenizer.json: the server answered HTTP ${Number(source.status)}`);
    const declared = Number(source.headers.get('content-length'));
    if (declared > tokenizerLimit) throw over(declared);
    if (!source.body) return '';
    const reader = source.body.getReader();
    const parts = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > tokenizerLimit) {
        reader.cancel().catch(() => {});
        throw over(size);
      }
      parts.push(value);
    }
    return new TextDecoder().decode(concat(parts, size));
  }
  throw new ModelError('tokenizer.json: give its text, a File or a fetch Response');
}

function concat(parts, size) {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

// tokenizer.json's text → {kind, vocab, special, maskId, encode, decode, label}:
//   kind: 'byte-level BPE', 'Metaspace BPE', 'BPE' or 'WordPiece';
//   vocab: V, one past the largest id (the model's vocab_size must be at least V);
//   special: [{id, text}] the special tokens, by id; maskId: [MASK]'s or <mask>'s id, or null;
//   encode(text) → {ids, tokens}: the ids with the post-processor's tokens
//     ([CLS] … [SEP], <s> …) and each token's label;
//   decode(ids) → text (an id the tokenizer does not know is <id>);
//   continuation(before, ids) → the text ids add after the ids before them;
//   label(id) → how a view shows the token.
export function tokenizerOf(text, library) {
  const { json, kind, vocab, special, byteLevel, metaspace, byteFallback } = checkTokenizerJson(text);
  let tokenizer;
  try {
    // decode as the tokenizers crate decodes tokenizer.json alone: only its
    // own decoder's cleanup, not transformers' extra one on top
    tokenizer = new library.Tokenizer(json, { clean_up_tokenization_spaces: false });
  } catch (error) {
    throw new ModelError(`tokenizer.json: the tokenizer library cannot build it (${error?.name ?? 'error'})`);
  }
  const added = new Map(json.added_tokens.map((t) => [t.id, t.content]));
  const known = (id) => Number.isInteger(id) && id >= 0 && (added.has(id) || tokenizer.id_to_token(id) !== undefined);

  const label = (id) => {
    if (!known(id)) return `<${id}>`;
    if (added.has(id)) return added.get(id);
    const piece = tokenizer.id_to_token(id);
    if (byteLevel) {
      const bytes = Array.from(piece, (c) => unicodeToByte.get(c));
      if (bytes.every((b) => b !== undefined)) return bytesLabel(bytes);
    }
    const fallback = byteFallback && /^<0x([0-9A-F]{2})>$/i.exec(piece);
    if (fallback) return bytesLabel([parseInt(fallback[1], 16)]);
    return metaspace.reduce((t, c) => t.split(c).join(' '), piece);
  };

  const encode = (input) => {
    let ids;
    try {
      ({ ids } = tokenizer.encode(String(input)));
    } catch (error) {
      throw new ModelError(`text: tokenizer.json's tokenizer could not read it (${error?.name ?? 'error'})`);
    }
    const missing = ids.findIndex((id) => !Number.isInteger(id));
    if (missing >= 0) throw new ModelError(`tokenizer.json: token ${missing + 1} of the text has no id in its vocabulary and it names no unk_token`);
    return { ids, tokens: ids.map(label) };
  };

  // The library's text of each run of ids it knows, <id> for the others.
  const decode = (ids) => {
    let out = '';
    let run = [];
    const flush = () => {
      if (run.length) out += tokenizer.decode(run, { skip_special_tokens: false });
      run = [];
    };
    for (const id of ids) {
      if (known(id)) run.push(id);
      else {
        flush();
        out += `<${id}>`;
      }
    }
    flush();
    return out;
  };

  // The text ids add after `before` (generated tokens appended to the
  // learner's text): decoded with the last few ids before them and cut, since
  // alone their first piece decodes as a text's start (Metaspace's Strip drops
  // its space, WordPiece's decoder keeps its ##); decoded alone where the
  // context's text is not a prefix (a UTF-8 character split across them).
  const continuation = (before, ids) => {
    const context = before.slice(-8);
    const head = decode(context);
    const whole = decode([...context, ...ids]);
    return context.length && whole.startsWith(head) ? whole.slice(head.length) : decode(ids);
  };

  // The post-processor's tokens must have ids: found now, not on the
  // learner's first word.
  try {
    encode('');
  } catch {
    throw new ModelError('tokenizer.json: its post_processor fails on an empty text');
  }
  const mask = special.find((t) => t.text === '[MASK]' || t.text === '<mask>');
  return { kind, vocab, special, maskId: mask ? mask.id : null, encode, decode, continuation, label };
}

// GPT-2's map from bytes to the printable characters byte-level BPE writes
// them as (bytes_to_unicode in its encoder.py): printable Latin-1 as itself,
// every other byte as 256 + its rank among those.
const unicodeToByte = (() => {
  const map = new Map();
  let next = 256;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    map.set(String.fromCharCode(printable ? b : next++), b);
  }
  return map;
})();

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// A token's bytes as text where they are UTF-8 on their own; else printable
// ASCII as itself and every other byte as \xNN (tokens.js's GPT-2 labels).
function bytesLabel(bytes) {
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return bytes.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
  }
}
