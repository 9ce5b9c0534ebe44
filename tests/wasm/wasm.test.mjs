// The wasm build in Node: every seed preset against PyTorch's trace (the same
// fixtures as the native tests), errors carry the core's message, no leaks.
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

const presets = readdirSync(join(root, 'web', 'scenarios')).filter((f) => f.endsWith('.json'));
const seedIds = readdirSync(join(root, 'tests', 'golden')).map((f) => f.replace('.trace.json', ''));

// 2e-5 + 1e-4·|expected|, null is -inf
function assertClose(actual, expected, where) {
  assert.equal(actual.length, expected.length, `${where}: length`);
  let worst = 0;
  let bad = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i] === null ? -Infinity : expected[i];
    const a = actual[i];
    if (!Number.isFinite(e) || !Number.isFinite(a)) {
      if (a !== e) bad++;
      continue;
    }
    const d = Math.abs(a - e);
    worst = Math.max(worst, d);
    if (d > 2e-5 + 1e-4 * Math.abs(e)) bad++;
  }
  assert.equal(bad, 0, `${where}: ${bad} values outside tolerance, largest difference ${worst}`);
}

test('every seed preset, and each one added since, has its PyTorch trace in tests/golden', () => {
  assert.ok(seedIds.length >= 15);
  for (const id of seedIds) assert.ok(presets.includes(`${id}.json`), id);
});

for (const id of seedIds) {
  test(`wasm trace of ${id} equals PyTorch's, every step, head and batch element`, () => {
    const golden = JSON.parse(readFileSync(join(root, 'tests', 'golden', `${id}.trace.json`), 'utf8'));
    const trace = engine.run(readFileSync(join(root, 'web', 'scenarios', `${id}.json`), 'utf8'));
    try {
      const { batch } = trace.summary;
      for (const [name, expected] of Object.entries(golden.tensors)) {
        const t = trace.tensor(name);
        assert.deepEqual(t.shape, expected.shape, name);
        assertClose(t.data, expected.data, `tensors.${name}`);
      }
      assert.equal(trace.summary.heads.length, golden.heads.length);
      golden.heads.forEach((head, h) => {
        assert.deepEqual(Object.keys(trace.summary.heads[h].steps).sort(), Object.keys(head).sort());
        for (const [name, expected] of Object.entries(head)) {
          const perBatch = expected.data.length / batch;
          for (let b = 0; b < batch; b++) {
            const step = trace.step(h, name, b);
            assertClose(step.data, expected.data.slice(b * perBatch, (b + 1) * perBatch), `heads[${h}].${name}[${b}]`);
          }
        }
      });
      const perBatch = golden.out.data.length / batch;
      for (let b = 0; b < batch; b++)
        assertClose(trace.out(b).data, golden.out.data.slice(b * perBatch, (b + 1) * perBatch), `out[${b}]`);
    } finally {
      trace.dispose();
    }
  });
}

test('a bad scenario throws the core\'s message as an Error', () => {
  const scenario = JSON.parse(readFileSync(join(root, 'web', 'scenarios', 'sun-rises.json'), 'utf8'));
  scenario.attention.mask = [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0],
                             [1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 1]];
  assert.throws(() => engine.run(scenario), (e) => e instanceof ScenarioError
    && e.message === 'attention.mask: row 1 allows no position');
  assert.throws(() => engine.run('{"version": 1'), /^ScenarioError: scenario: not valid JSON/);
});

test('explanations come from the core, and a wrong cell is an error', () => {
  const trace = engine.run(readFileSync(join(root, 'web', 'scenarios', 'sun-rises-causal.json'), 'utf8'));
  try {
    const e = trace.explain(0, 'weights', 0, 2, 1);
    assert.ok(Math.abs(e.value - 0.0493) < 5e-5);
    assert.equal(e.exps.length, 6);
    assert.throws(() => trace.explain(0, 'weights', 3, 0, 0), /explain: no cell \(3, 0, 0\) in weights/);
  } finally {
    trace.dispose();
  }
});

test('the lessons come from the core in wasm too', () => {
  const trick = engine.averagingLesson({ seed: 42, B: 4, T: 8, C: 2 });
  assert.equal(trick.tril_agrees, true);
  assert.deepEqual(trick.demos[2].c.data, [3, 7, 5.5, 4, 5, 3]);
  const scaling = engine.scalingLesson({ seed: 1337, B: 4, T: 64, headSizes: [16], values: [0.1, -0.2, 0.3, -0.2, 0.5], factors: [8] });
  assert.ok(Math.abs(scaling.softmax[0].weights[4] - 0.8) < 5e-5);
  assert.throws(() => engine.averagingLesson({ B: 99 }), /averaging lesson: B, T, C must be/);
  const trace = engine.run(readFileSync(join(root, 'web', 'scenarios', 'sun-rises.json'), 'utf8'));
  try {
    assert.equal(trace.spaceLesson([5, 4, 3, 2, 1, 0], false).equivariant, true);
    assert.equal(trace.spaceLesson([5, 4, 3, 2, 1, 0], true).equivariant, false);
    assert.throws(() => trace.spaceLesson([0, 1], false), /space: expected a permutation of 6 positions, got 2/);
  } finally {
    trace.dispose();
  }
  // notebook 004: softmax, the future zeroed, each row renormalized
  const causal = engine.run(readFileSync(join(root, 'web', 'scenarios', 'sun-rises-causal.json'), 'utf8'));
  try {
    const renormalize = causal.renormalizeLesson(0);
    assert.equal(renormalize.agrees, true);
    assert.deepEqual(renormalize.row_sums.shape, [1, 6]);
    assert.ok(Math.abs(renormalize.renormalized.data[6] - 0.0532) < 5e-5);
    assert.throws(() => causal.renormalizeLesson(2), /renormalize: no head 2/);
  } finally {
    causal.dispose();
  }
});

test('the mask crosses as a typed array: causal, none and custom', () => {
  const text = readFileSync(join(root, 'web', 'scenarios', 'bank-raw.json'), 'utf8');
  const none = engine.run(text);
  const custom = JSON.parse(text);
  custom.attention.mask = [[1, 0, 1], [1, 1, 1], [0, 1, 1]];
  const edited = engine.run(custom);
  const causal = engine.run(readFileSync(join(root, 'web', 'scenarios', 'sun-rises-causal.json'), 'utf8'));
  try {
    assert.deepEqual(none.keep.shape, [3, 3]);
    assert.deepEqual(Array.from(none.keep.data), [1, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert.deepEqual(Array.from(edited.keep.data), [1, 0, 1, 1, 1, 1, 0, 1, 1]);
    assert.equal(Array.from(causal.keep.data).reduce((a, b) => a + b, 0), 21);
    assert.equal(none.summary.keep, undefined);
  } finally {
    none.dispose();
    edited.dispose();
    causal.dispose();
  }
});

test('the trace JSON from wasm reads back as the same numbers', () => {
  const text = readFileSync(join(root, 'web', 'scenarios', 'karpathy-value.json'), 'utf8');
  const trace = engine.run(text);
  try {
    const json = JSON.parse(trace.json());
    const weights = trace.step(0, 'weights', 3).data;
    const written = json.heads[0].weights.data.slice(3 * 64, 4 * 64).map((v) => (v === null ? -Infinity : v));
    assert.deepEqual(Array.from(weights), Array.from(Float32Array.from(written)));
  } finally {
    trace.dispose();
  }
});

test('running a scenario 1,000 times leaves the wasm heap where it was', () => {
  const text = readFileSync(join(root, 'web', 'scenarios', 'karpathy-value.json'), 'utf8');
  const once = () => {
    const trace = engine.run(text);
    trace.step(0, 'weights', 1);
    trace.explain(0, 'scores', 0, 3, 2);
    trace.dispose();
    try { engine.run('{"version": 2}'); } catch { /* the error path must not leak either */ }
  };
  once();  // warm up lazily allocated statics
  const before = engine.heapInUse();
  for (let i = 0; i < 1000; i++) once();
  assert.equal(engine.heapInUse(), before);
});
