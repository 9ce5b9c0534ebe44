// Token ids typed as numbers, for a model folder without tokenizer.json
// (web/engine/typed-ids.js): commas, spaces or both between them; a bad
// entry is one line naming its place, what it is (quoted) and what is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { idsFromText } from '../../web/engine/typed-ids.js';
import { ModelError } from '../../web/engine/model.js';

test('ids typed with commas, spaces or both', () => {
  assert.deepEqual(idsFromText('3, 1, 4', 10), [3, 1, 4]);
  assert.deepEqual(idsFromText('3 1 4', 10), [3, 1, 4]);
  assert.deepEqual(idsFromText(' 3,1 ,4\n5\t9, ', 10), [3, 1, 4, 5, 9]);  // a comma left at the end while typing
  assert.deepEqual(idsFromText('0, 9', 10), [0, 9]);  // both ends of 0..V−1
  assert.deepEqual(idsFromText('007 +2', 10), [7, 2]);
  assert.deepEqual(idsFromText('50303', undefined), [50303]);  // no V: the core checks
});

test('a bad entry names its place and what is wrong, in one line', () => {
  const cases = [
    ['', 10, 'text: this model has no tokenizer.json, so type token ids, like 3, 1, 4'],
    ['  \n ', 10, 'text: this model has no tokenizer.json, so type token ids, like 3, 1, 4'],
    ['3,,4', 10, 'text: entry 2 of 3 is empty'],
    [', 3', 10, 'text: entry 1 of 2 is empty'],
    ['3, x, 4', 10, 'text: entry 2 of 3, "x", is not a whole number'],
    ['3 1.5', 10, 'text: entry 2 of 2, "1.5", is not a whole number'],
    ['1e3', 10, 'text: entry 1 of 1, "1e3", is not a whole number'],
    ['3 <b>\u202e', 10, 'text: entry 2 of 2, "<b>\\u202E", is not a whole number'],
    ['-1', 10, 'text: entry 1 of 1, "-1", is outside 0..9 (the model has 10 tokens)'],
    ['1 2 10', 10, 'text: entry 3 of 3, "10", is outside 0..9 (the model has 10 tokens)'],
    ['50304', 50304, 'text: entry 1 of 1, "50304", is outside 0..50303 (the model has 50,304 tokens)'],
    ['99999999999999999999', undefined, 'text: entry 1 of 1, "999999999999…" (20 characters), is outside 0..9007199254740991'],
  ];
  for (const [text, vocab, line] of cases) assert.throws(() => idsFromText(text, vocab), (error) => {
    assert.ok(error instanceof ModelError);
    assert.equal(error.message, line, JSON.stringify(text));
    return true;
  });
});
