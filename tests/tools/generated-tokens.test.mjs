// Which of the Model view's tokens Generate wrote (issue 31): the link's
// form (state.js checks it, model/generated.js reads it), what an edit
// leaves marked and how groups join into the link's runs, and the tokens the
// model runs on: the typed pieces' and the generated ids as drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { parseHash, toHash, defaultState } from '../../web/state/state.js';
import { edited, groupsOf, runsFromText, runsOf, runsToText, tokensFor } from '../../web/model/generated.js';
import { tokenizerFor } from '../../web/engine/tokenizer.js';

// a Model view as generated.js reads it: the model's info and its one tokenizer
const viewOf = (info, library) => ({ info, tokenizer: tokenizerFor(info, { library }) });

test('the link: runs of start_id.id…, read back as written; another form is one line', () => {
  const runs = [{ start: 19, ids: [12, 45, 7] }, { start: 40, ids: [3] }];
  assert.equal(runsToText(runs), '19_12.45.7-40_3');
  assert.deepEqual(runsFromText('19_12.45.7-40_3'), runs);
  const state = { ...defaultState(), model: 'text-gpt', text: 'To be', generated: '19_12.45.7-40_3' };
  assert.match(toHash(state), /generated=19_12\.45\.7-40_3/);
  assert.equal(parseHash(toHash(state)).state.generated, '19_12.45.7-40_3');
  for (const bad of ['x', '19', '19_', '19_1..2', '1234_5', '19_12345678', '19_1-', `0_${Array(500).fill(1234567).join('.')}`]) {
    const { state: read, problems } = parseHash(`#model=text-gpt&generated=${bad}`);
    assert.equal(read.generated, null, bad);
    assert.deepEqual(problems, ['generated must be runs of start_id.id… joined by -; kept none'], bad);
  }
});

// "To be" + generated ",", " ", "o", "r"
const groups = [
  { start: 5, text: ',', ids: [1] }, { start: 6, text: ' ', ids: [2] },
  { start: 7, text: 'o', ids: [3] }, { start: 8, text: 'r', ids: [4] },
];
const before = 'To be, or';

test('an edit unmarks what it touches and moves the rest', () => {
  const characters = { characters: true };
  // a generated character replaced: that one is the learner's
  assert.deepEqual(edited(groups, before, 'To be, xr', characters).map((g) => g.start), [5, 6, 8]);
  // typed at the end: a character token before it stays; a BPE token grows into the learner's word
  assert.deepEqual(edited(groups, before, 'To be, orx', characters).map((g) => g.start), [5, 6, 7, 8]);
  assert.deepEqual(edited(groups, before, 'To be, orx').map((g) => g.start), [5, 6, 7]);
  // the prompt changed: the generated text after it moves with it
  assert.deepEqual(edited(groups, before, 'So to be, or', characters).map((g) => [g.start, g.text]), [[8, ','], [9, ' '], [10, 'o'], [11, 'r']]);
  // typed in the middle of the generated text: nothing generated is lost but what was touched
  assert.deepEqual(edited(groups, before, 'To be, Xor', characters).map((g) => g.start), [5, 6, 8, 9]);
  // all of it replaced: nothing is generated
  assert.deepEqual(edited(groups, before, 'Hello', characters), []);
  assert.equal(edited(groups, before, before, characters), groups);
});

test('groups that follow each other are one run; a gap starts another', () => {
  assert.deepEqual(runsOf(groups), [{ start: 5, ids: [1, 2, 3, 4] }]);
  assert.deepEqual(runsOf([groups[0], groups[2], groups[3]]), [{ start: 5, ids: [1] }, { start: 7, ids: [3, 4] }]);
});

test('the ids Generate wrote, split into groups by their text; a token holding part of a character joins the next', () => {
  const view = viewOf({ tokenizer: 'characters', vocabulary: ['a', 'b', ' '] });
  assert.deepEqual(groupsOf(view, [0, 2, 1], 'a b', 10), [{ start: 10, text: 'a', ids: [0] }, { start: 11, text: ' ', ids: [2] }, { start: 12, text: 'b', ids: [1] }]);
  // GPT-2's bytes: "é" is two tokens, neither a character alone
  const bytes = { 1: [0xc3], 2: [0xa9], 3: [0x21] };
  const decoder = new TextDecoder();
  const gpt2 = viewOf({ tokenizer: 'gpt2' }, { decode: (ids) => decoder.decode(new Uint8Array(ids.flatMap((id) => bytes[id]))) });
  assert.deepEqual(groupsOf(gpt2, [1, 2, 3], 'é!', 0), [{ start: 0, text: 'é', ids: [1, 2] }, { start: 1, text: '!', ids: [3] }]);
});

test('the model runs on the typed pieces\' tokens with the generated ids between them, as drawn', async () => {
  // a BPE that would read "ab" as one token: the generated "b" stays its own id
  const view = viewOf({ tokenizer: 'gpt2', config: { vocab: 100 } }, { encode: (text) => (text === 'ab' ? [50] : Array.from(text, (c) => c.charCodeAt(0) - 90)) });
  assert.deepEqual(await tokensFor(view, 'ab', []), { tokens: [50], made: null });
  assert.deepEqual(await tokensFor(view, 'abc', [{ start: 1, text: 'b', ids: [8] }]), { tokens: [7, 8, 9], made: [false, true, false] });
  // typed ids: ", 7" after a generated id is the id 7
  const ids = viewOf({ tokenizer: 'ids', family: 'llama', config: { vocab: 100 } });
  assert.deepEqual(await tokensFor(ids, '3, 1, 5, 7', [{ start: 4, text: ', 5', ids: [5] }]), { tokens: [3, 1, 5, 7], made: [false, false, true, false] });
});
