// GPT-2's byte-level BPE as the Model view uses it (web/model/tokens.js over
// npm's gpt-tokenizer): ids for text with spaces, punctuation, digits,
// non-ASCII and emoji are the library's own encode's (and GPT-2's known ids
// where we know them), decode gives the text back, and each token's label
// is its text, or its bytes where it holds part of a UTF-8 character.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import * as gpt2 from 'gpt-tokenizer/encoding/gpt2';
import ranks from 'gpt-tokenizer/bpeRanks/r50k_base';
import { gpt2Tokenizer, labelsOf } from '../../web/model/tokens.js';
import { tokenizerFor } from '../../web/engine/tokenizer.js';

const tokenizer = gpt2Tokenizer(gpt2, ranks);
// the page's interface over it (engine/tokenizer.js), as the Model view names tokens
const gpt2Kind = tokenizerFor({ tokenizer: 'gpt2' }, { library: tokenizer });
const texts = ['Hello, world!', ' spaces  and\ttabs\n', 'digits 1234567 and 3.14', 'café, naïve, é', '中文', '🙂 👍🏽', 'a<b>&"c"', '<|endoftext|>'];

// A label back to bytes: \xNN as the byte, any other character as its UTF-8.
function bytesOf(label) {
  const out = [];
  for (const part of label.split(/(\\x[0-9A-F]{2})/)) {
    if (/^\\x[0-9A-F]{2}$/.test(part)) out.push(parseInt(part.slice(2), 16));
    else out.push(...new TextEncoder().encode(part));
  }
  return out;
}

test('ids are the library\'s and GPT-2\'s; decode round-trips; labels spell the text\'s bytes', () => {
  assert.deepEqual(tokenizer.encode('Hello, world!'), [15496, 11, 995, 0]);
  assert.deepEqual(tokenizer.encode(' the'), [262]);
  for (const text of texts) {
    const ids = tokenizer.encode(text);
    assert.deepEqual(ids, gpt2.encode(text, { disallowedSpecial: new Set() }), text);
    assert.ok(ids.every((id) => Number.isInteger(id) && id >= 0 && id < 50257), text);
    assert.equal(tokenizer.decode(ids), text);
    const labels = labelsOf(ids, gpt2Kind);
    assert.deepEqual(labels.flatMap(bytesOf), [...new TextEncoder().encode(text)], text);
  }
  // an emoji split across tokens: its pieces are bytes, never a broken character
  const labels = labelsOf(tokenizer.encode('🙂'), gpt2Kind);
  assert.deepEqual(labels, ['\\xF0\\x9F', '\\x99\\x82']);
  assert.ok(labels.join('').split('').every((c) => c.charCodeAt(0) < 0x7f));
  // the special token's text is plain text, and its id has its name
  assert.deepEqual(tokenizer.encode('<|endoftext|>'), [27, 91, 437, 1659, 5239, 91, 29]);
  assert.equal(tokenizer.label(50256), '<|endoftext|>');
});

test('a character model names its tokens by its vocabulary', () => {
  assert.deepEqual(labelsOf([1, 0, 2], tokenizerFor({ tokenizer: 'characters', vocabulary: ['a', ' ', '\n'] })), [' ', 'a', '\n']);
  assert.deepEqual(labelsOf([7], tokenizerFor({ tokenizer: 'ids' })), ['<7>']);
});

test('a lone surrogate typed in the Model view becomes a visible U+FFFD token, never glued to the next character', () => {
  // (a character model's text goes to the core, which refuses it naming
  // `text`: tests/wasm/bindings.test.mjs)
  for (const [text, around] of [['a\uD800b', ['a', 'b']], ['a\uDC00b', ['a', 'b']], ['x\uDBFF', ['x']]]) {
    const ids = tokenizer.encode(text);
    const labels = labelsOf(ids, gpt2Kind);
    assert.ok(labels.includes('\uFFFD'), `${JSON.stringify(text)}: ${JSON.stringify(labels)}`);
    assert.deepEqual(labels.filter((l) => l !== '\uFFFD'), around, JSON.stringify(text));
    assert.equal(tokenizer.decode(ids), text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
});
