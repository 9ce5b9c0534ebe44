// The wasm build on rotary scenarios (scenario-v1.md "The attention layer"):
// every trace of tests/golden-rotary against PyTorch's, q_rotated and
// k_rotated included (the same fixtures as the native tests); the angles the
// rotate step shows; the lesson's two offsets; refusals in the core's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadEngine, ScenarioError } from '../../web/engine/engine.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const engine = await loadEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-core.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-core.wasm')),
});
const dir = join(root, 'tests', 'golden-rotary');
const names = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.trace.json')).map((f) => f.slice(0, -5));
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));

// 2e-5 + 1e-4·|expected|, null is -inf
function assertClose(actual, expected, where) {
  assert.equal(actual.length, expected.length, `${where}: length`);
  let bad = 0;
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i] === null ? -Infinity : expected[i];
    if (!Number.isFinite(e)) {
      if (actual[i] !== e) bad++;
      continue;
    }
    worst = Math.max(worst, Math.abs(actual[i] - e));
    if (Math.abs(actual[i] - e) > 2e-5 + 1e-4 * Math.abs(e)) bad++;
  }
  assert.equal(bad, 0, `${where}: ${bad} values outside tolerance, largest difference ${worst}`);
}

test('tests/golden-rotary holds at least three rotary scenarios with their traces', () => {
  assert.ok(names.length >= 3);
  for (const name of names) assert.ok(read(join(dir, `${name}.json`)).attention.rotary, name);
});

for (const name of names) {
  test(`wasm trace of ${name} equals PyTorch's, q_rotated and k_rotated included`, () => {
    const golden = read(join(dir, `${name}.trace.json`));
    const trace = engine.run(readFileSync(join(dir, `${name}.json`), 'utf8'));
    try {
      const { batch } = trace.summary;
      golden.heads.forEach((head, h) => {
        assert.deepEqual(Object.keys(trace.summary.heads[h].steps).sort(), Object.keys(head).sort());
        for (const [step, expected] of Object.entries(head)) {
          const per = expected.data.length / batch;
          for (let b = 0; b < batch; b++) assertClose(trace.step(h, step, b).data, expected.data.slice(b * per, (b + 1) * per), `heads[${h}].${step}[${b}]`);
        }
      });
      const per = golden.out.data.length / batch;
      for (let b = 0; b < batch; b++) assertClose(trace.out(b).data, golden.out.data.slice(b * per, (b + 1) * per), `out[${b}]`);
      // the whole trace as text, as the CLI writes it: the same keys per head
      const text = JSON.parse(trace.json());
      assert.deepEqual(text.heads.map((h) => Object.keys(h)), golden.heads.map((h) => Object.keys(h)));
    } finally {
      trace.dispose();
    }
  });
}

test('the angles of each pair at each position come from the core: (offset + t) · θ^(−2j/d)', () => {
  const trace = engine.run(readFileSync(join(dir, 'rotary-batch-offset-5.json'), 'utf8'));
  try {
    assert.deepEqual(trace.summary.rotary, { theta: 500000, offset: 5 });
    const angles = trace.angles(1);
    assert.deepEqual(angles.shape, [7, 4]);  // T 7, d_k 8: four pairs
    assert.equal(angles.data[0], 5);  // pair 0 turns one radian per position, from position 5
    assert.equal(angles.data[6 * 4], 11);
    assert.equal(angles.data[4 + 2], Math.fround(6 * Math.fround(1 / Math.fround(500000 ** 0.5))));
    // a cell's explanation names its angle and its two terms
    const e = trace.explain(0, 'k_rotated', 1, 2, 5);
    assert.equal(e.angle, trace.angles(0).data[2 * 4 + 1]);
    assert.equal(e.terms.length, 2);
    assert.ok(Math.abs(e.terms[0][2] + e.terms[1][2] - e.value) < 1e-6);
    assert.match(e.formula, /^k_rotated\[2, 5\] = k\[2, 5\] · cos\(angle\) \+ k\[2, 1\] · sin\(angle\)/);
  } finally {
    trace.dispose();
  }
  const plain = engine.run(readFileSync(join(root, 'web', 'scenarios', 'sun-rises-causal.json'), 'utf8'));
  try {
    assert.equal(plain.summary.rotary, null);
    assert.equal(plain.angles(0), null);
    assert.equal(plain.summary.heads[0].steps.q_rotated, undefined);
  } finally {
    plain.dispose();
  }
});

test('the lesson: offsets 0 and 5 turn q differently and give the same scores, as PyTorch\'s two traces do', () => {
  const [a, b] = ['rotary-batch', 'rotary-batch-offset-5'].map((name) => engine.run(readFileSync(join(dir, `${name}.json`), 'utf8')));
  try {
    const moved = a.compare(b, 2, 'q_rotated');
    const same = a.compare(b, 2, 'scores');
    assert.equal(moved.agrees, false);
    assert.ok(moved.largest_difference > 0.1, `${moved.largest_difference}`);
    assert.equal(same.agrees, true);
    assert.ok(same.largest_difference < 1e-5, `${same.largest_difference}`);
    assert.equal(a.compare(b, 2, 'q').largest_difference, 0);  // before the turn, no offset at all
    assert.throws(() => a.compare(b, 9, 'scores'), (e) => e instanceof ScenarioError && e.message === 'compare: no step scores in head 9');
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('a bad rotary field throws the core\'s one line', () => {
  const scenario = read(join(dir, 'rotary-small.json'));
  scenario.attention.rotary = { theta: 10000, offset: -3 };
  assert.throws(() => engine.run(scenario), (e) => e instanceof ScenarioError && e.message === 'attention.rotary.offset: expected a whole number from 0 to 1048576, got -3');
});
