// The models' wasm module in Node, through web/engine/model.js as the Model
// view's worker uses it: every model of tests/models streamed in (whole, and
// in odd chunks) matches PyTorch's model trace and the native CLI's text;
// the head scenario, the guesses after every position, encode, decode,
// generate and config.json overrides; every hostile file refused with its
// line, the module usable after, and the heap where it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadModelEngine, ModelError, openModel } from '../../web/engine/model.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const engine = await loadModelEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-model.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-model.wasm')),
});
const cli = join(root, 'build', 'native', 'attention-cli');
const models = ['hf-bf16-3-layers', 'hf-f32', 'nano-f16-nobias', 'nano-tied-bias', 'text-gpt'];
const modelFile = (name) => join(root, 'tests', 'models', `${name}.safetensors`);
const blob = (path) => new Blob([readFileSync(path)]);
const golden = (file) => JSON.parse(readFileSync(join(root, 'tests', 'golden-models', file), 'utf8'));
const open = (source, options = {}) => openModel(source, { engine, ...options });

function largest(a, b) {
  assert.equal(a.length, b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

for (const name of models) {
  test(`${name}: streamed in, its model trace is PyTorch's (and the native CLI's text)`, async () => {
    const want = golden(`${name}.trace.json`);
    const model = await open(blob(modelFile(name)), { name: `${name}.safetensors` });
    assert.deepEqual(model.config, want.config);
    const run = model.run(want.tokens);
    assert.deepEqual(run.attention.shape, want.attention.shape);
    assert.ok(largest(run.attention.data, want.attention.data) <= 1e-4, 'attention within 1e-4');
    const logits = want.last.logits.data;
    assert.ok([...run.last.logits].every((x, i) => Math.abs(x - logits[i]) <= 1e-4 + 1e-4 * Math.abs(logits[i])), 'logits');
    assert.deepEqual(run.last.top.map(([id]) => id), want.last.top.map(([id]) => id));
    assert.ok(Math.abs(run.loss - want.loss) <= 1e-5, `loss ${run.loss} against ${want.loss}`);
    // the same model in 1,000-byte chunks, read 3,000 bytes at a time into
    // reused buffers: the same numbers, bit for bit
    const chunked = await open(blob(modelFile(name)), { chunkBytes: 1000, readBytes: 3000 });
    chunked.run(want.tokens);
    const text = model.traceJson();
    assert.equal(chunked.traceJson(), text);
    chunked.dispose();
    // wasm writes the native build's very text when it is there
    if (existsSync(cli)) {
      const native = execFileSync(cli, ['model', modelFile(name), '--tokens', want.tokens.join(',')], { encoding: 'utf8' });
      assert.equal(text, native);
    }
    model.dispose();
  });
}

test('the guesses after every position, and a head as a scenario', async () => {
  const model = await open(blob(modelFile('text-gpt')), { name: 'text-gpt.safetensors' });
  assert.equal(model.tokenizer, 'characters');
  assert.equal(model.info.vocabulary.length, 81);
  const tokens = model.encode('To be, or not to be');
  assert.deepEqual(tokens, golden('text-gpt.trace.json').tokens);
  assert.equal(model.decode(tokens), 'To be, or not to be');
  const run = model.run(tokens, { topK: 12 });
  assert.equal(run.top.k, 12);
  assert.equal(run.top.ids.length, tokens.length * 12);
  assert.ok(run.top.probabilities[0] >= run.top.probabilities[1]);
  assert.deepEqual(run.last.top.map(([id]) => id), [...run.top.ids.slice((tokens.length - 1) * 12, (tokens.length - 1) * 12 + 10)]);
  const head = model.headScenario(1, 2);  // of the last run
  const want = golden('text-gpt.head.json');
  assert.equal(head.id, 'text-gpt-layer-1-head-2');
  assert.deepEqual(head.tokens, want.tokens);
  assert.deepEqual(head.tensors.map((t) => t.name), want.tensors.map((t) => t.name));
  assert.deepEqual(model.headScenario(0, 0, { labels: tokens.map((_, i) => `t${i}`) }).tokens.slice(0, 2), ['t0', 't1']);
  assert.throws(() => model.headScenario(2, 0), { name: 'ModelError', message: '--layer: 2 is outside [0, 2)' });
  // after a shorter prefix, the same guesses at the same positions
  const prefix = model.run(tokens.slice(0, 5), { topK: 12 });
  assert.deepEqual([...prefix.top.ids], [...run.top.ids.slice(0, 5 * 12)]);
  assert.equal(model.headScenario(0, 0).tokens.length, 5);
  model.dispose();
});

test('every head\'s scores on the last run, and what the file\'s parameter count holds', async () => {
  const model = await open(blob(modelFile('text-gpt')), { name: 'text-gpt.safetensors' });
  assert.throws(() => model.headScores(), { name: 'ModelError', message: 'model: nothing run' });
  // text-gpt's file: its trained weights and 2 layers × 64 zero key biases
  assert.deepEqual(model.parameterCounts(), { file: 112593, zeroKeyBiases: 128, others: 112465 });
  const tokens = model.encode('To be, or not to be');
  const run = model.run(tokens);
  const scores = model.headScores();
  const T = tokens.length;
  assert.deepEqual(scores.map((s) => `${s.layer}.${s.head}`), ['0.0', '0.1', '0.2', '0.3', '1.0', '1.1', '1.2', '1.3']);
  scores.forEach((s, k) => {
    // a previous-token score: the mean weight on (i, i − 1)
    let sum = 0;
    for (let i = 1; i < T; i++) sum += run.attention.data[k * T * T + i * T + i - 1];
    assert.ok(Math.abs(s.previous - sum / (T - 1)) < 1e-6, `head ${k}`);
    assert.equal(typeof s.induction, 'number', '"to be" repeats: an induction score');
  });
  model.run(model.encode('abc'));
  assert.ok(model.headScores().every((s) => s.induction === null), 'no token repeats: no induction score');
  model.dispose();
  const nobias = await open(blob(modelFile('nano-f16-nobias')));
  assert.equal(nobias.parameterCounts().zeroKeyBiases, 0);
  assert.equal(nobias.parameterCounts().others, nobias.parameters);
  nobias.dispose();
});

test('generate: the seed decides the tokens; errors are the core\'s lines', async () => {
  const model = await open(blob(modelFile('text-gpt')));
  const prompt = model.encode('To be');
  const a = model.generate(prompt, 30, { temperature: 0.8, seed: 7 });
  assert.equal(a.length, 30);
  assert.deepEqual(model.generate(prompt, 30, { temperature: 0.8, seed: 7 }), a);
  assert.notDeepEqual(model.generate(prompt, 30, { temperature: 0.8, seed: 8 }), a);
  assert.throws(() => model.generate(prompt, 3, { temperature: 0 }), { name: 'ModelError', message: 'temperature: expected a number > 0 that fits in float32, got 0' });
  assert.throws(() => model.encode('To bé'), { name: 'ModelError', message: 'text: character "é" at position 4 is not in the vocabulary' });
  assert.throws(() => model.run([]), { name: 'ModelError', message: 'tokens: empty' });
  assert.throws(() => model.run([1, 81]), { name: 'ModelError', message: 'tokens[1]: 81 is outside [0, 81)' });
  assert.throws(() => model.run([1, 2 ** 64]), { name: 'ModelError' });
  assert.throws(() => model.run(new Array(33).fill(1)), { name: 'ModelError', message: "tokens: 33 tokens, the model's wpe.weight holds 32 positions" });
  assert.throws(() => model.run([1], { topK: 1000 }), { name: 'ModelError', message: 'topK: 1000 is not a whole number from 1 to 100' });
  model.dispose();
});

test('the guesses at a temperature are the core\'s: at 1 the run\'s own, else softmax(logits / T) with the own beside', async () => {
  const model = await open(blob(modelFile('text-gpt')));
  assert.throws(() => model.temper(0.5), { name: 'ModelError', message: 'model: nothing run' });
  const tokens = model.encode('To be, or not');
  const T = tokens.length;
  const run = model.run(tokens);
  // temperature 1 by default: run.top's numbers, bit for bit
  assert.equal(run.tempered.temperature, 1);
  assert.equal(run.tempered.k, 10);
  assert.deepEqual([...run.tempered.ids], [...run.top.ids]);
  assert.deepEqual([...run.tempered.probabilities], [...run.top.probabilities]);
  assert.deepEqual([...run.tempered.own], [...run.top.probabilities]);
  // after the last token, softmax(logits / T) as the test computes it in double
  const softmax = (logits, t) => {
    const scaled = Array.from(logits, (x) => Math.fround(x / Math.fround(t)));
    const max = Math.max(...scaled);
    const e = scaled.map((x) => Math.exp(x - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  };
  const own = softmax(run.last.logits, 1);
  const first = run.tempered.probabilities[(T - 1) * 10];
  for (const t of [0.1, 0.5, 2, 5]) {
    const tempered = model.temper(t);
    assert.equal(tempered.k, 10);
    assert.equal(tempered.ids.length, T * 10);
    const want = softmax(run.last.logits, t);
    for (let n = 0; n < 10; n++) {
      const at = (T - 1) * 10 + n;
      const id = tempered.ids[at];
      assert.ok(Math.abs(tempered.probabilities[at] - want[id]) <= 1e-6, `T ${t}, id ${id}: ${tempered.probabilities[at]} against ${want[id]}`);
      assert.ok(Math.abs(tempered.own[at] - own[id]) <= 1e-6, `own of id ${id}`);
      if (n) assert.ok(tempered.probabilities[at - 1] >= tempered.probabilities[at], 'most probable first');
    }
    // below 1 the likeliest token gains, above 1 it loses
    assert.ok(t < 1 ? tempered.probabilities[(T - 1) * 10] > first : tempered.probabilities[(T - 1) * 10] < first, `T ${t}`);
  }
  // a run at a temperature carries that temperature's guesses
  const cold = model.run(tokens, { temperature: 0.5 });
  assert.deepEqual([...cold.tempered.probabilities], [...model.temper(0.5).probabilities]);
  // made in the run's own pass over the logits: every array temper() makes again, bit for bit
  const warpers = { topK: 3, topP: 0.8 };
  const cut = model.run(tokens, { temperature: 1.3, warpers });
  const again = model.temper(1.3, warpers);
  assert.deepStrictEqual(cut.tempered, again);
  assert.ok([...cut.tempered.kept].includes(0), 'the warpers cut some guesses');
  assert.throws(() => model.run(tokens, { temperature: 0 }), { name: 'ModelError', message: 'temperature: expected a number > 0 that fits in float32, got 0' });
  assert.deepStrictEqual(model.temper(1.3, warpers), again, 'a refused run leaves the last run as it was');
  for (const bad of [0, -1, Number.NaN, 1e39])
    assert.throws(() => model.temper(bad), { name: 'ModelError', message: /^temperature: expected a number > 0 that fits in float32, got / });
  model.dispose();
});

test("a Hugging Face config.json overrides the file's metadata, or is refused in one line", async () => {
  const model = await open(blob(modelFile('hf-f32')), { config: JSON.stringify({ model_type: 'gpt2', n_head: 6, layer_norm_epsilon: 1e-5 }) });
  assert.equal(model.config.heads, 6);
  model.dispose();
  await assert.rejects(open(blob(modelFile('hf-f32')), { config: '{"layer_norm_epsilon": 1e-6}' }),
    { name: 'ModelError', message: "config.layer_norm_epsilon: 1e-06, but the core's LayerNorm uses eps 1e-5 (gpt-v1.md)" });
  await assert.rejects(open(blob(modelFile('hf-f32')), { config: '{"activation_function": "silu"}' }), { name: 'ModelError' });
});

test('a fetch Response streams in as a File does, a byte stream or not', async () => {
  const bytes = readFileSync(modelFile('nano-f16-nobias'));
  const response = new Response(new Blob([bytes]).stream(), { headers: { 'content-length': String(bytes.length) } });
  const model = await open(response);
  assert.equal(model.config.parameters, 7040);
  model.dispose();
  // a stream of chunks that is not a byte stream (copied into the reader's
  // buffers), in odd pieces and read 3,000 bytes at a time: the buffers are
  // reused while the core takes them and the weights come out the same
  const tokens = golden('text-gpt.trace.json').tokens;
  const text = readFileSync(modelFile('text-gpt'));
  const pieces = new ReadableStream({
    start(controller) {
      for (let at = 0; at < text.length; at += 777) controller.enqueue(text.slice(at, at + 777));
      controller.close();
    },
  });
  const chunked = await open(new Response(pieces, { headers: { 'content-length': String(text.length) } }),
    { readBytes: 3000, chunkBytes: 1000 });
  const whole = await open(blob(modelFile('text-gpt')));
  chunked.run(tokens);
  whole.run(tokens);
  assert.equal(chunked.traceJson(), whole.traceJson());
  chunked.dispose();
  whole.dispose();
});

test('a Response of unknown size (no Content-Length, or gzip-encoded) is read as far as its header declares, and no further', async () => {
  const bytes = readFileSync(modelFile('nano-f16-nobias'));
  const headerLength = Number(bytes.readBigUInt64LE(0));
  // no Content-Length: the header says how much data follows
  const model = await open(new Response(new Blob([bytes]).stream()));
  assert.equal(model.config.parameters, 7040);
  model.dispose();
  // gzip-encoded: Content-Length is what was sent, not the file (a body fetch has decoded)
  const encoded = await open(new Response(new Blob([bytes]).stream(), { headers: { 'content-length': '100', 'content-encoding': 'gzip' } }));
  assert.equal(encoded.config.parameters, 7040);
  encoded.dispose();
  // a body that goes on past what its header declares, or stops short of it: refused
  await assert.rejects(open(new Response(new Blob([bytes, new Uint8Array(5)]).stream())),
    { name: 'ModelError', message: `model: the file goes on past the ${bytes.length} bytes its header declares` });
  await assert.rejects(open(new Response(new Blob([bytes.subarray(0, bytes.length - 3)]).stream())),
    { name: 'ModelError', message: `model: the file ended after ${bytes.length - 8 - headerLength - 3} of its ${bytes.length - 8 - headerLength} bytes of data` });
  await assert.rejects(open(new Response(new Blob([bytes.subarray(0, 8 + headerLength - 1)]).stream())),
    { name: 'ModelError', message: `header: the file ended after ${headerLength - 1} of the header's ${headerLength} bytes` });
});

test('every hostile model file is refused with its line; the module stays usable and the heap where it was', async () => {
  const folder = join(root, 'tests', 'fuzz', 'model');
  const expected = JSON.parse(readFileSync(join(folder, 'hostile.json'), 'utf8'));
  const files = readdirSync(join(folder, 'regressions'));
  assert.equal(files.length, Object.keys(expected).length);
  const refuseAll = async () => {
    for (const file of files) {
      await assert.rejects(open(blob(join(folder, 'regressions', file)), { chunkBytes: 333 }),
        (e) => e instanceof ModelError && e.message === expected[file], file);
    }
  };
  await refuseAll();
  const before = engine.heapInUse();
  await refuseAll();
  assert.equal(engine.heapInUse(), before);
  // usable after all of them
  const model = await open(blob(modelFile('hf-f32')));
  assert.equal(model.run([1, 2, 3]).attention.shape[3], 3);
  model.dispose();
  assert.equal(engine.heapInUse(), before);
});

test('20 open, run and dispose cycles leave the heap where it was', async () => {
  const cycle = async () => {
    const model = await open(blob(modelFile('nano-tied-bias')));
    model.run([1, 2, 3, 4]);
    model.headScenario(0, 1);
    model.generate([1], 3);
    model.dispose();
  };
  await cycle();
  const before = engine.heapInUse();
  for (let i = 0; i < 20; i++) await cycle();
  assert.equal(engine.heapInUse(), before);
});
