// The Model view explains itself to a first-time visitor: a "start here" box
// on the shipped model names the head to look at first (the core's clearest
// previous-token head on the text shown, with its score), says what to try
// next, can be dismissed for good and never shows on a model the learner
// chose; the file's parameter count says what it holds; a real head opened
// in the playground opens on its weights with the last queries' rows
// numbered, and one line says which rows those are.
import { createRequire } from 'node:module';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadModelEngine, openModel } from '../../web/engine/model.js';
import { tokenText } from '../../web/views/format.js';
import { openPage, root, shot, useBrowser, violations } from './browser.mjs';

// axe-core's WCAG A and AA violations on the page as it is
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function axe(page) {
  await page.evaluate(axeSource);  // through the debugger protocol: the page's strict CSP allows no inline script
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const env = useBrowser({ csp: true });
const shipped = join(root, 'web', 'models', 'text-gpt.safetensors');
const text = 'To be, or not to be';
const node = {};
const wasm = join(root, 'build', 'wasm');

before(async () => {
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  node.model = await openModel(new Blob([readFileSync(shipped)]), { engine, name: 'text-gpt' });
});

async function modelPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  return page;
}

const views = [['1280', { viewport: { width: 1280, height: 720 } }], ['390', { viewport: { width: 390, height: 844 } }]];
const themes = ['light', 'dark'];

test('start here: the shipped model on a sentence names its clearest previous-token head with the core\'s score, and what to try next', async () => {
  const tokens = node.model.encode(text);
  node.model.run(tokens);
  const scores = node.model.headScores();
  assert.equal(scores.length, 8);
  const best = scores.reduce((b, s) => (s.previous > b.previous ? s : b));
  for (const [width, options] of views)
    for (const colorScheme of themes) {
      const page = await modelPage('#model=text-gpt', { ...options, colorScheme });
      await page.waitForSelector('.start-here:not([hidden]) .start-here-show', { timeout: 30000 });
      assert.equal(await page.getAttribute('.start-here', 'data-head'), `${best.layer}.${best.head}`);
      assert.ok(Math.abs(Number(await page.getAttribute('.start-here', 'data-score')) - best.previous) < 1e-6);
      const look = await page.textContent('.start-here-look');
      assert.match(look, new RegExp(`Look at layer ${best.layer}, head ${best.head} first: it looks one character back\\. On this text ${best.previous.toFixed(2)} of each`));
      assert.match(await page.textContent('.start-here-what'), /^This is text-gpt, .* reading “To be, or not to be”: 19 characters/);
      assert.equal(await page.$$eval('.start-here-next li', (l) => l.length), 4);
      assert.equal(await page.textContent('.start-here-next li:last-child'), 'What does each head do? Open the lenses');
      await shot(page, `model-start-here-${width}-${colorScheme}`);
      assert.deepEqual(await axe(page), []);
      // the box's button shows that head large
      await page.click('.start-here-show');
      await page.waitForFunction((want) => document.querySelector('.model-head-panel h3').textContent.startsWith(`Layer ${want.layer}, head ${want.head}:`), best);
      assert.equal(await page.textContent('.model-head-panel h3'), `Layer ${best.layer}, head ${best.head}: who listens to whom`);
      assert.deepEqual(page.problems, []);
      assert.deepEqual(await violations(page), []);
      await page.context().close();
    }
});

test('start here: dismissed, it stays away on the next visit; a link to another model or a file from disk never shows it', async () => {
  const page = await modelPage('#model=text-gpt');
  await page.waitForSelector('.start-here:not([hidden])');
  await page.click('.start-here-close');
  assert.ok(await page.isHidden('.start-here'));
  await page.reload();
  await page.waitForFunction(() => document.querySelector('.model-view')?.dataset.state === 'ready', null, { timeout: 30000 });
  await page.waitForTimeout(300);
  assert.ok(await page.isHidden('.start-here'), 'a dismissal is remembered');
  await page.context().close();
  // a model the link names by URL: someone who chose it
  const byUrl = await modelPage('#model=models/text-gpt.safetensors');
  assert.equal(await byUrl.getAttribute('.model-view', 'data-state'), 'ready');
  await byUrl.waitForTimeout(300);
  assert.ok(await byUrl.isHidden('.start-here'));
  await byUrl.context().close();
  // a file the learner opens from disk hides it
  const file = await modelPage('#model=text-gpt');
  await file.waitForSelector('.start-here:not([hidden])');
  await file.setInputFiles('.model-source input[type=file]', shipped);
  await file.waitForFunction(() => document.querySelector('.model-name')?.textContent.includes('text-gpt.safetensors'), null, { timeout: 30000 });
  await file.waitForFunction(() => document.querySelector('.start-here').hidden);
  await file.context().close();
});

test('the model file\'s parameter count says what it holds: 112,465 trained weights and 128 zero key biases (the core\'s counts)', async () => {
  assert.deepEqual(node.model.parameterCounts(), { file: 112593, zeroKeyBiases: 128, others: 112465 });
  const page = await modelPage('#model=text-gpt');
  assert.match(await page.textContent('.model-facts'), /, 112,593 parameters in the file: 112,465 trained weights and 128 key biases that are always zero \(softmax ignores a key’s bias, so training never moves it\)$/);
  await page.context().close();
});

test('a real head opened in the playground opens on its weights, the last 8 queries\' rows numbered, one line saying which', async () => {
  const tokens = node.model.encode(text);
  const run = node.model.run(tokens);
  const T = tokens.length;
  const labels = tokens.map((t) => tokenText(node.model.info.vocabulary[t]));
  for (const [width, options] of views)
    for (const colorScheme of themes) {
      const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&layer=1&head=2`, { ...options, colorScheme });
      await page.click('.model-open-head');
      await page.waitForFunction(() => document.querySelector('#app').dataset.view === 'playground' && document.querySelector('#app').dataset.state === 'ready', null, { timeout: 30000 });
      assert.equal(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('step'), 'weights');
      await page.waitForSelector('.zoom-rows[data-shown="true"] figure[data-matrix="zoom"]', { timeout: 30000 });
      // the whole 19 × 19 is colour only at this size; the block prints numbers
      assert.equal(await page.getAttribute('figure[data-matrix="weights"]', 'data-numbers'), '0');
      assert.equal(await page.getAttribute('figure[data-matrix="zoom"]', 'data-numbers'), '2');
      assert.equal(await page.getAttribute('.zoom-rows', 'data-rows'), `${T - 8}-${T - 1}`);
      assert.equal(await page.textContent('.zoom-rows-line'),
        `Showing the last 8 queries’ rows of weights, ‘${labels[T - 8]}’ to ‘${labels[T - 1]}’, with their numbers; all ${T} are in the heatmap below, too small for numbers. Point at a cell of either for how it was computed.`);
      // a cell of the block explains the whole matrix's cell (its row counted in all 19)
      const box = await page.$eval('figure[data-matrix="zoom"]', (f) => ({ cell: Number(f.dataset.cell) }));
      assert.ok(box.cell >= 30, `cells of ${box.cell} px print numbers`);
      // once the page has settled: a render that follows the opening clears the detail panel
      await page.waitForTimeout(500);
      await page.focus('figure[data-matrix="zoom"] canvas');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction((want) => new RegExp(want).test(document.querySelector('#detail').textContent), `^weights \\[${T - 8}, 1\\] = `, { timeout: 5000 });
      await shot(page, `model-head-readable-${width}-${colorScheme}`);
      assert.deepEqual(await axe(page), []);
      // the block's numbers are the model's attention of layer 1, head 2
      const data = await page.evaluate(() => [...document.querySelector('figure[data-matrix="weights"] canvas') ? [] : []]);
      assert.deepEqual(data, []);
      const at = (1 * 4 + 2) * T * T;
      const last = [...run.attention.data.slice(at + (T - 1) * T, at + T * T)];
      assert.ok(Math.abs(last.reduce((a, b) => a + b, 0) - 1) < 1e-5);
      assert.deepEqual(page.problems, []);
      assert.deepEqual(await violations(page), []);
      await page.context().close();
    }
});
