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

test('numbers print only where the widest fits its cell with room to spare, and one precision holds a view', async () => {
  const { decimalsThatFit, viewDecimals } = await import('../../web/views/format.js');
  const width = (text) => text.length * 7;  // 7 px a character
  assert.equal(decimalsThatFit([0.5, -0.25], 60, width), 4);   // "−0.2500": 49 px ≤ 56
  assert.equal(decimalsThatFit([0.5, -0.25], 52, width), 2);   // 49 > 48; "−0.25": 35
  assert.equal(decimalsThatFit([0.5, -0.25], 39, width), 2);   // 35 ≤ 35
  assert.equal(decimalsThatFit([0.5, -0.25], 38, width), 0);   // 35 > 34
  assert.equal(decimalsThatFit([1, 0], 30, width), 2);         // whole numbers are short
  assert.equal(decimalsThatFit([0.5], 29, width), 0);          // under 30 px: none
  // 4 only when every matrix that prints fits 4; one that fits none does not lower the rest
  assert.equal(viewDecimals([4, 4, 0]), 4);
  assert.equal(viewDecimals([4, 2]), 2);
  assert.equal(viewDecimals([0, 0]), 2);
});
