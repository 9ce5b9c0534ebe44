// The wasm module under mutation: presets with numbers made huge, negative or
// non-finite, shapes made 0, huge or 2^31 + 1, names swapped, masks ragged,
// nesting deep, strings long. Every run must end in a trace or a
// ScenarioError with the core's one-line message, and the one module must
// stay usable with its heap where it started. No run is timed here (a busy
// machine must fail no test; the slowest was 2.2 s on a loaded one): the
// core's cost limits bound a run's work (the regressions below ask for
// minutes and are refused), and `make bench` reports the slowest run.
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
const presets = readdirSync(join(root, 'web', 'scenarios'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => readFileSync(join(root, 'web', 'scenarios', f), 'utf8'));
const RUNS = Number(process.env.WASM_FUZZ_RUNS ?? 5000);

// mulberry32: the same mutations on every machine, so a failure reproduces.
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Numbers JSON.stringify cannot write (1e999) travel as placeholders.
const spellings = ['1e999', '-1e999', '1e39', '-1e39', '3.4028236e38', '1e-46', '-0', '2147483649', '4294967297',
  '18446744073709551616', '-9223372036854775809', '1e308', '0', '-1'];
const shapes = [0, -1, 1, 2 ** 31 + 1, 2 ** 32 + 1, 4194305, 2049, 65, 100000];

function mutate(text, next) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const scenario = JSON.parse(text);
  const places = [];  // [parent, key] of every leaf and list
  (function walk(node) {
    for (const key of Object.keys(node)) {
      places.push([node, key]);
      if (node[key] && typeof node[key] === 'object') walk(node[key]);
    }
  })(scenario);
  const names = scenario.tensors.filter((t) => t.name).map((t) => t.name);
  const count = 1 + Math.floor(next() * 3);
  for (let m = 0; m < count; m++) {
    const [parent, key] = pick(places);
    const value = parent[key];
    switch (Math.floor(next() * 8)) {
      case 0: parent[key] = `@@${pick(spellings)}@@`; break;                            // a number's spelling
      case 1: if (Array.isArray(value)) parent[key] = value.map(() => pick(shapes)); break;  // a shape
      case 2: if (typeof value === 'string') parent[key] = pick(names) ?? 'x'; break;   // a name swapped
      case 3: if (Array.isArray(value) && value.length) value.pop(); break;             // ragged
      case 4: parent[key] = '@@' + '['.repeat(5 + Math.floor(next() * 40)) + '1' + ']'.repeat(5 + Math.floor(next() * 40)) + '@@'; break;
      case 5: parent[key] = 'x'.repeat(Math.floor(next() * 300000)); break;             // a long string
      case 6: delete parent[key]; break;
      default: if (scenario.attention && typeof scenario.attention === 'object') scenario.attention.mask = pick(['causal', 'none', [[1]], [[1, 0], [1]], [[0, 0], [1, 1]], 'tril', 7]);
    }
  }
  return JSON.stringify(scenario).replace(/"@@(.*?)@@"/g, '$1');
}

test(`${RUNS} mutated presets: a trace or the core's message, the module usable, the heap unchanged`, () => {
  const next = random(20261121);
  const probe = () => {
    const trace = engine.run(presets[0]);
    assert.ok(trace.summary.heads.length > 0);
    trace.json();
    trace.dispose();
  };
  probe();
  const before = engine.heapInUse();
  let traces = 0, errors = 0, slowest = 0;
  for (let i = 0; i < RUNS; i++) {
    const text = mutate(presets[i % presets.length], next);
    const start = performance.now();
    try {
      const trace = engine.run(text);
      const json = trace.json();
      assert.ok(json.startsWith('{"version": 1'), `run ${i}: a trace`);
      trace.dispose();
      traces++;
    } catch (error) {
      assert.ok(error instanceof ScenarioError, `run ${i}: ${error} (${typeof error}) is not a ScenarioError; input ${text.slice(0, 300)}`);
      assert.ok(error.message.length > 0 && !/[\n\r\u0000-\u001f]/.test(error.message), `run ${i}: one line: ${JSON.stringify(error.message.slice(0, 200))}`);
      assert.ok(!error.message.startsWith('internal error'), `run ${i}: ${error.message}`);
      errors++;
    }
    slowest = Math.max(slowest, performance.now() - start);  // reported, not asserted
  }
  probe();
  assert.equal(engine.heapInUse(), before, 'heap in use after all runs');
  assert.ok(traces > RUNS / 100 && errors > RUNS / 5, `both outcomes exercised: ${traces} traces, ${errors} errors`);
  console.log(`# ${RUNS} runs: ${traces} traces, ${errors} errors, slowest ${slowest.toFixed(0)} ms`);
});

test('the hostile files of tests/fuzz/regressions: ScenarioError with the native message', () => {
  const dir = join(root, 'tests', 'fuzz', 'regressions');
  for (const file of readdirSync(dir)) {
    const text = readFileSync(join(dir, file), 'latin1');  // bytes as they are, even invalid UTF-8
    assert.throws(() => engine.run(Buffer.from(text, 'latin1').toString('utf8')), ScenarioError, file);
  }
});

test('1e999 is a ScenarioError naming its place, not a bare number, and leaks nothing', () => {
  const once = () => assert.throws(() => engine.run('{"version": 1e999}'),
    { name: 'ScenarioError', message: 'scenario: not valid JSON at line 1, column 13: the number "1e999" is too large for a double' });
  once();
  const before = engine.heapInUse();
  for (let i = 0; i < 200; i++) once();
  assert.equal(engine.heapInUse(), before);
});

test('sizes that wrap a 32-bit size_t are refused and the module stays usable', () => {
  const wide = (rows) => JSON.stringify({ version: 1, id: 'wide', tensors: [{ name: 'x', randn: [rows, 1] },
    { name: 'wv', linear: [1, 4194304] }], attention: { x: 'x', heads: [{ value: 'wv' }] } });
  for (const rows of [1025, 2048, 16]) assert.throws(() => engine.run(wide(rows)), ScenarioError);
  assert.throws(() => engine.scalingLesson({ B: 4096, T: 1048577, headSizes: [16], values: [1], factors: [1] }), ScenarioError);
  assert.throws(() => engine.scalingLesson({ B: 2, T: 2 ** 31 + 1, headSizes: [16], values: [1], factors: [1] }), ScenarioError);
  const trace = engine.run(presets[0]);
  assert.ok(trace.json().length > 100);
  trace.dispose();
});

test('sizes past 32 bits are named as the file wrote them, as natively', () => {
  const scenario = (tensor) => JSON.stringify({ version: 1, id: 'wide', tensors: [{ name: 'x', ones: [2, 2] }, tensor],
    attention: { x: 'x', heads: [{}] } });
  const refused = (tensor, message) => assert.throws(() => engine.run(scenario(tensor)), { name: 'ScenarioError', message });
  refused({ name: 'z', zeros: [4294967304] }, 'tensors[1].zeros: [4294967304] has 4294967304 elements; the limit is 4194304');
  refused({ name: 'w', linear: [4294967304, 1] }, 'tensors[1].linear: [4294967304, 1] has 4294967304 elements; the limit is 4194304');
  // an id of 2^32 + 3 was taken for 3 by a 32-bit size_t
  refused({ name: 'e', embedding: [5, 3], ids: [4294967299] }, 'tensors[1].ids[0]: 4294967299 is out of range [0, 5)');
});
