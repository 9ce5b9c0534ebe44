// Top-k and top-p in the models' wasm module, through web/engine/model.js as
// the Model view's worker uses it: Generate's tokens are PyTorch's
// (tests/fixtures/sampling.json, make_sampling.py: transformers' warpers
// after the temperature, gpt-v1's draw on a seeded torch.Generator), the
// guesses mark kept exactly the tokens PyTorch kept, with its probabilities
// after the cut (within 1e-6, as model.test.mjs its tempered ones), and a bad top-k or
// top-p is refused in one line naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadModelEngine, openModel } from '../../web/engine/model.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const engine = await loadModelEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-model.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-model.wasm')),
});
const fixture = JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'sampling.json'), 'utf8'));
const textGpt = () => openModel(new Blob([readFileSync(join(root, fixture.model))]), { engine });

test('generate with top-k and top-p: the very tokens PyTorch samples', async () => {
  const model = await textGpt();
  assert.ok(fixture.cases.length >= 8);
  for (const c of fixture.cases) {
    const got = model.generate(model.encode(c.prompt), c.count, { temperature: c.temperature, seed: c.seed, topK: c.top_k, topP: c.top_p });
    assert.deepEqual(got, c.tokens, `T ${c.temperature}, top_k ${c.top_k}, top_p ${c.top_p}`);
  }
  model.dispose();
});

test('the guesses after the prompt mark kept the tokens PyTorch keeps, and how many', async () => {
  const model = await textGpt();
  const V = model.config.vocab;
  for (const c of fixture.cases) {
    const tokens = model.encode(c.prompt);
    const T = tokens.length;
    const run = model.run(tokens, { topK: 100, temperature: c.temperature, warpers: { topK: c.top_k, topP: c.top_p } });
    const g = run.tempered;
    assert.equal(g.k, V);  // 81 tokens: every one is a guess
    assert.equal(g.topK, c.top_k);
    assert.equal(g.topP, c.top_p);
    assert.equal(g.remaining[T - 1], c.first_kept.length);
    const kept = [];
    let sum = 0;
    for (let n = 0; n < V; n++) {
      const at = (T - 1) * V + n;
      assert.ok(Math.abs(g.drawn[at] - c.first_probabilities[g.ids[at]]) <= 1e-6, `id ${g.ids[at]}: ${g.drawn[at]} against PyTorch's ${c.first_probabilities[g.ids[at]]}`);
      if (g.kept[at]) kept.push(g.ids[at]);
      else assert.equal(g.drawn[at], 0, 'a removed token is never drawn');
      sum += g.drawn[at];
    }
    assert.deepEqual(kept.sort((a, b) => a - b), c.first_kept, `T ${c.temperature}, top_k ${c.top_k}, top_p ${c.top_p}`);
    assert.ok(Math.abs(sum - 1) < 1e-5, `the kept sum to 1: ${sum}`);
    // temper gives the same at the same settings
    const again = model.temper(c.temperature, { topK: c.top_k, topP: c.top_p });
    assert.deepEqual([...again.kept], [...g.kept]);
    assert.deepEqual([...again.drawn], [...g.drawn]);
  }
  // off by default: every guess kept and drawn as shown
  model.run(model.encode('To be'), { temperature: 0.8 });
  const off = model.temper(0.8);
  assert.ok(off.kept.every((k) => k === 1));
  assert.deepEqual([...off.drawn], [...off.probabilities]);
  assert.ok(off.remaining.every((r) => r === V));
  model.dispose();
});

test('a bad top-k or top-p is refused in one line naming it', async () => {
  const model = await textGpt();
  const prompt = model.encode('To be');
  const refused = (call, message) => assert.throws(call, (error) => error.name === 'ModelError' && (message instanceof RegExp ? message.test(error.message) : error.message === message));
  refused(() => model.generate(prompt, 3, { topK: 82 }), "top_k: 82 is more than the vocabulary's 81 tokens (0 turns it off)");
  refused(() => model.generate(prompt, 3, { topK: 2.5 }), /^top_k: 2\.5 is not a whole number from 0 to /);
  refused(() => model.generate(prompt, 3, { topK: -1 }), /^top_k: -1 is not a whole number/);
  for (const p of [0, -0.5, 1.5, NaN, Infinity])
    refused(() => model.generate(prompt, 3, { topP: p }), /^top_p: expected a number in \(0, 1\], got \S+ \(1 turns it off\)$/);
  model.run(prompt);
  refused(() => model.temper(1, { topK: 100 }), "top_k: 100 is more than the vocabulary's 81 tokens (0 turns it off)");
  refused(() => model.temper(1, { topP: 0 }), 'top_p: expected a number in (0, 1], got 0 (1 turns it off)');
  // the module is usable after
  assert.equal(model.generate(prompt, 3, { topK: 5, topP: 0.9 }).length, 3);
  model.dispose();
});
