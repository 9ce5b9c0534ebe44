// Every lesson opens from its own URL and shows what it teaches, with the
// core's numbers. Screenshots of each land in tests/screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, shot, useBrowser } from './browser.mjs';

const env = useBrowser();

async function lesson(hash) {
  const page = await openPage(env.browser, `${env.url}#${hash}`);
  assert.equal(await ready(page), 'ready', hash);
  assert.equal(await page.isVisible('#lesson'), true);
  assert.equal(await page.isVisible('.player'), false);
  return page;
}

const figures = (page) => page.$$eval('#lesson .matrix-name', (n) => n.map((x) => x.textContent));

test('the mathematical trick: three averages that agree, and the a @ b demos', async () => {
  const page = await lesson('lesson=trick');
  assert.equal(await page.textContent('#lesson-title'), 'The mathematical trick');
  const badges = await page.$$eval('.badge', (b) => b.map((x) => x.textContent));
  assert.deepEqual(badges, ['torch.allclose(xbow2, xbow): True', 'torch.allclose(xbow3, xbow): True']);
  assert.ok((await figures(page)).includes('c = a @ b'));
  assert.equal(await page.getAttribute('#lessons-nav a[href="#lesson=trick"]', 'aria-current'), 'page');
  await shot(page, 'lesson-trick');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('queries, keys and values: the bank example in two pools', async () => {
  const page = await lesson('lesson=qkv');
  const headings = await page.$$eval('#lesson h3', (h) => h.map((x) => x.textContent));
  assert.deepEqual(headings, ['Pool 0: stream bank mud', 'Pool 1: money bank loan']);
  assert.equal(await page.getAttribute('#lesson .graph', 'data-edges'), '9,9');
  await shot(page, 'lesson-qkv');
  await page.context().close();
});

test('encoder vs. decoder: one switch changes the weights and the graph together', async () => {
  const page = await lesson('lesson=encoder');
  assert.equal(await page.getAttribute('#lesson .graph', 'data-edges'), '21');
  await page.check('input[name="block"][value="none"]');
  await page.waitForFunction(() => document.querySelector('#lesson .graph')?.dataset.edges === '36');
  assert.match(page.url(), /lesson=encoder&mask=none|mask=none.*lesson=encoder/);
  await shot(page, 'lesson-encoder');
  await page.context().close();
});

test('self vs. cross attention: keys and values from a sequence of another length', async () => {
  const page = await lesson('lesson=cross');
  assert.ok((await page.$$eval('#lesson figcaption', (c) => c.map((x) => x.textContent))).some((t) => t.startsWith('weights (6 × 8)')));
  await page.check('input[name="kv-source"][value="sun-rises"]');
  await page.waitForFunction(() => [...document.querySelectorAll('#lesson figcaption')].some((n) => n.textContent.startsWith('weights (6 × 6)')));
  await shot(page, 'lesson-cross');
  await page.context().close();
});

test('multi-head: each head, then the concatenation and the output projection', async () => {
  const page = await lesson('lesson=multihead');
  assert.equal((await page.$$('#lesson .graph')).length, 4);
  assert.ok((await figures(page)).includes('concatenated heads'));
  await page.check('input[name="projection"][value="sun-rises-multihead-projected"]');
  await page.waitForFunction(() => [...document.querySelectorAll('#lesson .matrix-name')].some((n) => n.textContent === 'concatenated heads · W_out'));
  await shot(page, 'lesson-multihead');
  await page.context().close();
});

test('scaled attention: the variance plot and the notebook\'s softmax numbers', async () => {
  const page = await lesson('lesson=scaling');
  assert.equal(await page.$$eval('.lesson-table tbody tr', (r) => r.length), 9);
  const bars = await page.$$eval('.chart text', (t) => t.map((x) => x.textContent));
  for (const printed of ['0.1925', '0.2872', '0.0326', '0.8000']) assert.ok(bars.includes(printed), printed);
  await page.fill('#scaling-factor', '16');
  await page.waitForFunction(() => location.hash.includes('factor=16'));
  await shot(page, 'lesson-scaling');
  await page.context().close();
});

test('no notion of space: outputs only move, until positions are added', async () => {
  const page = await lesson('lesson=space&order=5.4.3.2.1.0');
  assert.equal(await page.textContent('.badge'), 'the outputs only moved with their tokens: True');
  assert.equal(await page.textContent('.lesson-order'), 'Order: east the in rises sun The');
  await page.check('#space-positions');
  await page.waitForFunction(() => document.querySelector('.badge')?.textContent.endsWith('False'));
  await shot(page, 'lesson-space');
  await page.context().close();
});

test('a lesson opened from the navigation renders once, as from its own URL', async () => {
  for (const id of ['qkv', 'multihead']) {
    const direct = await lesson(`lesson=${id}`);
    const expected = await direct.$eval('#lesson', (l) => ({ height: l.scrollHeight, graphs: l.querySelectorAll('.graph').length }));
    await direct.context().close();
    const page = await openPage(env.browser, env.url);
    assert.equal(await ready(page), 'ready');
    await page.click(`#lessons-nav a[href="#lesson=${id}"]`);
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'lesson');
    assert.equal(await ready(page), 'ready');
    await page.waitForTimeout(500);  // a second render, if any, lands meanwhile
    const got = await page.$eval('#lesson', (l) => ({ height: l.scrollHeight, graphs: l.querySelectorAll('.graph').length }));
    assert.deepEqual(got, expected, `${id}: opened from the navigation`);
    await page.context().close();
  }
});

test('link problems are still shown after an in-page hash change', async () => {
  const page = await openPage(env.browser, env.url);
  assert.equal(await ready(page), 'ready');
  await page.evaluate(() => { window.location.hash = '#head=5&preset=bank-raw'; });
  await page.waitForFunction(() => !document.getElementById('notice').hidden, null, { timeout: 10000 });
  await page.waitForTimeout(300);
  assert.match(await page.textContent('#notice'), /head 5 is beyond this scenario's 1; showing 0/);
  await page.context().close();
});

test('multi-head: heads in balanced rows, each out beside its weights with cells as tall', async () => {
  for (const width of [1280, 900, 600]) {
    const page = await openPage(env.browser, `${env.url}#lesson=multihead`, { viewport: { width, height: 900 } });
    assert.equal(await ready(page), 'ready');
    const tops = await page.$$eval('.lesson-card', (cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)));
    const perRow = [...new Set(tops)].map((top) => tops.filter((t) => t === top).length);
    assert.ok(perRow.every((n) => n === perRow[0]), `${width} px: cards per row ${perRow}`);
    const heights = await page.$$eval('.lesson-card', (cards) => cards.map((c) => [...c.querySelectorAll('canvas')].slice(0, 2).map((x) => Math.round(x.getBoundingClientRect().height))));
    for (const [weights, out] of heights) assert.ok(Math.abs(weights - out) <= 2, `${width} px: weights ${weights} px, out ${out} px tall`);
    if (width === 1280) await shot(page, 'lesson-multihead');
    await page.context().close();
  }
});
