// Models of unusual shape in the Model view, under the strict CSP: one
// without blocks (n_layer 0) opens with its chips and next-token bars and a
// line saying it has no attention layers (no grid, no head), never an
// uncaught throw that leaves the last model's tokens and guesses on screen;
// a GPT-2 model with nanoGPT's padded vocabulary (50,304) names the ids past
// the tokenizer's 50,257 as <50300> in the bars, the generated text and the
// chips, and Generate samples them as the core does (the same ids as in Node).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModelEngine, openModel } from '../../web/engine/model.js';
import { tokenText } from '../../web/views/format.js';
import { gptFile } from './gpt-file.mjs';
import { openPage, root, shot, useBrowser, violations } from './browser.mjs';

const env = useBrowser({ csp: true });
const wasm = join(root, 'build', 'wasm');
const dir = mkdtempSync(join(tmpdir(), 'model-shapes-'));
let engine;
before(async () => {
  engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
});

async function modelPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  return page;
}

const chips = (page) => page.$$eval('.token-chip', (c) => c.map((x) => x.textContent));
const barLabels = (page) => page.$$eval('.next-token-bars li .next-token-text', (l) => l.map((x) => x.textContent));

test('a model without blocks opens: its chips, its guesses and a line saying it has no attention layers; the next model draws its heads again', async () => {
  const bytes = gptFile({ embed: 16, heads: 2, layers: 0, length: 32 });
  const file = join(dir, 'no-blocks.safetensors');
  writeFileSync(file, bytes);
  const model = await openModel(new Blob([bytes]), { engine });
  const tokens = model.encode('To be');
  const run = model.run(tokens);
  assert.deepEqual(run.attention.shape, [0, 2, 5, 5], 'the core takes a model without blocks');
  for (const scheme of ['light', 'dark']) {
    const page = await modelPage('#model=text-gpt&text=To%20be', { colorScheme: scheme, viewport: { width: 1280, height: 720 } });
    await page.setInputFiles('.model-source input[type="file"]', file);
    await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "no-blocks.safetensors"' && document.querySelector('.model-view').dataset.state === 'ready');
    await page.waitForFunction(() => !document.querySelector('.model-no-heads')?.hidden);
    assert.match(await page.textContent('.model-facts'), /^0 layers × 2 heads, embedding 16, a vocabulary of 96 tokens \(characters\)/);
    assert.equal(await page.textContent('.model-no-heads'), 'This model has no blocks, so no attention layers: its next-token guesses come from the token and position embeddings alone.');
    assert.deepEqual(await chips(page), tokens.map((t) => tokenText(model.info.vocabulary[t])));
    const { k, ids } = run.top;
    const at = tokens.length - 1;
    assert.deepEqual(await barLabels(page), Array.from({ length: 10 }, (_, n) => tokenText(model.info.vocabulary[ids[at * k + n]])));
    assert.equal(await page.$$eval('.model-thumb', (b) => b.filter((x) => x.checkVisibility()).length), 0, 'no head in view');
    assert.deepEqual(await page.evaluate(() => ['.head-grid-box', '.model-head-panel', '.model-graph-panel'].map((s) => document.querySelector(s).hidden)), [true, true, true]);
    assert.equal(await page.isHidden('.model-status'), true);
    await shot(page, `model-no-blocks-${scheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, `model-no-blocks-390-${scheme}`);
    // typing and hovering work as for any model
    await page.fill('.model-text-field textarea', 'To be, or');
    await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 9);
    await page.hover('.token-chip[data-position="2"]');
    assert.equal(await page.getAttribute('.next-tokens', 'data-position'), '2');
    // the shipped model again: its grid and head come back
    await page.evaluate(() => { window.location.hash = '#model=text-gpt&text=To%20be'; });
    await page.waitForFunction(() => document.querySelectorAll('.model-thumb').length === 8 && !document.querySelector('.model-head-panel').hidden);
    assert.equal(await page.isHidden('.model-no-heads'), true);
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await violations(page), []);
    await page.context().close();
  }
  model.dispose();
});

test('nanoGPT\'s padded GPT-2 vocabulary: ids past the tokenizer\'s show as <50300> in the bars, the generated text and the chips; Generate samples as the core does', async () => {
  const gpt2 = await import('gpt-tokenizer/encoding/gpt2');
  const embed = 8;
  // the final LayerNorm gives ones whatever the input, and the unembedding's
  // rows past 50,257 sum to 16, the others to about 0: the padding is what the model guesses
  const bytes = gptFile({
    embed, heads: 2, layers: 1, length: 64, tokenizer: 'gpt2', vocab: 50304,
    weight: (name, i) => {
      if (name === 'transformer.ln_f.weight') return 0;
      if (name === 'transformer.ln_f.bias') return 1;
      if (name === 'lm_head.weight') return Math.floor(i / embed) >= 50257 ? 2 : 0;
      return undefined;
    },
  });
  const file = join(dir, 'padded-gpt2.safetensors');
  writeFileSync(file, bytes);
  const model = await openModel(new Blob([bytes]), { engine });
  const tokens = gpt2.encode('To be');
  const run = model.run(tokens);
  const { k, ids } = run.top;
  const guessed = Array.from({ length: 10 }, (_, n) => ids[(tokens.length - 1) * k + n]);
  assert.ok(guessed.every((id) => id >= 50257 && id < 50304), `the padding is guessed: ${guessed}`);
  const generated = model.generate(tokens, 10, { temperature: 0.8, seed: 1 });
  assert.ok(generated.every((id) => id >= 50257), `the padding is sampled: ${generated}`);

  const page = await modelPage('#model=text-gpt&text=To%20be');
  await page.setInputFiles('.model-source input[type="file"]', file);
  await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "padded-gpt2.safetensors"' && document.querySelector('.model-view').dataset.state === 'ready', null, { timeout: 30000 });
  assert.match(await page.textContent('.model-facts'), /a vocabulary of 50,304 tokens \(GPT-2’s BPE\)/);
  assert.deepEqual(await barLabels(page), guessed.map((id) => `<${id}>`));
  assert.equal(await page.textContent('.model-generate output'), '0.8', 'the slider starts at 0.8');
  await page.click('.model-generate button');
  const want = `To be${generated.map((id) => `<${id}>`).join('')}`;
  await page.waitForFunction((want) => document.querySelector('.model-text-field textarea').value === want, want, { timeout: 60000 });
  // the text read again: each <id> is that id once more, one chip, its own guesses after it
  await page.waitForFunction((n) => document.querySelectorAll('.token-chip').length === n, tokens.length + 10);
  assert.equal(await page.getAttribute('.model-view', 'data-tokens'), [...tokens, ...generated].join(','));
  assert.deepEqual((await chips(page)).slice(tokens.length), generated.map((id) => `<${id}>`));
  assert.equal(await page.isHidden('.model-status'), true);
  await shot(page, 'model-padded-vocabulary');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'model-padded-vocabulary-390-dark');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
  model.dispose();
});
