// How numbers read on the page (web/views/format.js): whole
// numbers as whole numbers, −∞ and the minus sign as the matrices show them.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatNumber } from '../../web/views/format.js';

test('whole numbers read as whole numbers beside fractions', () => {
  assert.equal(formatNumber(7), '7');
  assert.equal(formatNumber(11), '11');
  assert.equal(formatNumber(0), '0');
  assert.equal(formatNumber(-3), '−3');
  assert.equal(formatNumber(5.5), '5.5000');
  assert.equal(formatNumber(-0.0532), '−0.0532');
  assert.equal(formatNumber(12.25), '12.3');
  assert.equal(formatNumber(-Infinity), '−∞');
});
