// The Model view's lens settings in the link (web/state/state.js; web/lens/):
// lens, ablate, mode, at and token round-trip through the hash, a bad value
// is refused by name and falls back, and they never leak into a playground link.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { parseHash, toHash } from '../../web/state/state.js';

test('a Model view link keeps the lens, the heads ablated, the mode, the position and the token', () => {
  const hash = '#model=text-gpt&lens=ablate&ablate=0.1,1.2&mode=mean&at=3&token=5';
  const { state, problems } = parseHash(hash);
  assert.deepEqual(problems, []);
  assert.deepEqual([state.lens, state.ablate, state.mode, state.at, state.token], ['ablate', '0.1,1.2', 'mean', 3, 5]);
  // written back the same (the comma encoded, as URLSearchParams writes it)
  assert.equal(decodeURIComponent(toHash(state)), hash);
  assert.deepEqual(parseHash(toHash(state)).state, state);
  for (const lens of ['scores', 'logit-lens', 'attribution']) assert.equal(parseHash(`#model=text-gpt&lens=${lens}`).state.lens, lens);
});

test('a bad lens setting is refused in one line naming it, and falls back', () => {
  const { state, problems } = parseHash('#model=text-gpt&lens=probe&ablate=1-2&mode=half&at=-1&token=x');
  assert.deepEqual([state.lens, state.ablate, state.mode, state.at, state.token], [null, null, null, null, null]);
  assert.equal(problems.length, 5);
  assert.match(problems[0], /^lens must be one of scores, ablate, logit-lens, attribution/);
  assert.match(problems[1], /^ablate must be heads as layer\.head joined by commas, like 0\.1,1\.2/);
  assert.match(problems[2], /^mode must be one of zero, mean/);
  assert.match(problems[3], /^at must be a whole number/);
  assert.match(problems[4], /^token must be a whole number/);
  // 100 heads at most, and no empty pair
  assert.equal(parseHash(`#model=text-gpt&ablate=${Array(101).fill('0.1').join(',')}`).state.ablate, null);
  assert.equal(parseHash('#model=text-gpt&ablate=0.1,,1.2').state.ablate, null);
});

test('the lens settings belong to the Model view: a playground link never carries them', () => {
  const { state } = parseHash('#model=text-gpt&lens=scores&ablate=0.1');
  assert.doesNotMatch(toHash({ ...state, model: null, lens: null, ablate: null }), /lens|ablate/);
});
