// A model folder's tokenizer.json as the page reads it (web/engine/hf-tokenizer.js
// over npm's @huggingface/tokenizers, the module the site vendors): the three
// kinds on small files written by hand (tests/fixtures/tokenizers/, each
// expected id worked out below), GPT-2's tokenizer.json built from the
// vendored GPT-2 vocabulary giving exactly the vendored tokenizer's ids on
// the shipped corpus, and bad files refused in one line naming tokenizer.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import * as library from '@huggingface/tokenizers';
import * as gpt2 from 'gpt-tokenizer/encoding/gpt2';
import ranks from 'gpt-tokenizer/bpeRanks/r50k_base';
import { ModelError, openTokenizer, tokenizerOf } from '../../web/engine/hf-tokenizer.js';
import { gpt2Tokenizer } from '../../web/model/tokens.js';

const root = new URL('../../', import.meta.url).pathname;
const fixture = (name) => readFileSync(join(root, 'tests/fixtures/tokenizers', name), 'utf8');
const open = (text) => openTokenizer(text, { library });

test('WordPiece (BERT): lowercased, split into ## pieces, [UNK] for a word it cannot split, [CLS] … [SEP] from the template', async () => {
  const bert = await open(fixture('bert-wordpiece.json'));
  assert.equal(bert.kind, 'WordPiece');
  assert.equal(bert.vocab, 17);
  assert.deepEqual(bert.special.map((t) => t.text), ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);
  assert.equal(bert.maskId, 4);
  // "The cat is playing." → BertNormalizer lowercases: "the cat is playing.";
  // BertPreTokenizer splits on spaces and punctuation: the | cat | is | playing | .
  // WordPiece, longest match first: the 5, cat 6; "is": neither "is" nor "i"
  // is in the vocabulary, so the whole word is [UNK] 1; "playing": "play" 10
  // then "##ing" 11; "." 13. The template adds [CLS] 2 before, [SEP] 3 after.
  assert.deepEqual(bert.encode('The cat is playing.'), {
    ids: [2, 5, 6, 1, 10, 11, 13, 3],
    tokens: ['[CLS]', 'the', 'cat', '[UNK]', 'play', '##ing', '.', '[SEP]'],
  });
  // [MASK] typed is the special token (added tokens are matched before the
  // normalizer, so it is not lowercased into pieces): "the" 5, [MASK] 4, "sat" 7, "." 13.
  assert.deepEqual(bert.encode('The [MASK] sat.').ids, [2, 5, 4, 7, 13, 3]);
  // "PLAYED": lowercased "played" = "play" 10 + "##ed" 12
  assert.deepEqual(bert.encode('PLAYED').ids, [2, 10, 12, 3]);
  // an empty text is still [CLS] [SEP], as the post-processor says
  assert.deepEqual(bert.encode('').ids, [2, 3]);
  // the WordPiece decoder joins ## pieces and its cleanup glues the full stop
  assert.equal(bert.decode([2, 5, 6, 1, 10, 11, 13, 3]), '[CLS] the cat [UNK] playing. [SEP]');
  // after "the cat play", ##ing joins the word and "mat" starts one
  assert.equal(bert.decode([11]), '##ing');
  assert.equal(bert.continuation([5, 6, 10], [11, 9]), 'ing mat');
});

test('byte-level BPE (GPT-2 style): merges by rank, Ġ shown as a space, bytes of a split character as \\xNN', async () => {
  const tok = await open(fixture('gpt2-byte-level.json'));
  assert.equal(tok.kind, 'byte-level BPE');
  assert.equal(tok.vocab, 22);
  assert.equal(tok.maskId, null);
  // The ByteLevel pre-tokenizer's GPT-2 pattern splits "Hello world!\n" into
  // "Hello" | " world" | "!" | "\n", then writes bytes as characters: the
  // space is Ġ, the newline Ċ. Merges, lowest rank first:
  //   H e l l o: "l l" (0) → H e ll o; "ll o" (1) → H e llo; "H e" (2) → He llo; "He llo" (3) → Hello 14
  //   Ġ w o r l d: "Ġ w" (4) → Ġw o r l d; "o r" (5) → Ġw or l d; "Ġw or" (6) → Ġwor l d;
  //     "l d" (7) → Ġwor ld; "Ġwor ld" (8) → Ġworld 19
  //   "!" 9, "Ċ" 10. The ByteLevel post-processor adds nothing.
  assert.deepEqual(tok.encode('Hello world!\n'), { ids: [14, 19, 9, 10], tokens: ['Hello', ' world', '!', '\n'] });
  assert.equal(tok.decode([14, 19, 9, 10]), 'Hello world!\n');
  // "é" is the bytes C3 A9, written Ã ©; no merge joins them: two tokens,
  // each half a character, so each shows its byte
  assert.deepEqual(tok.encode('é'), { ids: [20, 21], tokens: ['\\xC3', '\\xA9'] });
  assert.equal(tok.decode([20, 21]), 'é');
  // the special token typed is itself (id 0) between two Hellos
  assert.deepEqual(tok.encode('Hello<|endoftext|>Hello'), { ids: [14, 0, 14], tokens: ['Hello', '<|endoftext|>', 'Hello'] });
  // ids the tokenizer does not know are <id> in labels and decoded text
  assert.equal(tok.label(22), '<22>');
  assert.equal(tok.decode([14, 99, 19]), 'Hello<99> world');
  assert.equal(tok.decode([]), '');
  assert.equal(tok.continuation([14], [19, 9]), ' world!');
});

test('byte-level BPE as Llama 3, Qwen2 write it: a Split pattern then ByteLevel, merges as pairs, ignore_merges, <|begin_of_text|> from a Sequence post-processor', async () => {
  const tok = await open(fixture('llama3-byte-level.json'));
  assert.equal(tok.kind, 'byte-level BPE');
  assert.equal(tok.vocab, 22);
  assert.deepEqual(tok.special, [{ id: 20, text: '<|begin_of_text|>' }, { id: 21, text: '<|end_of_text|>' }]);
  // Llama 3's pattern splits "Hi 123456!" into "Hi" | " " | "123" | "456" | "!"
  // (digits in threes; the space cannot join "123", so it is alone), then
  // ByteLevel (use_regex false) writes the space as Ġ 2.
  //   "Hi": in the vocabulary (12) and ignore_merges takes it whole, though no merge makes it
  //   "123": [1, 2] (0) → 12 3; [12, 3] (1) → 123 11
  //   "456": [4, 5] (2) → 45 6: 45 13, 6 8;   "!" 9
  // The Sequence post-processor's TemplateProcessing puts <|begin_of_text|> 20 first.
  assert.deepEqual(tok.encode('Hi 123456!'), {
    ids: [20, 12, 2, 11, 13, 8, 9],
    tokens: ['<|begin_of_text|>', 'Hi', ' ', '123', '45', '6', '!'],
  });
  assert.equal(tok.decode([20, 12, 2, 11, 13, 8, 9]), '<|begin_of_text|>Hi 123456!');
});

test('Metaspace BPE with byte fallback (older Llama): ▁ shown as a space, <s> from the template, bytes for what has no piece', async () => {
  const llama = await open(fixture('llama-metaspace.json'));
  assert.equal(llama.kind, 'Metaspace BPE');
  assert.equal(llama.vocab, 25);
  assert.deepEqual(llama.special, [{ id: 0, text: '<unk>' }, { id: 1, text: '<s>' }, { id: 2, text: '</s>' }]);
  // Metaspace (prepend_scheme "first") writes "Hello world" as "▁Hello▁world",
  // one piece (split false). Merges, lowest rank first:
  //   "l l" (0), "ll o" (1): ▁ H e llo ▁ w o r l d; "▁ H" (2), "▁H e" (3),
  //   "▁He llo" (4): ▁Hello 19; "▁ w" (5), "o r" (6), "▁w or" (7), "l d" (8),
  //   "▁wor ld" (9): ▁world 24. The template puts <s> 1 first.
  assert.deepEqual(llama.encode('Hello world'), { ids: [1, 19, 24], tokens: ['<s>', ' Hello', ' world'] });
  // "Hello 中\n" → "▁Hello▁中\n": ▁Hello 19, then "▁" 7 (no merge joins ▁
  // and 中), 中 has no piece, so byte fallback spells its UTF-8 bytes
  // E4 B8 AD as <0xE4> 4, <0xB8> 5, <0xAD> 6, and the newline <0x0A> 3.
  assert.deepEqual(llama.encode('Hello 中\n'), {
    ids: [1, 19, 7, 4, 5, 6, 3],
    tokens: ['<s>', ' Hello', ' ', '\\xE4', '\\xB8', '\\xAD', '\n'],
  });
  // the decoder's ByteFallback and Fuse put the bytes back together
  assert.equal(llama.decode([1, 19, 7, 4, 5, 6, 3]), '<s> Hello 中\n');
  // "Hi" → "▁Hi": "▁ H" merges to ▁H 17; "i" has no piece and its byte
  // <0x69> is not in the vocabulary either, so it is <unk> 0
  assert.deepEqual(llama.encode('Hi').ids, [1, 17, 0]);
  // after a special token the text is not the first section: no ▁ is prepended,
  // and H, e stay apart (no "H e" merge): H 8, e 9, llo 16
  assert.deepEqual(llama.encode('</s>Hello').ids, [1, 2, 8, 9, 16]);
  // the Strip decoder drops the one space Metaspace prepended
  assert.equal(llama.decode([19, 24]), 'Hello world');
  // so a generated ▁world decoded alone loses its space; after the text's ids it keeps it
  assert.equal(llama.decode([24]), 'world');
  assert.equal(llama.continuation([1, 19], [24]), ' world');
  assert.equal(llama.continuation([1, 19, 7, 4], [5, 6]), '\uFFFD\uFFFD');  // 中's bytes split: decoded alone
  assert.equal(llama.continuation([], [19]), 'Hello');
});

test('GPT-2\'s tokenizer.json built from the vendored vocabulary gives the vendored tokenizer\'s ids on the shipped corpus', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gpt2-tokenizer-json-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'tokenizer.json');
  execFileSync(process.execPath, [join(root, 'scripts/gpt2-tokenizer-json.mjs'), path], { cwd: root });
  const hf = tokenizerOf(readFileSync(path, 'utf8'), library);
  const vendored = gpt2Tokenizer(gpt2, ranks);
  assert.equal(hf.kind, 'byte-level BPE');
  assert.equal(hf.vocab, 50257);
  assert.deepEqual(hf.special, [{ id: 50256, text: '<|endoftext|>' }]);

  const corpus = readFileSync(join(root, 'web/trainings/literature.txt'), 'utf8');
  const texts = [corpus, ...corpus.split('\n%\n'), 'Hello, world!', ' spaces  and\ttabs\n', 'digits 1234567 and 3.14', 'café, naïve, é', '中文', '🙂 👍🏽', 'a<b>&"c"', 'a\uD800b', "it's they're we'll"];
  assert.ok(texts.length > 200, `${texts.length} texts: the corpus is no longer split into its quotations`);
  let tokens = 0;
  for (const text of texts) {
    const { ids, tokens: labels } = hf.encode(text);
    assert.deepEqual(ids, vendored.encode(text), JSON.stringify(text.slice(0, 60)));
    assert.deepEqual(labels, ids.map((id) => vendored.label(id)));
    tokens += ids.length;
  }
  assert.ok(tokens > 20000, `only ${tokens} tokens compared`);
  assert.equal(hf.decode(hf.encode(corpus).ids), corpus);
  // every token's label, as the Model view names GPT-2's today
  for (let id = 0; id < 50257; id++) if (hf.label(id) !== vendored.label(id)) assert.fail(`id ${id}: ${JSON.stringify(hf.label(id))} ≠ ${JSON.stringify(vendored.label(id))}`);
  // one difference, on purpose: tokenizer.json marks <|endoftext|> special, so
  // typed it is that token (as transformers reads it); the vendored tokenizer
  // reads it as plain text (tiktoken's disallowed_special=())
  assert.deepEqual(hf.encode('<|endoftext|>').ids, [50256]);
});

// each bad file, and a piece of the line it gets
const bad = [
  ['{"model": ', 'tokenizer.json: not valid JSON'],
  // (V8's own message would repeat the text: 'Unexpected token 'x', "{"model": …')
  ['{"model": {"type": "BPE", "vocab": {"secret words": x}}}', 'tokenizer.json: not valid JSON'],
  ['{"model": {}} secret', 'tokenizer.json: not valid JSON (at character 14)'],
  ['[1, 2]', 'tokenizer.json: not a tokenizer (its top level is not an object)'],
  ['{}', 'tokenizer.json: model is missing'],
  ['{"model": {"vocab": {"a": 0}}}', 'tokenizer.json: model.type is missing'],
  ['{"model": {"type": "Unigram", "vocab": [["a", 0]]}}', 'tokenizer.json: model.type "Unigram" is not one the page reads (BPE or WordPiece)'],
  ['{"model": {"type": "BPE", "merges": []}}', 'tokenizer.json: model.vocab is missing'],
  ['{"model": {"type": "BPE", "vocab": {}, "merges": []}}', 'tokenizer.json: model.vocab is empty'],
  ['{"model": {"type": "BPE", "vocab": {"a": -1}, "merges": []}}', 'tokenizer.json: model.vocab: the id of "a" is not a whole number'],
  ['{"model": {"type": "BPE", "vocab": {"a": 1.5}, "merges": []}}', 'tokenizer.json: model.vocab: the id of "a" is not a whole number'],
  ['{"model": {"type": "BPE", "vocab": {"a": 99999999}, "merges": []}}', 'tokenizer.json: model.vocab: the id of "a" is not a whole number from 0 to 16,777,215'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}}}', 'tokenizer.json: model.merges is missing or not a list'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a b", "ab"]}}', 'tokenizer.json: model.merges[1] is not a pair of tokens'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [["a", 3]]}}', 'tokenizer.json: model.merges[0] is not a pair of tokens'],
  ['{"model": {"type": "WordPiece", "vocab": {"a": 0}}}', 'tokenizer.json: model.unk_token is missing or not in model.vocab'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "added_tokens": {}}', 'tokenizer.json: added_tokens is not a list'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "added_tokens": [{"id": "1", "content": "x"}]}', 'tokenizer.json: added_tokens[0] is not a token'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "pre_tokenizer": {"type": "Magic\\n<b>"}}', 'tokenizer.json: pre_tokenizer.type "Magic\\n<b>" is not one the tokenizer library reads'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "decoder": {"type": "Sequence"}}', 'tokenizer.json: decoder.decoders is missing or not a list'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "normalizer": {"type": "Sequence", "normalizers": [{}]}}', 'tokenizer.json: normalizer.normalizers[0].type is missing'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "normalizer": 3}', 'tokenizer.json: normalizer is not an object'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "[CLS]"}}], "pair": []}}',
    'tokenizer.json: post_processor adds "[CLS]", which is not in the vocabulary'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "post_processor": {"type": "TemplateProcessing", "pair": []}}', 'tokenizer.json: post_processor.single is missing or not a list'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "post_processor": {"type": "BertProcessing"}}', 'tokenizer.json: its post_processor fails on an empty text'],
  ['{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(("}}}', 'tokenizer.json: the tokenizer library cannot build it (SyntaxError)'],
  [`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "decoder": ${'{"type": "Sequence", "decoders": ['.repeat(12)}${']}'.repeat(12)}}`, 'tokenizer.json: decoder.decoders[0].decoders[0]'],
];

test('a bad tokenizer.json is one line naming tokenizer.json and the problem, the file\'s text quoted, never raw', async () => {
  for (const [text, line] of bad) {
    await assert.rejects(open(text), (error) => {
      assert.ok(error instanceof ModelError, `${text}: ${error}`);
      assert.ok(error.message.startsWith(line), `${text}\n  got:      ${error.message}\n  expected: ${line}…`);
      // one line (a newline in the file's text stays the two characters \n), and
      // of the file's text only what is quoted, never the rest
      assert.ok(!error.message.includes('\n') && !error.message.includes('secret'), error.message);
      return true;
    });
  }
  // the fixtures themselves, cut short, are refused the same way
  for (const name of ['bert-wordpiece.json', 'gpt2-byte-level.json', 'llama-metaspace.json'])
    await assert.rejects(open(fixture(name).slice(0, 200)), /^ModelError: tokenizer\.json: not valid JSON/);
});

test('a tokenizer.json over 32 MiB is refused from its size, before it is read; a response\'s error status or empty body is one line too', async () => {
  let read = false;
  const huge = new Blob([new Uint8Array(32 * 1024 * 1024 + 1)]);
  huge.text = async () => { read = true; return ''; };
  await assert.rejects(open(huge), /^ModelError: tokenizer\.json: 33,554,433 bytes is over the page's limit of 33,554,432 \(32 MiB\)$/);
  assert.equal(read, false);
  await assert.rejects(open(' '.repeat(32 * 1024 * 1024 + 1)), /tokenizer\.json: 33,554,433 characters is over/);
  // a Response is read no further than the limit, whatever it declares
  const body = new ReadableStream({
    pull(controller) { controller.enqueue(new Uint8Array(8 << 20)); },
  });
  await assert.rejects(open(new Response(body)), /tokenizer\.json: \d[\d,]* bytes is over the page's limit/);
  await assert.rejects(open(new Response('{}', { headers: { 'content-length': String(64 << 20) } })), /tokenizer\.json: 67,108,864 bytes is over/);
  await assert.rejects(open(new Response('{}', { status: 404 })), /^ModelError: tokenizer\.json: the server answered HTTP 404$/);
  await assert.rejects(open(new Response(null, { status: 200 })), /^ModelError: tokenizer\.json: not valid JSON$/);
  // and a File or Response within it opens
  assert.equal((await open(new Blob([fixture('bert-wordpiece.json')]))).vocab, 17);
  assert.equal((await open(new Response(fixture('llama-metaspace.json')))).vocab, 25);
});

test('every fixture with one field changed or removed opens and tokenizes, or is refused in one line: never the library\'s own error or console output', (t) => {
  const warnings = [];
  t.mock.method(console, 'warn', (...args) => warnings.push(args.join(' ')));
  t.mock.method(console, 'error', (...args) => warnings.push(args.join(' ')));
  const values = [undefined, null, 0, -1, 1.5, 2 ** 40, 'x', '', [], {}, true, [1], [null], { type: 'Sequence' }, '[CLS]'];
  const wrong = new Map();
  let opened = 0;
  let refused = 0;
  for (const name of ['bert-wordpiece.json', 'gpt2-byte-level.json', 'llama-metaspace.json', 'llama3-byte-level.json']) {
    const base = JSON.parse(fixture(name));
    const paths = [];
    const walk = (v, path) => {
      if (path.length) paths.push(path);
      if (v && typeof v === 'object') for (const k of Object.keys(v)) walk(v[k], [...path, k]);
    };
    walk(base, []);
    for (const path of paths) {
      for (const value of values) {
        const json = structuredClone(base);
        const parent = path.slice(0, -1).reduce((o, k) => o[k], json);
        if (value === undefined) delete parent[path.at(-1)];
        else parent[path.at(-1)] = value;
        try {
          const tok = tokenizerOf(JSON.stringify(json), library);
          for (const text of ['Hello world [MASK] 中 é\n', '', 'The cat is playing.']) {
            const { ids, tokens } = tok.encode(text);
            assert.ok(ids.every(Number.isInteger) && tokens.every((l) => typeof l === 'string'));
            tok.decode(ids);
          }
          tok.decode([0, 1, 2, 999999]);
          opened++;
        } catch (error) {
          if (error instanceof ModelError && /^(tokenizer\.json|text): [^\n]+$/.test(error.message)) refused++;
          else wrong.set(`${error.name}: ${error.message.slice(0, 100)}`, `${name} ${path.join('.')} = ${JSON.stringify(value)}`);
        }
      }
    }
  }
  assert.deepEqual([...wrong].map(([error, where]) => `${where}: ${error}`), []);
  assert.deepEqual(warnings, []);
  assert.ok(opened > 1000 && refused > 1000, `${opened} opened, ${refused} refused`);
});
