// The Model view's top-k and top-p (issue 31): two sliders beside the
// temperature, each with its value ("off" at 0 and 1); the bars are the
// core's (through node's wasm): a kept token's bar is what Generate draws it
// with, a removed one is struck out, and one sentence says how many tokens
// are kept; Generate appends what the core samples with them; temperature,
// top-k and top-p are in the link and a link opens on them; a value outside
// the sliders' range is refused in one line. Screenshots at 1280 × 720 and
// 390 × 844, light and dark.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadModelEngine, openModel } from '../../web/engine/model.js';
import { tokenText } from '../../web/views/format.js';
import { percent } from '../../web/views/next-tokens.js';
import { openPage, root, shot, useBrowser } from './browser.mjs';

const env = useBrowser({ csp: true });
const text = 'To be, or not to be';
const node = {};
const wasm = join(root, 'build', 'wasm');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

before(async () => {
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  node.model = await openModel(new Blob([readFileSync(join(root, 'web', 'models', 'text-gpt.safetensors'))]), { engine, name: 'text-gpt' });
  node.vocabulary = node.model.info.vocabulary;
});

async function modelPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  await page.waitForSelector('.next-token-bars li');
  return page;
}

const hashOf = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(window.location.hash.slice(1))));
// The bars as shown: [text, percent, p, kept].
const bars = (page) => page.$$eval('.next-token-bars li', (items) => items.map((li) => [li.querySelector('.next-token-text').textContent, li.querySelector('.next-token-p').textContent, Number(li.dataset.p), li.dataset.kept === '1']));
// The core's, after position `at`: a kept token's drawn probability, a removed one's before the cut.
function expected(tokens, at, t, topK, topP) {
  node.model.run(tokens);
  const g = node.model.temper(t, { topK, topP });
  return {
    bars: Array.from({ length: 10 }, (_, n) => {
      const i = at * g.k + n;
      const p = g.kept[i] ? g.drawn[i] : g.probabilities[i];
      return [tokenText(node.vocabulary[g.ids[i]]), percent(p), p, g.kept[i] === 1];
    }),
    remaining: g.remaining[at],
  };
}
const key = (page) => page.textContent('.next-tokens-key');
const outputs = (page) => page.$$eval('.model-warper output', (o) => o.map((x) => x.textContent));
async function slide(page, name, stop) {
  await page.$eval(`.model-warper:has(label:text-is("${name}")) input`, (slider, stop) => {
    slider.value = String(stop);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  }, stop);
}

test('top-k and top-p: sliders beside the temperature; the bars are the core\'s, the removed struck out, one sentence says what the cut did; all in the link', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}`, { viewport: { width: 1280, height: 720 } });
  const tokens = node.model.encode(text);
  // off at first: every bar kept, no sentence, nothing in the link
  assert.deepEqual(await outputs(page), ['off', 'off']);
  assert.deepEqual(await bars(page), expected(tokens, 18, 0.8, 0, 1).bars);
  assert.ok((await bars(page)).every(([, , , kept]) => kept));
  assert.doesNotMatch(await key(page), /keep/);
  assert.deepEqual(await hashOf(page), { model: 'text-gpt' });  // the default text is not written
  // top-k 3 (stop 3): three kept, the rest struck out, the kept ones renormalized
  await slide(page, 'Top-k', 3);
  await page.waitForFunction(() => document.querySelectorAll('.next-token-bars li[data-kept="0"]').length === 7);
  // a removed token is greyed and its percentage struck, not its text: a struck one-letter token read as another letter (l as ł)
  assert.deepEqual(await page.$eval('.next-token-bars li[data-kept="0"]', (li) => [getComputedStyle(li.querySelector('.next-token-text')).textDecorationLine, getComputedStyle(li.querySelector('.next-token-p')).textDecorationLine]), ['none', 'line-through']);
  assert.deepEqual(await outputs(page), ['3', 'off']);
  const k3 = expected(tokens, 18, 0.8, 3, 1);
  assert.deepEqual(await bars(page), k3.bars);
  assert.equal(k3.remaining, 3);
  assert.match(await key(page), /Top-k 3 keeps 3 of 81 tokens: Generate draws only from those/);
  assert.ok(Math.abs(k3.bars.slice(0, 3).reduce((s, b) => s + b[2], 0) - 1) < 1e-5, 'the three kept sum to 1');
  // the link carries it
  await page.waitForFunction(() => new URLSearchParams(window.location.hash.slice(1)).get('top_k') === '3');
  // top-p 0.5 too: transformers' order, the core's count
  await slide(page, 'Top-p', 5);
  await page.waitForFunction(() => [...document.querySelectorAll('.model-warper output')][1].textContent === '0.5');
  const both = expected(tokens, 18, 0.8, 3, 0.5);
  await page.waitForFunction((n) => document.querySelectorAll('.next-token-bars li[data-kept="1"]').length === n, both.remaining);
  assert.deepEqual(await bars(page), both.bars);
  assert.match(await key(page), new RegExp(`Top-k 3 and top-p 0.5 keep ${both.remaining} of 81 tokens`));
  await page.waitForFunction(() => new URLSearchParams(window.location.hash.slice(1)).get('top_p') === '0.5');
  // a hovered token's guesses with the same cut
  await page.hover('.token-chip[data-position="4"]');
  assert.deepEqual(await bars(page), expected(tokens, 4, 0.8, 3, 0.5).bars);
  await page.mouse.move(5, 5);
  // the temperature goes into the link as well
  await page.$eval('.model-temperature input', (slider) => {
    slider.value = '7';  // 0.5
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => new URLSearchParams(window.location.hash.slice(1)).get('temperature') === '0.5');
  await page.waitForFunction(() => document.querySelector('.next-tokens').dataset.temperature === '0.5');
  assert.deepEqual(await bars(page), expected(tokens, 18, 0.5, 3, 0.5).bars);
  // Generate: the core's tokens at these settings (the view's first seed is 1)
  const added = node.model.generate(tokens, 10, { temperature: 0.5, seed: 1, topK: 3, topP: 0.5 });
  await page.click('.model-generate button.primary');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 29);
  assert.equal(await page.inputValue('.model-text-field textarea'), text + node.model.decode(added));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a link opens on its temperature, top-k and top-p; one outside the range is refused in one line', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&temperature=1.5&top_k=10&top_p=0.9`, { viewport: { width: 1280, height: 720 } });
  const tokens = node.model.encode(text);
  assert.equal(await page.textContent('.model-temperature output'), '1.5');
  assert.deepEqual(await outputs(page), ['10', '0.9']);
  const want = expected(tokens, 18, 1.5, 10, 0.9);
  assert.deepEqual(await bars(page), want.bars);
  assert.match(await key(page), new RegExp(`keep ${want.remaining} of 81 tokens`));
  assert.deepEqual(page.problems, []);
  await page.context().close();
  // a top-k past this model's vocabulary: opened off, saying why, and off in the link
  const past = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&top_k=500`, { viewport: { width: 390, height: 844 } });
  assert.deepEqual(await outputs(past), ['off', 'off']);
  assert.equal(await past.textContent('.model-warper-error'), "Top-k: 500 is more than this model's 81 tokens; turned off");
  assert.equal((await hashOf(past)).top_k, undefined);
  await shot(past, 'model-sampling-refused-390');
  await past.context().close();
  // a link changed while the model is open: refused in the line, the last kept
  const open = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&top_k=5`, { viewport: { width: 1280, height: 720 } });
  await open.evaluate(() => { window.location.hash = '#model=text-gpt&top_k=90'; });
  await open.waitForFunction(() => !document.querySelector('.model-warper-error').hidden);
  assert.equal(await open.textContent('.model-warper-error'), 'Top-k: expected a whole number from 0 (off) to 81, got "90"; kept 5');
  assert.deepEqual(await outputs(open), ['5', 'off']);
  const page2 = open;
  // from anywhere else: refused in one line, the last kept
  const refused = await page2.evaluate(async () => {
    const { WarperFields } = await import('./model/warpers.js');
    const fields = new WarperFields(document.createElement('div'), { onChange: () => {} });
    fields.setVocabulary(81);
    return [fields.set({ topP: 0 }), fields.error.textContent, fields.set({ topK: 2.5 }), fields.error.textContent, fields.value];
  });
  assert.deepEqual(refused, [false, 'Top-p: expected a number above 0 and at most 1 (off), got "0"; kept off', false, 'Top-k: expected a whole number from 0 (off) to 81, got "2.5"; kept off', { topK: 0, topP: 1 }]);
  assert.deepEqual(page2.problems, []);
  await page2.context().close();
});

test('screenshots: the cut at 1280 and 390, light and dark; axe finds nothing (the struck-out tokens readable)', async () => {
  for (const colorScheme of ['light', 'dark'])
    for (const [width, height] of [[1280, 720], [390, 844]]) {
      const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&temperature=1.2&top_k=5&top_p=0.9`, { viewport: { width, height }, colorScheme, bypassCSP: true });  // for axe's script
      await page.waitForFunction(() => document.querySelectorAll('.next-token-bars li[data-kept="0"]').length > 0);
      await page.locator('.model-next-panel').scrollIntoViewIfNeeded();
      await page.locator('.model-next-panel').screenshot({ path: join(root, 'tests', 'screenshots', `model-sampling-${width}-${colorScheme}.png`) });
      await shot(page, `model-sampling-page-${width}-${colorScheme}`);
      await page.addScriptTag({ content: axeSource });
      const found = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
      assert.deepEqual(found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], `${width} ${colorScheme}`);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
});
