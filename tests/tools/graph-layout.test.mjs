// The communication graph's geometry and story (web/views/graph-layout.js,
// graph-edges.js, timing.js), without a browser: labels live in chips no
// edge crosses, every arrowhead points into its receiver, and the steps show
// the edges the notebooks' story needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { arrowPoints, layoutFor, pointOn } from '../../web/views/graph-layout.js';
import { eachEdge } from '../../web/views/graph-edges.js';
import { activeOf, buildingRow, rowsShown, softmaxPhase } from '../../web/views/timing.js';

const textWidth = (t) => 6.2 * t.length;  // about 11 px system-ui
const words = 'the cat sat on a warm mat while rain fell outside and a small dog slept near the fire until morning light came through old glass windows above quiet streets of the town'.split(' ');

function model(T, { causal = true, cross = false, Tkv = T, pools = 1 } = {}) {
  const keep = new Uint8Array(T * Tkv).map((_, n) => (!causal || n % Tkv <= Math.floor(n / Tkv) ? 1 : 0));
  const weights = new Float32Array(T * Tkv).map((_, n) => (keep[n] ? 1 / (causal ? Math.floor(n / Tkv) + 1 : Tkv) : 0));
  return {
    cross, tq: T, tkv: Tkv, keep, past: true, future: !causal, step: 'weights', progress: 1,
    pools: Array.from({ length: pools }, () => ({ tokens: words.slice(0, T), context: cross ? words.slice(0, Tkv) : words.slice(0, T), weights })),
  };
}

const inside = (box, x, y, pad = 0) => x > box.x + pad && x < box.x + box.w - pad && y > box.y + pad && y < box.y + box.h - pad;

for (const [name, options] of [['arcs, causal', {}], ['arcs, no mask', { causal: false }], ['columns', {}], ['arcs, cross', { cross: true, causal: false, Tkv: 8 }]]) {
  test(`${name} at T = 33: every token has its label, and no edge crosses a chip`, () => {
    const m = model(33, options);
    const L = layoutFor(name === 'columns' ? 'columns' : 'arcs', m, 440, textWidth);
    const chips = L.chips(0);
    assert.equal(chips.filter((c) => c.shown && c.w >= 6).length, chips.length, 'every chip prints its token');
    for (const c of chips) assert.ok(c.flat ? c.h >= 11 : c.w >= 9, `chip ${c.k} is tall or wide enough for 11 px text`);
    for (let i = 0; i < m.tq; i++)
      for (let j = 0; j < m.tkv; j++) {
        const curve = L.curve(0, j, i);
        for (let t = 0.04; t <= 0.96; t += 0.04) {
          const { x, y } = pointOn(curve, t);
          const hit = chips.find((c) => inside(c, x, y, 0.5));
          assert.equal(hit, undefined, `edge ${j} → ${i} at t = ${t.toFixed(2)} crosses chip ${hit?.k}`);
        }
      }
  });
}

test('every arrowhead points into the node that receives, in both layouts', () => {
  const m = model(6, { causal: false });
  for (const name of ['arcs', 'columns']) {
    const L = layoutFor(name, m, 460, textWidth);
    const receivers = L.chips(0).filter((c) => c.role !== 'from');
    for (let i = 0; i < 6; i++)
      for (let j = 0; j < 6; j++) {
        const [tip, b, c] = arrowPoints(L.curve(0, j, i), 8);
        const receiver = receivers.find((r) => r.k === i);
        // the tip touches the receiver's chip; the base sits outside it
        const near = tip[0] >= receiver.x - 1 && tip[0] <= receiver.x + receiver.w + 1 && tip[1] >= receiver.y - 1 && tip[1] <= receiver.y + receiver.h + 1;
        assert.ok(near, `${name}: ${j} → ${i} ends at its receiver`);
        const base = [(b[0] + c[0]) / 2, (b[1] + c[1]) / 2];
        assert.ok(!inside(receiver, ...base), `${name}: ${j} → ${i}: the arrow's base is outside the receiver`);
      }
  }
});

test('columns: pools side by side, senders left, receivers right', () => {
  const m = model(5, { pools: 2 });
  const L = layoutFor('columns', m, 460, textWidth);
  const [left, right] = [L.chips(0), L.chips(1)];
  assert.ok(Math.max(...left.map((c) => c.x + c.w)) <= L.pools[1].x, 'pool 0 left of pool 1');
  assert.ok(Math.min(...right.map((c) => c.x)) >= L.pools[1].x);
  const from = left.filter((c) => c.role === 'from'), to = left.filter((c) => c.role === 'to');
  assert.ok(Math.max(...from.map((c) => c.x)) < Math.min(...to.map((c) => c.x)));
});

function drawn(m) {
  const live = [], removed = [];
  eachEdge(m, 0, (from, to, strength, gone) => (gone ? removed : live).push({ from, to, strength, gone }));
  return { live, removed };
}

test('the story of the edges: all pairs before the mask, the mask\'s edges fading at masked, weights only from softmax on', () => {
  const T = 6, pairs = T * T, kept = (T * (T + 1)) / 2;
  for (const step of ['x', 'qkv', 'scores', 'scaled']) {
    const { live, removed } = drawn({ ...model(T), step, progress: 1 });
    assert.equal(live.length, pairs, `${step}: every token could hear every other`);
    assert.equal(removed.length, 0);
    assert.ok(live.every((e) => e.strength === live[0].strength), `${step}: no edge claims a weight yet`);
  }
  const start = drawn({ ...model(T), step: 'masked', progress: 0 });
  const middle = drawn({ ...model(T), step: 'masked', progress: 0.5 });
  const end = drawn({ ...model(T), step: 'masked', progress: 1 });
  assert.equal(start.live.length, kept);
  assert.equal(start.removed.length, pairs - kept);
  assert.ok(start.removed.every((e) => e.gone < 0.01), 'at the start of masked the removed edges still show');
  assert.ok(middle.removed.some((e) => e.gone === 1) && middle.removed.some((e) => e.gone < 0.01), 'rows fade in turn');
  assert.ok(end.removed.every((e) => e.gone === 1), 'faded by the end of masked');
  assert.ok(end.live.every((e) => e.strength === end.live[0].strength), 'masked: still no weights');
  const weights = drawn({ ...model(T), step: 'weights', progress: 1 });
  assert.equal(weights.removed.length, 0, 'gone after masked');
  assert.equal(weights.live.length, kept);
  assert.ok(weights.live.some((e) => e.strength === 1) && weights.live.some((e) => Math.abs(e.strength - 1 / 6) < 1e-6), 'weighted at the end of softmax');
  const exps = drawn({ ...model(T), step: 'weights', progress: 0.4 });
  assert.ok(exps.live.every((e) => e.strength === exps.live[0].strength), 'while the exponentials appear, no edge has its weight');
});

test('one clock: rows, cells, softmax and the out row being built agree', () => {
  assert.equal(rowsShown(0.5, 6), 3);
  assert.deepEqual(softmaxPhase(0.25), { exps: 0.5, normalized: 0 });
  assert.deepEqual(softmaxPhase(0.75), { exps: 1, normalized: 0.5 });
  // the messages into row 2 land as rowsShown reaches 3
  const before = buildingRow(2.4 / 6, 6), after = buildingRow(2.6 / 6, 6);
  assert.equal(before.row, 2);
  assert.ok(before.travel < 1 && rowsShown(2.4 / 6, 6) === 2);
  assert.ok(after.travel === 1 && rowsShown(2.6 / 6, 6) === 3);
  assert.deepEqual(activeOf('scores', 1, 6, 6), { row: 5, col: 5 }, 'the end state keeps the last cell');
  assert.deepEqual(activeOf('scores', 8 / 36, 6, 6), { row: 1, col: 1 });
  assert.equal(activeOf('out', 1, 6, 4).row, 5);
  assert.equal(activeOf('x', 0.5, 6, 4), null);
});
