// lens/dom.js's spokenToken(): a label as a screen reader should say it
// (the logit lens's cells are named with it): tokenText's pictures for a
// space, a newline and a tab as words, everything else quoted as shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { spokenToken } from '../../web/lens/dom.js';
import { tokenText } from '../../web/views/format.js';

test('a blank token is said as words, not as its picture', () => {
  assert.equal(spokenToken(tokenText(' ')), 'space');
  assert.equal(spokenToken(tokenText('\n')), 'newline');
  assert.equal(spokenToken(tokenText('\t')), 'tab');
  assert.equal(spokenToken(tokenText('  ')), 'space space');
  assert.equal(spokenToken(tokenText(' \n')), 'space newline');
});

test('any other token is quoted as it reads, pictures inside it kept', () => {
  assert.equal(spokenToken('e'), '"e"');
  assert.equal(spokenToken(' the'), '" the"');
  assert.equal(spokenToken('a␣'), '"a␣"');
  assert.equal(spokenToken(''), '""');
  assert.equal(spokenToken('"'), '"\\""');
});
