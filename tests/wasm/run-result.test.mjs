// A model's run crosses from wasm as one answer (wasm/run_result.hpp): one
// Embind call per LoadedModel.run and per temper, whatever the number of
// heads; the answer lists in `transfer` exactly the buffers of its typed
// arrays, which the worker moves to the page; and run() and attention(l, h)
// stay thin bindings over the same run.
//   node --test tests/wasm/run-result.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { openModel } from '../../web/engine/model.js';
import { engine, modelCalls, root } from './model-support.mjs';

const open = (name) => openModel(new Blob([readFileSync(join(root, 'tests', 'models', `${name}.safetensors`))]), { engine });

// The typed arrays anywhere in `value` but its `transfer` lists.
function typedArrays(value, found = []) {
  if (ArrayBuffer.isView(value)) found.push(value);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) if (key !== 'transfer') typedArrays(inner, found);
  }
  return found;
}

// `transfer` names each typed array's buffer once, and nothing else.
function transfersItsArrays(answer, what) {
  const buffers = typedArrays(answer).map((a) => a.buffer);
  assert.ok(Array.isArray(answer.transfer), `${what}: a transfer list`);
  assert.equal(new Set(answer.transfer).size, answer.transfer.length, `${what}: each buffer once`);
  assert.equal(new Set(buffers).size, buffers.length, `${what}: every typed array has a buffer of its own`);
  assert.deepEqual(new Set(answer.transfer), new Set(buffers), `${what}: transfer is exactly the typed arrays' buffers`);
}

for (const [name, L, H] of [['text-gpt', 2, 4], ['hf-bf16-3-layers', 3, 8]]) {
  test(`${name}: a run of ${L} × ${H} heads is one Embind call, its answer naming its buffers`, async () => {
    const model = await open(name);
    assert.deepEqual([model.config.layers, model.config.heads], [L, H]);
    const tokens = [1, 2, 3, 4, 5, 6, 7];
    const { result: run, calls } = await modelCalls(() => model.run(tokens, { temperature: 0.7, warpers: { topK: 5 } }));
    assert.deepEqual(calls, { runResult: 1 }, 'no call per head, no getter after the run');
    assert.deepEqual(run.attention.shape, [L, H, tokens.length, tokens.length]);
    assert.deepEqual(run.tokens, tokens);
    transfersItsArrays(run, 'run');
    transfersItsArrays(run.tempered, 'run.tempered');
    assert.equal(run.transfer.length, 10, 'attention, the guesses\' two, the last logits, the six tempered arrays');

    // the thin bindings read the same run
    const T = tokens.length;
    for (let l = 0; l < L; l++) {
      for (let h = 0; h < H; h++) {
        const at = (l * H + h) * T * T;
        assert.deepEqual([...model.model.attention(l, h)], [...run.attention.data.subarray(at, at + T * T)], `head ${l}.${h}`);
      }
    }
    assert.deepEqual([...model.model.lastLogits()], [...run.last.logits]);
    const summary = JSON.parse(model.model.run(JSON.stringify(tokens), 10, 0.7, 5, 1));
    assert.deepEqual(summary, { length: T, topK: 10, loss: run.loss });

    const { result: tempered, calls: temperCalls } = await modelCalls(() => model.temper(1.5, { topP: 0.9 }));
    assert.deepEqual(temperCalls, { temperResult: 1 });
    transfersItsArrays(tempered, 'temper');
    assert.equal(tempered.transfer.length, 6);
    assert.deepEqual([tempered.temperature, tempered.topK, tempered.topP, tempered.k], [1.5, 0, 0.9, 10]);
    model.dispose();
  });
}

test('a refused run is one {error} answer, thrown as the core\'s line; guessesAt names its logits\' buffer', async () => {
  const model = await open('text-gpt');
  assert.equal(model.model.runResult('[1, 81]', 10, 1, 0, 1).error, 'tokens[1]: 81 is outside [0, 81)');
  assert.throws(() => model.run([1, 81]), { name: 'ModelError', message: 'tokens[1]: 81 is outside [0, 81)' });
  assert.equal(model.model.temperResult(1, 0, 1).error, 'model: nothing run');
  model.run([1, 2, 3]);
  const guesses = model.guessesAt(1);
  transfersItsArrays(guesses, 'guessesAt');
  model.dispose();
});

test('a run carries its heads\' scores, and guessesAt is one call: nothing to ask after a run', async () => {
  const model = await open('text-gpt');
  const tokens = [1, 2, 3, 1, 2, 3];
  const { result: run, calls } = await modelCalls(() => model.run(tokens));
  assert.deepEqual(calls, { runResult: 1 });
  assert.deepEqual(run.scores, model.headScores(), 'the scores headScores() gives on the same run');
  assert.equal(run.scores.length, 2 * 4);
  assert.deepEqual(run.scores.map(({ layer, head }) => `${layer}.${head}`).slice(0, 5), ['0.0', '0.1', '0.2', '0.3', '1.0']);
  const { result: guesses, calls: guessCalls } = await modelCalls(() => model.guessesAt(2));
  assert.deepEqual(guessCalls, { guessesAt: 1 });
  assert.equal(guesses.position, 2);
  assert.equal(guesses.top.length, 10);
  assert.equal(guesses.logits.length, model.config.vocab);
  assert.throws(() => model.guessesAt(6), { name: 'ModelError' });
  model.dispose();
});
