// A view's key given with no value (`#model`, as a learner types it) opens
// that view with the preset the page's own links open, with nothing reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { lessonIds, parseHash } from '../../web/state/state.js';

test('#model, #lesson and #train with no value open their view on its first preset', () => {
  for (const [hash, key, value] of [['#model', 'model', 'text-gpt'], ['#model=', 'model', 'text-gpt'],
    ['#lesson', 'lesson', lessonIds[0]], ['#train=', 'train', 'induction'], ['#model&text=hello', 'model', 'text-gpt']]) {
    const { state, problems } = parseHash(hash);
    assert.equal(state[key], value, hash);
    assert.deepEqual(problems, [], hash);
  }
});

test('a key that has no view of its own, given with no value, is still refused in words', () => {
  const { state, problems } = parseHash('#preset=&text=');
  assert.equal(state.preset, 'sun-rises-causal');
  assert.equal(state.text, null);
  assert.equal(problems.length, 2);
  assert.match(problems[0], /^preset must be/);
});
