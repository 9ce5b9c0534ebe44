// A Llama-family folder runs in the Model view as GPT-2 does (models-v2.md):
// opened by its URL (a trailing "/") and by the folder picker, its shards
// streamed into the worker; without tokenizer.json the text field takes ids
// typed as numbers (and says so), a bad one refused in one line; the
// next-token bars are the core's numbers through Node's wasm, Generate adds
// the core's tokens, every head of every layer is drawn, and a head opens in
// the playground with its rotate step. A BERT folder with a tokenizer.json
// beside it tokenizes with [CLS] … [SEP] and shows its attention. Screenshots
// of a Llama folder open at 1280 × 720 and 390 × 844, light and dark.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import * as library from '@huggingface/tokenizers';

import { openTokenizer } from '../../web/engine/hf-tokenizer.js';
import { loadModelEngine } from '../../web/engine/model.js';
import { openFolder } from '../../web/engine/model-folder.js';
import { tokenText } from '../../web/views/format.js';
import { percent } from '../../web/views/next-tokens.js';
import { folderRoute, modelsV2, openPage, root, useBrowser, violations } from './browser.mjs';

const made = mkdtempSync(join(tmpdir(), 'model-llama-'));
const env = useBrowser({ csp: true, route: folderRoute({ '/models-v2/': modelsV2, '/made/': made }) });
const llama = join(modelsV2, 'llama-gqa');
const wasm = join(root, 'build', 'wasm');
const node = {};
const typed = [1, 7, 3, 9, 2, 11];

before(async () => {
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  const blob = (dir, f) => new Blob([readFileSync(join(dir, f))]);
  node.llama = await openFolder({ configText: readFileSync(join(llama, 'config.json'), 'utf8'), indexText: '', files: [{ name: 'model.safetensors', source: blob(llama, 'model.safetensors') }] }, { engine, name: 'llama-gqa' });
  // a BERT with its masked-LM head and a WordPiece tokenizer.json whose vocabulary fits its 60 tokens
  const bert = join(made, 'bert-words');
  mkdirSync(bert, { recursive: true });
  for (const f of ['config.json', 'model.safetensors']) copyFileSync(join(modelsV2, 'bert-mlm', f), join(bert, f));
  copyFileSync(join(root, 'tests', 'fixtures', 'tokenizers', 'bert-wordpiece.json'), join(bert, 'tokenizer.json'));
  // the Llama with a byte-level tokenizer.json (Llama 3's kind) of 22 ids, within its 64
  const bytes = join(made, 'llama-bytes');
  mkdirSync(bytes, { recursive: true });
  for (const f of ['config.json', 'model.safetensors']) copyFileSync(join(llama, f), join(bytes, f));
  copyFileSync(join(root, 'tests', 'fixtures', 'tokenizers', 'llama3-byte-level.json'), join(bytes, 'tokenizer.json'));
  // a folder the core refuses once its files are found: config.json's hidden_act
  const relu = join(made, 'relu');
  mkdirSync(relu, { recursive: true });
  writeFileSync(join(relu, 'config.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(llama, 'config.json'), 'utf8')), hidden_act: 'relu' }));
  copyFileSync(join(llama, 'model.safetensors'), join(relu, 'model.safetensors'));
  node.tokenizer = await openTokenizer(readFileSync(join(bytes, 'tokenizer.json'), 'utf8'), { library });
});

async function modelPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  return page;
}
const tokensShown = (page, want) => page.waitForFunction((t) => document.querySelector('.model-view').dataset.tokens === t, want.join(','), { timeout: 60000 });
const bars = (page) => page.$$eval('.next-token-bars li', (items) => items.map((li) => [li.querySelector('.next-token-text').textContent, li.querySelector('.next-token-p').textContent]));
const expectedBars = (tokens, temperature = 0.8) => {
  node.llama.run(tokens);
  const { k, ids, probabilities } = node.llama.temper(temperature);
  const at = tokens.length - 1;
  return Array.from({ length: 10 }, (_, n) => [tokenText(`<${ids[at * k + n]}>`), percent(probabilities[at * k + n])]);
};

test('a Llama folder by URL: typed ids, the core\'s bars, every head, Generate\'s tokens, a head in the playground with its rotate step', async () => {
  const page = await modelPage(`#model=models-v2/llama-gqa/&text=${encodeURIComponent(typed.join(', '))}`);
  await tokensShown(page, typed);
  assert.equal(await page.isHidden('.model-status'), true, await page.textContent('.model-status'));
  assert.equal(await page.textContent('.model-name'), 'Model: "models-v2/llama-gqa/"');
  assert.match(await page.textContent('.model-facts'), /^Llama: 2 layers × 4 query heads sharing 2 key\/value heads of 8, embedding 32, a vocabulary of 64 tokens, reads up to 32 tokens \(each token reads the ones before it\), [\d,]+ parameters$/);
  assert.equal(await page.textContent('.model-text-field label'), 'Token ids');
  assert.equal(await page.$$eval('.model-thumb', (b) => b.length), 2 * 4, 'every head of every layer');
  assert.deepEqual(await bars(page), expectedBars(typed));
  // a bad id: one line, the views kept
  await page.fill('.model-text-field textarea', '1, 7, x');
  await page.waitForFunction(() => !document.querySelector('.model-text-error').hidden);
  assert.equal(await page.textContent('.model-text-error'), 'text: entry 3 of 3, "x", is not a whole number');
  await page.fill('.model-text-field textarea', '1, 7, 64');
  await page.waitForFunction(() => /outside/.test(document.querySelector('.model-text-error').textContent));
  assert.equal(await page.textContent('.model-text-error'), 'text: entry 3 of 3, "64", is outside 0..63 (the model has 64 tokens)');
  await page.fill('.model-text-field textarea', typed.join(', '));
  await tokensShown(page, typed);
  // Generate: the core's tokens (its first press draws with seed 1)
  const added = node.llama.generate(typed, 10, { temperature: 0.8, seed: 1 });
  await page.click('.model-generate button.primary');
  await tokensShown(page, [...typed, ...added]);
  assert.deepEqual(await page.$$eval('.token-chip.generated', (c) => c.map((x) => Number(x.dataset.position))), added.map((_, i) => typed.length + i));
  assert.deepEqual(await bars(page), expectedBars([...typed, ...added]));
  // layer 1, head 3 in the playground: the core's rotary scenario, played with its rotate step
  await page.click('.model-thumb[data-layer="1"][data-head="3"]');
  await page.click('.model-open-head');
  await page.waitForFunction(() => document.querySelector('#app').dataset.view === 'playground' && document.querySelector('#app').dataset.state === 'ready', null, { timeout: 30000 });
  const opened = JSON.parse(await page.evaluate(() => sessionStorage.getItem('attention-playground:file')));
  const tokens = [...typed, ...added];
  node.llama.run(tokens);
  assert.deepEqual(opened, node.llama.headScenario(1, 3, { labels: tokens.map((t) => `<${t}>`) }));
  assert.ok(opened.attention.rotary);
  await page.click('.step-button[data-step="rotate"]');
  await page.waitForSelector('figure[data-matrix="q_rotated"]', { timeout: 30000 });
  // the folder has no tokenizer.json: its 404, only
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

test('a Llama folder picked from disk runs; a BERT folder with tokenizer.json reads [CLS] … [SEP] and shows its attention', async () => {
  const page = await modelPage('#model=text-gpt&text=To%20be');
  await page.setInputFiles('.model-source input[webkitdirectory]', llama);
  await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "llama-gqa/"', null, { timeout: 30000 });
  await page.fill('.model-text-field textarea', typed.join(' '));
  await tokensShown(page, typed);
  assert.deepEqual(await bars(page), expectedBars(typed));
  await page.setInputFiles('.model-source input[webkitdirectory]', join(made, 'bert-words'));
  await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "bert-words/"', null, { timeout: 30000 });
  await page.fill('.model-text-field textarea', 'the cat sat on the [MASK].');
  await tokensShown(page, [2, 5, 6, 7, 8, 5, 4, 13, 3]);
  assert.equal(await page.textContent('.model-text-field label'), 'Type a sentence with [MASK]', 'a BERT with its masked-LM head asks for a [MASK] (model/family.js)');
  const chips = await page.$$eval('.token-chip', (c) => c.map((x) => x.textContent));
  assert.equal(chips[0], '[CLS]');
  assert.equal(chips.at(-1), '[SEP]');
  assert.ok(chips.includes('[MASK]'), 'special tokens show as themselves');
  // a folder the core refuses: its line under the controls, naming the field, the BERT kept
  await page.evaluate(() => { window.location.hash = '#model=made/relu/&text=1%2C2'; });
  await page.waitForFunction(() => !document.querySelector('.model-status').hidden, null, { timeout: 60000 });
  assert.equal(await page.textContent('.model-status'), '"made/relu/": config.hidden_act: "relu", expected "silu" (the Llama family\'s SwiGLU); still showing "bert-words/"');
  assert.equal(await page.$$eval('.model-thumb', (b) => b.length), 2 * 4);
  assert.equal(await page.$$eval('.model-thumb', (b) => b.length), 2 * 4);
  assert.match(await page.textContent('.model-facts'), /^BERT: 2 layers × 4 heads of 8, .*every token reads every token, both ways\), with its masked-LM head/);
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), [], 'the refused folder\'s missing tokenizer.json only');
  await page.context().close();
});

test('a Llama folder with a byte-level tokenizer.json: its ids and special tokens, and Generate appends the text its ids continue with', async () => {
  const page = await modelPage(`#model=made/llama-bytes/&text=${encodeURIComponent('Hi 123!')}`);
  const { ids, tokens } = node.tokenizer.encode('Hi 123!');
  await tokensShown(page, ids);
  assert.equal(await page.textContent('.model-text-field label'), 'Text');
  assert.deepEqual(await page.$$eval('.token-chip', (c) => c.map((x) => x.textContent)), tokens.map(tokenText));
  assert.equal(tokens[0], '<|begin_of_text|>', 'the post-processor\'s special token, shown as itself');
  const added = node.llama.generate(ids, 10, { temperature: 0.8, seed: 1 });
  await page.click('.model-generate button.primary');
  const want = `Hi 123!${node.tokenizer.continuation(ids, added)}`;
  await page.waitForFunction((t) => document.querySelector('.model-text-field textarea').value === t, want, { timeout: 60000 });
  // the model runs on the ids Generate drew, after the prompt's, marked as Generate's
  await tokensShown(page, [...ids, ...added]);
  const marked = await page.$$eval('.token-chip.generated', (c) => c.map((x) => Number(x.dataset.position)));
  assert.deepEqual(marked, added.map((_, i) => ids.length + i));
  await page.context().close();
});

test('screenshots: a Llama folder open at 1280 × 720 and 390 × 844, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const [width, height] of [[1280, 720], [390, 844]]) {
      const page = await modelPage(`#model=models-v2/llama-gqa/&text=${encodeURIComponent(typed.join(', '))}&layer=1&head=3`, { viewport: { width, height }, colorScheme });
      await tokensShown(page, typed);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, `no sideways scroll at ${width}`);
      await page.evaluate(() => document.querySelector('.model-source').scrollIntoView());
      await page.screenshot({ path: join(root, 'tests', 'screenshots', `model-llama-folder-${width}-${colorScheme}.png`) });
      await page.evaluate(() => document.querySelector('.model-body').scrollIntoView());
      await page.screenshot({ path: join(root, 'tests', 'screenshots', `model-llama-heads-${width}-${colorScheme}.png`) });
      await page.context().close();
    }
  }
});
