// All heads at once (small multiples on one colour scale, a click selects a
// head) and what an edit changed (the edited cell marked, every cell it
// changed downstream marked, the rest left alone).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, shot, useBrowser } from './browser.mjs';

const env = useBrowser();

test('small multiples of every head, one colour scale stated in the legend; clicking one selects it', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-multihead&step=scores`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  assert.equal(await page.$$eval('#all-heads .head-thumb', (b) => b.length), 4);
  assert.equal(await page.getAttribute('#all-heads .head-thumb[aria-pressed="true"]', 'data-head'), '0');
  const legend = await page.textContent('#all-heads .heads-legend');
  assert.match(legend, /One colour scale for all heads: −\d+\.\d\d … \d+\.\d\d/);
  const bound = Number(legend.match(/… (\d+\.\d\d)/)[1]);
  // the stage's own scores legend (head 0) can only be within the shared bound
  const own = Number(await page.$$eval('.stage figure[data-matrix="scores"] .legend .legend-label', (l) => l[1].textContent));
  assert.ok(own <= bound + 0.005, `head 0's bound ${own} ≤ the shared ${bound}`);
  const sizes = await page.$$eval('#all-heads .head-thumb canvas:first-of-type', (c) => c.map((x) => x.clientWidth));
  assert.ok(sizes[0] > sizes[1], 'the selected head is drawn larger');
  const tops = await page.$$eval('#all-heads .head-thumb', (b) => new Set(b.map((x) => Math.round(x.getBoundingClientRect().bottom))).size);
  assert.equal(tops, 1, 'one row of heads');
  await shot(page, 'heads-small-multiples');
  await page.click('#all-heads .head-thumb[data-head="2"]');
  await page.waitForFunction(() => location.hash.includes('head=2'));
  assert.equal(await page.$eval('#head', (s) => s.value), '2');
  assert.equal(await page.getAttribute('#all-heads .head-thumb[aria-pressed="true"]', 'data-head'), '2');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('eight heads stay on one row at 1280 px, and one head shows no strip', async () => {
  const page = await openPage(env.browser, `${env.url}#sentence=a%20b%20c%20d%20e&heads=8&step=weights`, { viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  const rows = await page.$$eval('#all-heads .head-thumb', (b) => new Set(b.map((x) => Math.round(x.getBoundingClientRect().bottom))).size);
  assert.equal(rows, 1);
  await page.goto(`${env.url}#preset=sun-rises-causal`);
  await page.waitForFunction(() => document.querySelector('#all-heads').hidden);
  await page.context().close();
});

test('an edit marks its cell, and every cell it changed downstream; cells it cannot reach stay unmarked', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=x`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  // x row 2 ("rises"), column 0
  await page.focus('.stage figure[data-matrix="x"] canvas');
  for (const key of ['ArrowDown', 'ArrowDown', 'Enter']) await page.keyboard.press(key);
  await page.fill('.cell-editor', '2.5');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash.includes('edits='));
  await page.waitForFunction(() => document.querySelector('.stage figure[data-matrix="x"]')?.dataset.edited === '2.0');
  assert.equal(await page.getAttribute('.stage figure[data-matrix="x"]', 'data-changed'), '1');
  await shot(page, 'edit-marked-x');
  const changed = async (step, name) => {
    await page.click(`.step-button[data-step="${step}"]`);
    return Number(await page.getAttribute(`.stage figure[data-matrix="${name}"]`, 'data-changed'));
  };
  // causal: row 2 of x reaches rows 2…5 of weights (the rows that see token 2)
  assert.equal(await changed('qkv', 'q'), 2, 'q row 2 (head size 2)');
  const weights = await changed('weights', 'weights');
  assert.equal(weights, 3 + 4 + 5 + 6, 'rows 2 … 5 of the weights, every cell each can see');
  await shot(page, 'edit-marked-weights');
  assert.equal(await changed('out', 'out'), 4 * 4, 'rows 2 … 5 of out');
  assert.match(await page.textContent('.stage figure[data-matrix="out"] figcaption'), /16 changed by your edit/);
  await page.context().close();
});
