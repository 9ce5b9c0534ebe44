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

test('numbers print only where the widest fits its cell with room to spare', async () => {
  const { numbersFit } = await import('../../web/views/format.js');
  const width = (text) => text.length * 7;  // 7 px a character
  assert.deepEqual(numbersFit([0.5, -0.25], 60, width), { numbers: true, decimals: 4 });   // "−0.2500": 49 px ≤ 54
  assert.deepEqual(numbersFit([0.5, -0.25], 52, width), { numbers: true, decimals: 2 });   // 49 > 46; "−0.25": 35
  assert.deepEqual(numbersFit([0.5, -0.25], 40, width), { numbers: false, decimals: 2 });  // 35 > 34
  assert.deepEqual(numbersFit([1, 0], 30, width), { numbers: true, decimals: 2 });          // whole numbers are short
  assert.deepEqual(numbersFit([0.5], 29, width), { numbers: false, decimals: 2 });          // under 30 px: none
});
