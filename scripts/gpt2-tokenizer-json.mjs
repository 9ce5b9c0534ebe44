// GPT-2's tokenizer.json (the Hugging Face tokenizers format, 2 MB) built
// from the vocabulary the site vendors (npm's gpt-tokenizer, r50k_base: each
// id's bytes), so a test can check that @huggingface/tokenizers on it gives
// exactly the vendored tokenizer's ids. Merges as transformers' tiktoken
// converter derives them: every split of a token into two tokens of the
// vocabulary, ranked by the token they make (then by their own ranks).
// usage: node scripts/gpt2-tokenizer-json.mjs OUT.json
import { writeFileSync } from 'node:fs';

const { default: ranks } = await import('gpt-tokenizer/bpeRanks/r50k_base');
const endOfText = 50256;

// bytes_to_unicode of GPT-2's encoder.py: each byte as a printable character
const byteToUnicode = [];
let next = 256;
for (let b = 0; b < 256; b++) {
  const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  byteToUnicode[b] = String.fromCharCode(printable ? b : next++);
}

// id → its bytes written as byte-level characters ('Ġthe' for ' the')
const encoder = new TextEncoder();
const pieces = ranks.map((piece) => Array.from(typeof piece === 'string' ? encoder.encode(piece) : piece, (b) => byteToUnicode[b]).join(''));
const vocab = new Map(pieces.map((p, id) => [p, id]));
if (vocab.size !== pieces.length || pieces.length !== endOfText) throw new Error(`r50k_base: expected ${endOfText} distinct pieces, found ${vocab.size} of ${pieces.length}`);

const merges = [];
pieces.forEach((piece, id) => {
  const chars = Array.from(piece);
  const local = [];
  for (let i = 1; i < chars.length; i++) {
    const left = chars.slice(0, i).join('');
    const right = chars.slice(i).join('');
    if (vocab.has(left) && vocab.has(right)) local.push([left, right, id]);
  }
  local.sort((a, b) => vocab.get(a[0]) - vocab.get(b[0]) || vocab.get(a[1]) - vocab.get(b[1]));
  merges.push(...local);
});
merges.sort((a, b) => a[2] - b[2]);  // stable: each token's splits keep their order

// As GPT-2's own tokenizer.json on the hub (openai-community/gpt2) is laid out.
const json = {
  version: '1.0',
  truncation: null,
  padding: null,
  added_tokens: [{ id: endOfText, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: true, special: true }],
  normalizer: null,
  pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
  post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
  decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
  model: {
    type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '', fuse_unk: false, byte_fallback: false,
    vocab: Object.fromEntries([...vocab, ['<|endoftext|>', endOfText]]),
    merges: merges.map(([left, right]) => `${left} ${right}`),
  },
};

const out = process.argv[2];
if (!out) {
  console.error('usage: node scripts/gpt2-tokenizer-json.mjs OUT.json');
  process.exit(64);
}
writeFileSync(out, JSON.stringify(json));
console.log(`${out}: ${vocab.size + 1} tokens, ${merges.length} merges`);
