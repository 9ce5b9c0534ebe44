// How the Model view names tokens, and GPT-2's byte-level BPE. A character
// model's ids are the core's (its vocabulary names each); a GPT-2 model's
// come from npm's gpt-tokenizer, which the site vendors under vendor/ at
// build time (scripts/build-site.mjs) and this module imports only when such
// a model opens. A GPT-2 token that holds part of a UTF-8 character is named
// by its bytes, \xF0\x9F, never as a broken character; an id past the
// tokenizer's 50,257 (nanoGPT pads GPT-2's vocabulary to 50,304, and such a
// model may still guess or sample the padding) as <50300>, in labels and in
// decoded text alike, and such text read back as that id again; a token with
// no text at all (typed ids, a character past the vocabulary) is <id> too, as
// a folder's tokenizer.json names its unknown ids (one name for one thing),
// save the [MASK], [CLS] and [SEP] a BERT folder names by id. Every kind
// reads and writes text through engine/tokenizer.js's one interface.

// tokenizer: engine/tokenizer.js's, the model's → each token's name
export function labelsOf(tokens, tokenizer) {
  return tokens.map((t) => tokenizer.label(t));
}

// Where the vendored library sits in the built site (a variable, so the
// layers test does not look for it in web/).
const vendor = new URL('../vendor/gpt-tokenizer/', import.meta.url);

let loading = null;

// {encode(text, vocab) → ids, decode(ids) → text, label(id) → the token's text}.
export function loadTokenizer(base = vendor) {
  loading ??= Promise.all([import(new URL('encoding/gpt2.js', base).href), import(new URL('bpeRanks/r50k_base.js', base).href)])
    .then(([gpt2, ranks]) => gpt2Tokenizer(gpt2, ranks.default));
  return loading;
}

// The library's encode and decode; a token's text from its ranks (a string,
// or the bytes that are not UTF-8 on their own). Text that spells a special
// token (<|endoftext|>) is encoded as plain text, as tiktoken's
// encode(text, disallowed_special=()) does. An id the library does not know
// is <id> in labels and decoded text; encode(text, vocab) reads <id> back as
// that id when it lies past the library's ids and below the model's `vocab`
// (so generated padding stays one token), as plain text otherwise.
export function gpt2Tokenizer(gpt2, ranks) {
  const plain = { allowedSpecial: new Set(), disallowedSpecial: new Set() };
  const endOfText = 50256;
  const known = (id) => id === endOfText || (Number.isInteger(id) && id >= 0 && ranks[id] !== undefined);
  return {
    encode(text, vocab = 0) {
      const ids = [];
      let at = 0;
      for (const match of text.matchAll(/<(\d{1,7})>/g)) {
        const id = Number(match[1]);
        if (known(id) || id >= vocab || match[1] !== String(id)) continue;
        if (match.index > at) ids.push(...gpt2.encode(text.slice(at, match.index), plain));
        ids.push(id);
        at = match.index + match[0].length;
      }
      if (at < text.length) ids.push(...gpt2.encode(text.slice(at), plain));
      return ids;
    },
    // the library's text of each run of ids it knows, <id> for the others
    decode(ids) {
      let text = '';
      let run = [];
      const flush = () => {
        if (run.length) text += gpt2.decode(run);
        run = [];
      };
      for (const id of ids) {
        if (known(id)) run.push(id);
        else {
          flush();
          text += `<${id}>`;
        }
      }
      flush();
      return text;
    },
    label(id) {
      if (!known(id)) return `<${id}>`;
      const piece = ranks[id];
      if (typeof piece === 'string') return piece;
      // printable ASCII as itself, every other byte as \xNN
      if (Array.isArray(piece) || piece instanceof Uint8Array)
        return Array.from(piece, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
      return '<|endoftext|>';
    },
  };
}
