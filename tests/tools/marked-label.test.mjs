// views/marked-label.js's underline(): the dotted line under a token Generate
// wrote sits nearer its own label than the next one's. Row labels of a
// 32-token heatmap are 14 px apart at 11 px: the line was 7.5 px below the
// middle, past half the pitch, and read as an umlaut over the next letter.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { underline } from '../../web/views/marked-label.js';

// A 2D context that records where the line goes.
function recorder(font) {
  const lines = [];
  let from = null;
  return {
    font, fillStyle: '#000', lines,
    measureText: (text) => ({ width: 6 * text.length }),
    save() {}, restore() {}, setLineDash() {}, beginPath() {}, stroke() {},
    moveTo(x, y) { from = [x, y]; },
    lineTo(x, y) { lines.push([from, [x, y]]); },
  };
}

test('a marked label\'s line is under it, nearer it than the next label 14 px down', () => {
  for (const y of [100, 100.5, 107.25]) {
    const g = recorder('11px sans-serif');
    underline(g, 'ing', 40, y, 'right');
    assert.equal(g.lines.length, 1);
    const [[x0, y0], [x1, y1]] = g.lines[0];
    assert.equal(y0, y1, 'a level line');
    assert.deepEqual([x0, x1], [40 - 18, 40], 'as wide as the text, ending at its right edge');
    assert.ok(y0 - y > 4, `below the text's middle: ${y0 - y}`);
    assert.ok(y0 - y < 7, `nearer its own label than the next, 14 px below: ${y0 - y} px`);
  }
});

test('a ␣ whose ink reaches below the baseline gets its line clear of that ink', () => {
  const g = recorder('11px sans-serif');
  g.measureText = (text) => ({ width: 6 * text.length, actualBoundingBoxDescent: 5 });
  underline(g, '␣', 40, 100, 'right');
  assert.ok(g.lines[0][0][1] - 100 >= 5 + 2.5, `under the ink, 5 px below: ${g.lines[0][0][1] - 100}`);
});

test('a narrow label (an I, a full stop) gets three dots at least, never one that reads as ! or :', () => {
  for (const align of ['left', 'center', 'right']) {
    const g = recorder('11px sans-serif');
    g.measureText = () => ({ width: 3 });
    underline(g, 'I', 40, 100, align);
    const [[x0], [x1]] = g.lines[0];
    assert.ok(x1 - x0 >= 7.5, `${align}: ${x1 - x0} px of dots`);
    assert.ok(x0 <= 40 && x1 >= (align === 'left' ? 43 : 40), `${align}: under its text, from ${x0} to ${x1}`);
  }
});

test('a narrow chip\'s own room is kept, and empty text draws nothing', () => {
  const g = recorder('11px sans-serif');
  underline(g, 'a', 10, 50, 'center', 3);
  assert.equal(g.lines[0][0][1], Math.round(53) + 0.5);
  const empty = recorder('11px sans-serif');
  underline(empty, '', 10, 50);
  assert.equal(empty.lines.length, 0);
});
