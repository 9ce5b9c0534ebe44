// The three modules' Embind classes called directly, as a careless or hostile
// caller would: every count, index, size and seed given −1, 2³², 2³² + 1
// (and 1.5, NaN) is refused naming the parameter, never wrapped into range;
// every method called in the wrong order answers in the bindings' convention
// (JSON {"error"}, or an empty typed array), never a trap; a lone UTF-16
// surrogate in any text is refused naming the field, never glued to the next
// character; and none of it leaks (wasm/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadEngine } from '../../web/engine/engine.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const load = (name) => loadEngine({
  moduleUrl: new URL(`file://${join(wasmDir, `${name}.js`)}`),
  wasmBinary: readFileSync(join(wasmDir, `${name}.wasm`)),
}).then((engine) => engine.module);
const [core, trainer, models] = await Promise.all(['attention-core', 'attention-train', 'attention-model'].map(load));

const wrapping = [-1, 2 ** 32, 2 ** 32 + 1];  // each wraps to a small or huge unsigned in Embind's own conversion
const bad = [...wrapping, 1.5, NaN];
const shown = (n) => (Number.isNaN(n) ? 'NaN' : String(n));
const scenario = readFileSync(join(root, 'web', 'scenarios', 'bank-module.json'), 'utf8');
const golden = (name) => readFileSync(join(root, 'tests', 'golden-training', name), 'utf8');

// A JSON answer that refuses: {"error": "name: n is not a whole number …"}.
function refusesNumber(text, name, n, where) {
  const answer = JSON.parse(text);
  assert.equal(typeof answer?.error, 'string', `${where}: ${text.slice(0, 200)}`);
  assert.ok(answer.error.startsWith(`${name}: ${shown(n)} is not a whole number`), `${where}: ${answer.error}`);
  assert.ok(!answer.error.includes('\n'));
}

function refuses(text, start, where) {
  const answer = JSON.parse(text);
  assert.equal(typeof answer?.error, 'string', `${where}: ${text.slice(0, 200)}`);
  assert.ok(answer.error.startsWith(start), `${where}: ${answer.error}`);
}

const empty = (array, where) => assert.equal(array.length, 0, `${where}: ${array.length} numbers`);

// Runs `calls` twice and checks the heap after the second run is where it was
// before it: the first run warms the module's one-time allocations (the
// iostreams' locale, Embind's type tables).
function leaksNothing(module, calls) {
  calls();
  const before = module.heapInUse();
  calls();
  assert.equal(module.heapInUse(), before, 'the heap is where it was');
}

test('Session: every index is checked as a number, never wrapped', () => leaksNothing(core, () => {
  const session = new core.Session();
  assert.equal(session.load(scenario), '');
  assert.ok(session.step(0, 'weights', 0).length > 0);
  assert.ok(session.layerOut(0).length > 0);
  for (const n of bad) {
    empty(session.step(n, 'weights', 0), `step(${n}, …)`);
    empty(session.step(0, 'weights', n), `step(…, ${n})`);
    empty(session.layerOut(n), `layerOut(${n})`);
    refusesNumber(session.explain(n, 'weights', 0, 0, 0), 'head', n, 'explain head');
    refusesNumber(session.explain(0, 'weights', n, 0, 0), 'batch', n, 'explain batch');
    refusesNumber(session.explain(0, 'weights', 0, n, 0), 'row', n, 'explain row');
    refusesNumber(session.explain(0, 'weights', 0, 0, n), 'column', n, 'explain column');
    refusesNumber(session.renormalizeLesson(n), 'head', n, 'renormalizeLesson');
    refusesNumber(session.spaceLesson([n, 0], false), 'permutation[0]', n, 'spaceLesson');
    refusesNumber(core.averagingLesson(1, n, 8, 2), 'B', n, 'averagingLesson B');
    refusesNumber(core.averagingLesson(1, 4, n, 2), 'T', n, 'averagingLesson T');
    refusesNumber(core.averagingLesson(1, 4, 8, n), 'C', n, 'averagingLesson C');
    refusesNumber(core.scalingLesson(1, n, 8, [4], [1], [1]), 'B', n, 'scalingLesson B');
    refusesNumber(core.scalingLesson(1, 4, n, [4], [1], [1]), 'T', n, 'scalingLesson T');
    refusesNumber(core.scalingLesson(1, 4, 8, [4, n], [1], [1]), 'headSizes[1]', n, 'scalingLesson headSizes');
  }
  // a seed is any whole number JS holds exactly (2³² is one), never a negative or a fraction
  for (const n of [-1, 1.5, NaN, 2 ** 53 + 2]) refusesNumber(core.averagingLesson(n, 4, 8, 2), 'seed', n, 'averagingLesson seed');
  assert.ok(!('error' in JSON.parse(core.averagingLesson(2 ** 32, 4, 8, 2))));
  session.delete();
}));

test('Session: methods before load refuse in the convention', () => {
  const session = new core.Session();
  empty(session.step(0, 'weights', 0), 'step');
  empty(session.layerOut(0), 'layerOut');
  empty(session.keep(), 'keep');
  empty(session.tensor('x'), 'tensor');
  assert.equal(session.summary(), '');
  refuses(session.explain(0, 'weights', 0, 0, 0), 'explain: nothing loaded', 'explain');
  refuses(session.traceJson(), 'trace: nothing loaded', 'traceJson');
  refuses(session.renormalizeLesson(0), 'renormalize: nothing loaded', 'renormalizeLesson');
  refuses(session.spaceLesson([0], false), 'space: nothing loaded', 'spaceLesson');
  session.delete();
});

test('Training: every method before load() refuses; snapshot() no longer reads an empty run', () => leaksNothing(trainer, () => {
  const run = new trainer.Training();
  refuses(run.snapshot(), 'training: nothing loaded', 'snapshot');
  refuses(run.evaluate(0, false), 'training: nothing loaded', 'evaluate after snapshot');
  refuses(run.info(), 'training: nothing loaded', 'info');
  refuses(run.steps(1), 'training: nothing loaded', 'steps');
  refuses(run.attend('[0, 1]', 0, false), 'training: nothing loaded', 'attend');
  refuses(run.encode('ab'), 'training: nothing loaded', 'encode');
  refuses(run.headScenario('[0, 1]', 0, 0), 'training: nothing loaded', 'headScenario');
  refuses(run.traceJson(), 'training: nothing loaded', 'traceJson');
  assert.equal(run.restore(0), 'training: nothing loaded');
  assert.equal(run.stepsDone(), 0);
  // and the object still loads and trains after all that
  assert.equal(run.load(golden('induction.json')), '');
  assert.equal(JSON.parse(run.steps(2)).length, 2);
  assert.equal(JSON.parse(run.snapshot()), 0);
  assert.equal(run.restore(0), '');
  run.delete();
}));

test('Training: every count and index is checked as a number, never wrapped', () => leaksNothing(trainer, () => {
  const run = new trainer.Training();
  assert.equal(run.load(golden('induction.json')), '');
  assert.equal(JSON.parse(run.snapshot()), 0);
  for (const n of bad) {
    refusesNumber(run.steps(n), 'steps', n, 'steps');
    refusesNumber(run.evaluate(n, false), 'top', n, 'evaluate');
    refusesNumber(run.attend('[0, 1, 2]', n, false), 'top', n, 'attend');
    refusesNumber(run.headScenario('[0, 1, 2]', n, 0), 'layer', n, 'headScenario layer');
    refusesNumber(run.headScenario('[0, 1, 2]', 0, n), 'head', n, 'headScenario head');
    assert.ok(run.restore(n).startsWith(`snapshot: ${shown(n)} is not a whole number`), `restore(${n})`);
  }
  assert.equal(run.stepsDone(), 0, 'no refused call trained a step');
  run.delete();
}));

// A model file through the raw class: header length, header, data.
function openRaw(model, bytes) {
  model.begin('file', '', '');
  model.buffer(8).set(bytes.subarray(0, 8));
  const { length } = JSON.parse(model.headerLength(bytes.length));
  model.buffer(length).set(bytes.subarray(8, 8 + length));
  const info = JSON.parse(model.header(bytes.length));
  assert.ok(!('error' in info), info.error);
  const data = bytes.subarray(8 + length);
  model.buffer(data.length).set(data);
  assert.equal(JSON.parse(model.feed(0, data.length)).done, true);
}

const textGpt = readFileSync(join(root, 'tests', 'models', 'text-gpt.safetensors'));

test('Model: buffer(−1) is an empty view, not a thrown number; feed() with no load keeps the open model', () => leaksNothing(models, () => {
  const model = new models.Model();
  for (const n of bad) {
    let view;
    assert.doesNotThrow(() => { view = model.buffer(n); }, `buffer(${n})`);
    assert.equal(view.length, 0, `buffer(${n})`);
  }
  openRaw(model, textGpt);
  refuses(model.feed(0, 0), 'model: no file is being opened', 'feed with no load');
  assert.equal(model.ready(), true, 'the open model stays');
  assert.ok(!('error' in JSON.parse(model.run('[1, 2, 3]', 3, 1, 0, 1))));
  model.close();
  // before anything is open
  refuses(model.feed(0, 0), 'model: no file is being opened', 'feed before open');
  refuses(model.config(), 'model: nothing open', 'config');
  refuses(model.run('[1]', 1, 1, 0, 1), 'model: nothing open', 'run');
  refuses(model.traceJson(), 'model: nothing run', 'traceJson');
  refuses(model.headScenario(0, 0, 'x', ''), 'model: nothing run', 'headScenario');
  refuses(model.encode('ab'), 'model: nothing open', 'encode');
  refuses(model.decode('[1]'), 'model: nothing open', 'decode');
  refuses(model.generate('[1]', 1, 1, 0, 0, 1), 'model: nothing open', 'generate');
  empty(model.attention(0, 0), 'attention');
  empty(model.lastLogits(), 'lastLogits');
  assert.equal(model.prepare(1), 0);
  model.delete();
}));

test('Model: every count, index, size and seed is checked as a number, never wrapped', () => leaksNothing(models, () => {
  const model = new models.Model();
  openRaw(model, textGpt);
  assert.ok(!('error' in JSON.parse(model.run('[1, 2, 3]', 3, 1, 0, 1))));
  assert.ok(model.attention(0, 0).length > 0);
  for (const n of bad) {
    refuses(model.run('[1, 2, 3]', n, 1, 0, 1), `topK: ${shown(n)} is not a whole number from 1 to 100`, `run(…, ${n})`);
    empty(model.attention(n, 0), `attention(${n}, 0)`);
    empty(model.attention(0, n), `attention(0, ${n})`);
    refusesNumber(model.headScenario(n, 0, 'x', ''), 'layer', n, 'headScenario layer');
    refusesNumber(model.headScenario(0, n, 'x', ''), 'head', n, 'headScenario head');
    refusesNumber(model.generate('[1]', n, 1, 0, 0, 1), 'count', n, 'generate count');
    // top-k crosses as a double too: −1 would wrap to keep every token
    refusesNumber(model.generate('[1]', 1, 1, 0, n, 1), 'top_k', n, 'generate top_k');
    refusesNumber(model.temper(1, n, 1), 'top_k', n, 'temper top_k');
    assert.equal(model.prepare(n), 0);
  }
  for (const n of [-1, 1.5, NaN, 2 ** 53 + 2]) refusesNumber(model.generate('[1]', 1, 1, n, 0, 1), 'seed', n, 'generate seed');
  assert.equal(JSON.parse(model.generate('[1]', 2, 1, 2 ** 32, 0, 1)).length, 2, 'a seed of 2³² is a seed');
  // feed's byte count, while a file is being opened: refused, the load dropped
  for (const n of wrapping) {
    model.begin('file', '', '');
    model.buffer(8).set(textGpt.subarray(0, 8));
    const { length } = JSON.parse(model.headerLength(textGpt.length));
    model.buffer(length).set(textGpt.subarray(8, 8 + length));
    assert.ok(!('error' in JSON.parse(model.header(textGpt.length))));
    model.buffer(16);
    refusesNumber(model.feed(0, n), 'bytes', n, `feed(${n})`);
  }
  model.delete();
}));

test('temperature below the floor (0.001) is refused up front naming temperature', () => {
  const model = new models.Model();
  openRaw(model, textGpt);
  for (const t of [1e-38, 1e-40, 0.0009])
    refuses(model.generate('[1, 2]', 3, t, 0, 0, 1), `temperature: ${t} is below the floor of 0.001`, `temperature ${t}`);
  assert.equal(JSON.parse(model.generate('[1, 2]', 3, 0.001, 0, 0, 1)).length, 3, 'the floor itself samples');
  model.delete();
  const run = new trainer.Training();
  run.corpus('literature.txt', golden('literature.txt'));
  const file = JSON.parse(golden('text-bigram.json'));
  file.sample.temperature = 1e-40;
  assert.equal(run.load(JSON.stringify(file)), 'sample.temperature: 1e-40 is below the floor of 0.001 (the logits divided by it could overflow float32)');
  run.delete();
});

test('a lone surrogate in any text is refused naming the field, never glued to the next character', () => {
  const lone = ['\uD800', '\uDC00', '\uDBFF'];
  const session = new core.Session();
  for (const s of lone) {
    const message = session.load(`${s}${scenario}`);
    assert.ok(message.startsWith('scenario: not valid Unicode: a lone surrogate U+'), message);
  }
  assert.equal(session.load(scenario), '', 'a paired surrogate pair elsewhere is fine');
  refuses(session.explain(0, `weights${lone[0]}x`, 0, 0, 0), 'step: not valid Unicode: a lone surrogate U+D800 at character 7', 'explain step');
  session.delete();

  const run = new trainer.Training();
  run.corpus('literature.txt', golden('literature.txt'));
  assert.equal(run.load(golden('text-bigram.json')), '');
  for (const s of lone) refuses(run.encode(`th${s}e`), `text: not valid Unicode: a lone surrogate U+${s.charCodeAt(0).toString(16).toUpperCase()} at character 2`, 'encode');
  refuses(run.attend(`[0, 1${lone[1]}]`, 0, false), 'tokens: not valid Unicode', 'attend tokens');
  assert.ok(run.load(`${golden('text-bigram.json')} ${lone[0]}`).startsWith('training: not valid Unicode: a lone surrogate U+D800'));
  // a corpus given as a JS string with a lone surrogate: named when the file names it
  run.corpus('literature.txt', `${golden('literature.txt')}\uD800`);
  assert.match(run.load(golden('text-bigram.json')), /^task\.corpus: literature\.txt: not valid Unicode: a lone surrogate U\+D800 at character \d+/);
  // neither text nor bytes: named when the file names it, never a throw from inside Embind
  for (const given of [42, { length: 3 }, null]) {
    run.corpus('literature.txt', given);
    assert.equal(run.load(golden('text-bigram.json')), 'task.corpus: literature.txt: is neither text nor bytes');
  }
  run.delete();

  const model = new models.Model();
  openRaw(model, textGpt);
  for (const s of lone) refuses(model.encode(`a${s}b`), 'text: not valid Unicode: a lone surrogate', 'model encode');
  refuses(model.decode(`[1${lone[0]}]`), 'tokens: not valid Unicode', 'decode');
  refuses(model.run(`[1, 2${lone[2]}]`, 1, 1, 0, 1), 'tokens: not valid Unicode', 'run');
  refuses(model.generate(`[1${lone[0]}]`, 1, 1, 0, 0, 1), 'tokens: not valid Unicode', 'generate');
  assert.ok(!('error' in JSON.parse(model.run('[1, 2]', 1, 1, 0, 1))));
  refuses(model.headScenario(0, 0, `x${lone[0]}`, ''), 'name: not valid Unicode', 'headScenario name');
  refuses(model.headScenario(0, 0, 'x', `["a${lone[0]}", "b"]`), 'labels: not valid Unicode', 'headScenario labels');
  model.close();
  refuses(model.begin('file', `{"n_head": 2${lone[0]}}`, ''), 'config.json: not valid Unicode: a lone surrogate U+D800', 'open config');
  // a real pair is one character: 😀 reaches the core whole (refused as outside the vocabulary, not as a surrogate)
  openRaw(model, textGpt);
  const pair = JSON.parse(model.encode('a😀'));
  assert.ok(!String(pair.error ?? '').includes('surrogate'), pair.error);
  model.delete();
});
