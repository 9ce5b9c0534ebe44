// Training in the wasm build, in Node: two presets train as PyTorch trained
// them (training-v1.md's tolerances), bit for bit as the native core does
// (the CLI's trace, when the native build is there), snapshots restore the
// whole state, bad files are refused with the core's line, and 20 train and
// dispose cycles leave the heap where it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadEngine, ScenarioError } from '../../web/engine/engine.js';
import { loadModelEngine, openModel } from '../../web/engine/model.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const engine = await loadEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-train.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-train.wasm')),
});
const modelEngine = await loadModelEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-model.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-model.wasm')),
});
const golden = (name) => readFileSync(join(root, 'tests', 'golden-training', name), 'utf8');
const cli = join(root, 'build', 'native', 'attention-cli');

for (const id of ['previous-token', 'induction']) {
  test(`${id} trains in wasm as PyTorch trains it`, () => {
    const run = engine.training(golden(`${id}.json`));
    const text = run.traceJson();
    run.dispose();
    const got = JSON.parse(text);
    const want = JSON.parse(golden(`${id}.trace.json`));
    assert.deepEqual(got.probe, want.probe);
    assert.equal(got.loss.length, want.loss.length);
    const worst = Math.max(...got.loss.map((l, i) => Math.abs(l - want.loss[i])));
    assert.ok(worst <= 2e-5, `worst loss difference ${worst}`);
    assert.equal(got.evals.length, want.evals.length);
    got.evals.forEach((e, k) => {
      assert.ok(Math.abs(e.loss - want.evals[k].loss) <= 2e-5, `eval ${e.step} loss`);
      assert.ok(Math.abs(e.accuracy - want.evals[k].accuracy) <= 0.005, `eval ${e.step} accuracy`);
      const far = Math.max(...e.attention.data.map((v, i) => Math.abs(v - want.evals[k].attention.data[i])));
      assert.ok(far <= 5e-3, `eval ${e.step} attention ${far}`);
    });
    // native and wasm agree bit for bit: the same text from the CLI
    if (existsSync(cli)) assert.equal(text, execFileSync(cli, ['train', join(root, 'tests', 'golden-training', `${id}.json`)], { encoding: 'utf8' }));
  });
}

test('the info says the loss of guessing uniformly: ln V of the task\'s vocabulary', () => {
  for (const [id, V] of [['previous-token', 16], ['text-gpt', 81]]) {
    const run = engine.training(golden(`${id}.json`), { 'literature.txt': readFileSync(join(root, 'tests', 'golden-training', 'literature.txt'), 'utf8') });
    assert.equal(run.info.vocab, V);
    assert.ok(Math.abs(run.info.uniformLoss - Math.log(V)) < 1e-12, `${id}: ${run.info.uniformLoss}`);
    run.dispose();
  }
});

test('a snapshot restores the whole state: the same steps after it give the same losses', () => {
  const run = engine.training(golden('induction.json'));
  run.steps(50);
  const mark = run.snapshot();
  const first = run.steps(20);
  run.restore(mark);
  assert.equal(run.stepsDone, 50);
  assert.deepEqual(run.steps(20), first);
  assert.equal(run.evaluate().step, 70);
  assert.throws(() => run.restore(99), { name: 'ScenarioError', message: 'training: no snapshot 99' });
  run.dispose();
});

test('bad training files: the core\'s one line, as a ScenarioError', () => {
  const bad = JSON.parse(golden('induction.json'));
  bad.model.heads = 3;
  assert.throws(() => engine.training(bad), (e) => e instanceof ScenarioError && e.message === 'model.embed: 16 is not a multiple of model.heads (3)');
  assert.throws(() => engine.training('{"version": 1, "seed": 1e999}'), (e) => e instanceof ScenarioError && /not valid JSON at line 1/.test(e.message));
  assert.throws(() => engine.training('x'.repeat(70000)), ScenarioError);
});

test('20 train and dispose cycles leave the wasm heap where it was', () => {
  const cycle = () => {
    const run = engine.training(golden('previous-token.json'));
    run.steps(5);
    run.snapshot();
    run.evaluate();
    run.dispose();
  };
  cycle();
  const before = engine.heapInUse();
  for (let i = 0; i < 20; i++) cycle();
  assert.equal(engine.heapInUse(), before);
});

test('the file\'s own numbers in wasm\'s messages, never a 32-bit clamp; ids compared in 64 bits', () => {
  const base = JSON.parse(golden('previous-token.json'));
  const refused = (change, message) => {
    const file = structuredClone(base);
    change(file);
    assert.throws(() => engine.training(JSON.stringify(file)), { name: 'ScenarioError', message });
  };
  refused((f) => { f.model.embed = 4294967304; }, 'model.embed: 4294967304 is beyond the limit of 128');
  refused((f) => { f.model.heads = 4294967297; }, 'model.heads: 4294967297 is beyond the limit of 8');
  refused((f) => { f.train.steps = 4294967396; }, 'train.steps: 4294967396 is beyond the limit of 100000');
  refused((f) => { f.eval.every = 4294967297; }, 'eval.every: 4294967297 is beyond the limit of 100000');
  refused((f) => { f.task = { name: 'induction', tokens: 8, length: 16, period: [3, 4294967299] }; },
    'task.period: [3, 4294967299] must satisfy 1 ≤ lo ≤ hi ≤ task.tokens (8)');

  const run = engine.training(golden('previous-token.json'));
  const V = run.info.vocab;
  for (const id of [4294967299, 9007199254740992, -1, V])
    assert.throws(() => run.attend([id]), { name: 'ScenarioError', message: `tokens[0]: ${id} is not a token of this task (0 to ${V - 1})` });
  // past int64 (the raw binding: JSON.stringify cannot write it), as written, not wrapped negative
  assert.equal(JSON.parse(run.run.attend('[1, 18446744073709551615]', 0, false)).error,
    `tokens[1]: 18446744073709551615 is not a token of this task (0 to ${V - 1})`);
  assert.equal(run.attend([1, 2]).predictions.length, 2);
  run.dispose();
});

test('every hostile training file: the native line in wasm too, and a diverging run keeps its steps', () => {
  const dir = join(root, 'tests', 'fuzz', 'training', 'regressions');
  const native = (command, file) => {
    try {
      execFileSync(cli, [command, join(dir, file)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return '';
    } catch (error) {
      return error.stderr.trim();
    }
  };
  let files = 0;
  for (const file of readdirSync(dir)) {
    const text = readFileSync(join(dir, file), 'utf8');
    files++;
    if (file === 'diverges.json') {
      const run = engine.training(text);
      const losses = [];
      let message = '';
      try {
        for (let i = 0; i < 300; i++) losses.push(...run.steps(1));
      } catch (error) {
        message = error.message;
      }
      assert.match(message, /^training diverged at step \d+: .* train\.weight_decay/);
      const step = Number(message.match(/step (\d+)/)[1]);
      assert.equal(losses.length, step - 1, 'every step before the one that diverged is kept');
      assert.ok(losses.every(Number.isFinite));
      if (existsSync(cli)) assert.equal(message, native('train', file));
      run.dispose();
      continue;
    }
    let message = '';
    try {
      engine.training(text).dispose();
    } catch (error) {
      assert.ok(error instanceof ScenarioError, file);
      message = error.message;
    }
    assert.ok(message && !message.includes('\n'), `${file}: refused with one line`);
    if (existsSync(cli) && file !== 'over-64-kib.json') assert.equal(message, native('validate', file), file);
  }
  assert.ok(files >= 10);
});

// The lecture's ladder (gpt-v1.md): a prefix of each rung, its corpus given
// inline (the wasm module reads no files), against the native CLI on the
// same file: the very same text, GELU's rungs included (the core computes
// erf itself, as PyTorch's kernels do, rather than take glibc's or musl's).
test('the ladder trains in wasm as natively, bit for bit, and as PyTorch within the spec', () => {
  const corpus = readFileSync(join(root, 'tests', 'golden-training', 'literature.txt'), 'utf8');
  for (const id of ['text-bigram', 'text-one-head', 'text-four-heads', 'text-mlp', 'text-gpt']) {
    const file = JSON.parse(golden(`${id}.json`));
    file.task = { name: 'text', text: corpus, length: file.task.length };
    file.train.steps = 40;
    file.eval.every = 20;
    const text = JSON.stringify(file);
    const run = engine.training(text);
    const got = JSON.parse(run.traceJson());
    run.dispose();
    assert.equal(got.evals.length, 3, id);
    assert.equal(got.vocab_chars.length, 81, id);
    // the golden trace's first 40 losses and its step-0 sample: PyTorch's own
    const want = JSON.parse(golden(`${id}.trace.json`));
    const worst = Math.max(...got.loss.map((l, i) => Math.abs(l - want.loss[i])));
    assert.ok(worst <= 2e-5, `${id}: worst loss difference ${worst}`);
    assert.equal(got.evals[0].sample, want.evals[0].sample, `${id}: step 0's sample`);
    if (!existsSync(cli)) continue;
    const dir = mkdtempSync(join(tmpdir(), 'ladder-'));
    writeFileSync(join(dir, `${id}.json`), text);
    const native = execFileSync(cli, ['train', join(dir, `${id}.json`)], { encoding: 'utf8', maxBuffer: 1 << 28 });
    rmSync(dir, { recursive: true });
    assert.equal(JSON.stringify(got), JSON.stringify(JSON.parse(native)), `${id}: bit for bit`);
  }
});

test('a text preset names its corpus; the page gives the corpora, and a missing one is the core\'s line', () => {
  const corpus = readFileSync(join(root, 'tests', 'golden-training', 'literature.txt'), 'utf8');
  const file = golden('text-gpt.json');
  const run = engine.training(file, { 'literature.txt': corpus });
  assert.equal(run.info.vocab_chars.length, 81);
  assert.deepEqual([run.info.mlp, run.info.norm, run.info.bias, run.info.activation, run.info.samples], [4, true, true, 'gelu', true]);
  const first = run.evaluate();
  assert.equal(first.sample, JSON.parse(golden('text-gpt.trace.json')).evals[0].sample);  // step 0's sample: PyTorch's
  run.dispose();
  assert.throws(() => engine.training(file), { name: 'ScenarioError', message: 'task.corpus: "literature.txt" is not one of this page\'s corpora' });
  assert.throws(() => engine.training(file, { 'literature.txt': 'abc' }),
    { name: 'ScenarioError', message: /^task\.length: 32 is not shorter than each split of the corpus/ });
});

// The page's text training: the learner's text reaches the core as bytes
// (a file opened from disk) or inside the file (pasted), and the core alone
// says what is wrong with it; under the probe, each position's top guesses.
test('a corpus as bytes: refused by the core when it is not UTF-8, too large or too short; accepted otherwise', () => {
  const corpus = readFileSync(join(root, 'tests', 'golden-training', 'literature.txt'));
  const file = (name) => { const f = JSON.parse(golden('text-bigram.json')); f.task.corpus = name; return JSON.stringify(f); };
  const run = engine.training(file('mine.txt'), { 'mine.txt': new Uint8Array(corpus) });
  assert.equal(run.info.vocab_chars.length, 81);
  assert.deepEqual(run.info.corpus, { train: 48228, val: 5359 });
  assert.equal(run.info.lr, 0.001);
  run.dispose();
  const broken = new Uint8Array(corpus);
  broken[1000] = 0xff;  // one byte that no UTF-8 text holds
  assert.throws(() => engine.training(file('mine.txt'), { 'mine.txt': broken }),
    { name: 'ScenarioError', message: 'task.corpus: mine.txt: not valid UTF-8 (byte 1000)' });
  assert.throws(() => engine.training(file('mine.txt'), { 'mine.txt': new Uint8Array((4 << 20) + 1).fill(97) }),
    { name: 'ScenarioError', message: 'task.corpus: mine.txt has 4194305 bytes, beyond the limit of 4194304' });
  assert.throws(() => engine.training(file('mine.txt'), { 'mine.txt': new TextEncoder().encode('short text') }),
    { name: 'ScenarioError', message: /^task\.length: 32 is not shorter than each split of the corpus \(9 and 1 characters/ });
  // pasted: the text inside the file, whose limit is 64 KiB
  const pasted = JSON.parse(golden('text-bigram.json'));
  pasted.task = { name: 'text', text: 'ab'.repeat(40000), length: 32 };
  assert.throws(() => engine.training(JSON.stringify(pasted)), { name: 'ScenarioError', message: /^training: \d+ bytes exceed the limit of 65536$/ });
  assert.throws(() => engine.training(file('mine.txt'), { 'mine.txt': 42 }), { name: 'ScenarioError' });
});

test('the top next-character guesses per probe position, from the core, and the learner\'s text as ids', () => {
  const corpus = readFileSync(join(root, 'tests', 'golden-training', 'literature.txt'), 'utf8');
  const run = engine.training(golden('text-one-head.json'), { 'literature.txt': corpus });
  run.steps(20);
  const plain = run.evaluate();
  assert.equal(plain.top, undefined, 'not asked for: the trace\'s evaluation');
  const e = run.evaluate({ top: 3 });
  assert.equal(e.loss, plain.loss);
  assert.equal(e.top.length, 32);
  e.top.forEach((guesses, t) => {
    assert.equal(guesses.length, 3);
    assert.equal(guesses[0][0], e.predictions[t], 'the most probable is the prediction');
    assert.ok(guesses[0][1] >= guesses[1][1] && guesses[1][1] >= guesses[2][1], 'most probable first');
    assert.ok(guesses.every(([id, p]) => Number.isInteger(id) && id >= 0 && id < 81 && p > 0 && p <= 1));
  });
  const ids = run.encode('To be, or\n');
  assert.equal(ids.map((id) => run.info.vocab_chars[id]).join(''), 'To be, or\n');
  const mine = run.attend(ids, { top: 3 });
  assert.equal(mine.top.length, ids.length);
  assert.deepEqual(mine.attention.shape, [1, 1, ids.length, ids.length]);
  assert.throws(() => run.encode('x'.repeat(33)), { name: 'ScenarioError', message: 'text: expected 1 to 32 characters, got 33' });
  assert.throws(() => run.encode('caf\u00e9'), { name: 'ScenarioError', message: 'text: character 3 ("\u00e9") is not in the corpus\'s vocabulary' });
  // a lone surrogate (no keyboard types one): refused by the glue naming the
  // field (wasm/text.hpp), never glued by Embind into a made-up character
  assert.throws(() => run.encode('\ud800'), { name: 'ScenarioError', message: 'text: not valid Unicode: a lone surrogate U+D800 at character 0 (UTF-16 code units, from 0)' });
  run.dispose();
  const toy = engine.training(golden('previous-token.json'));
  assert.throws(() => toy.encode('ab'), { name: 'ScenarioError', message: 'text: this task\'s tokens are ids, not characters' });
  toy.dispose();
});

test('the heads\' scores and the probe\'s pattern cells come from the core, asked for only', () => {
  const run = engine.training(golden('induction.json'));
  assert.equal(run.evaluate().scores, undefined, 'the trace\'s evaluation has none');
  const before = run.evaluate({ scores: true });
  assert.equal(before.patterns.previous.length, 15);
  assert.deepEqual(before.patterns.previous[0], [1, 0]);
  assert.ok(before.patterns.induction.every(([i, j]) => j < i && run.info.probe.tokens[j - 1] === run.info.probe.tokens[i]), 'each cell follows an earlier copy');
  assert.equal(before.scores.length, 2);
  run.steps(400);
  const after = run.evaluate({ scores: true });
  assert.ok(after.scores[1].induction > 0.9, `layer 1's induction score ${after.scores[1].induction}`);
  assert.ok(after.scores.every((s) => s.previous >= 0 && s.previous <= 1 && s.induction >= 0 && s.induction <= 1));
  const mine = run.attend([1, 2, 3, 1, 2, 3], { scores: true });
  assert.deepEqual(mine.patterns.induction, [[3, 1], [4, 2], [5, 3]]);
  assert.equal(run.attend([1, 2, 3, 4]).scores, undefined);
  assert.equal(run.attend([1, 2, 3, 4], { scores: true }).scores[0].induction, null, 'nothing repeats: no induction score');
  run.dispose();
});

// "Inspect what you trained": the weights as they stand, as the model file
// the CLI's train --model writes, opened by the Model view's own loader.
for (const [id, steps] of [['induction', 30], ['text-one-head', 10]]) {
  test(`${id}: modelFile() after ${steps} steps is the CLI's model file, and the Model view opens it`, async () => {
    const file = JSON.parse(golden(`${id}.json`));
    file.train.steps = steps;
    const corpora = file.task.corpus ? { [file.task.corpus]: golden(file.task.corpus) } : {};
    const run = engine.training(file, corpora);
    run.steps(steps);
    assert.equal(run.stepsDone, steps);
    const bytes = run.run.modelFile();
    assert.ok(bytes instanceof Uint8Array, `a Uint8Array, not ${bytes}`);
    assert.equal(bytes.buffer.byteLength, bytes.length, 'its own copy, not a view of the module\'s memory');
    if (existsSync(cli)) {
      const dir = mkdtempSync(join(tmpdir(), 'model-file-'));
      try {
        writeFileSync(join(dir, `${id}.json`), JSON.stringify(file));
        for (const [name, text] of Object.entries(corpora)) writeFileSync(join(dir, name), text);
        execFileSync(cli, ['train', join(dir, `${id}.json`), '--model', join(dir, 'trained.safetensors')], { stdio: 'ignore' });
        assert.ok(Buffer.from(bytes).equals(readFileSync(join(dir, 'trained.safetensors'))), 'byte for byte the CLI\'s file');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const model = await openModel(new Blob([bytes]), { engine: modelEngine, name: `${id}.safetensors` });
    assert.equal(model.config.layers, run.info.layers);
    assert.equal(model.config.heads, run.info.heads);
    assert.equal(model.config.vocab, run.info.vocab);
    // the same weights: the opened model attends as the training run does
    const tokens = run.info.probe.tokens;
    const trained = run.attend(tokens);
    const opened = model.run(tokens);
    assert.deepEqual(opened.attention.shape, trained.attention.shape);
    const far = Math.max(...trained.attention.data.map((v, i) => Math.abs(v - opened.attention.data[i])));
    assert.ok(far <= 1e-5, `attention differs by ${far}`);
    const scores = model.lens({ what: 'scores', tokens });
    assert.equal(scores.heads.length, run.info.layers * run.info.heads);
    model.dispose();
    run.dispose();
  });
}

test('modelFile() before a training is loaded: the class\'s one line', () => {
  const raw = new engine.module.Training();
  assert.deepEqual(JSON.parse(raw.modelFile()), { error: 'training: nothing loaded' });
  raw.delete();
});
