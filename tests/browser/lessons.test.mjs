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

// A matrix's cell as the lesson's readout tells it on hover: cells are
// counted from the canvas's right and bottom edges, past its labels.
async function readCell(page, name, row, col) {
  const figure = `#lesson figure[data-matrix="${name}"]`;
  const { rows, cols, cell, width, height } = await page.$eval(figure, (f) => {
    const c = f.querySelector('canvas');
    const [, n, m] = /(\d+) × (\d+) matrix/.exec(c.getAttribute('aria-label')).map(Number);
    return { rows: n, cols: m, cell: Number(f.dataset.cell), width: c.clientWidth, height: c.clientHeight };
  });
  await page.hover(`${figure} canvas`, { position: { x: width - 1 - (cols - col - 0.5) * cell, y: height - 1 - (rows - row - 0.5) * cell } });
  return (await page.textContent('#lesson .lesson-readout')).split(' = ')[1];
}

test('queries, keys and values: the bank example in two pools, after notebook 001\'s plain linear layer', async () => {
  const page = await lesson('lesson=qkv');
  const headings = await page.$$eval('#lesson .lesson-card h3', (h) => h.map((x) => x.textContent));
  assert.deepEqual(headings, ['Pool 0: stream bank mud', 'Pool 1: money bank loan']);
  // x @ W: bank's row is the same in both sentences, the notebook's [0.980, 1.140, 0.200]
  assert.match(await page.textContent('#lesson'), /bank the row \[0\.98, 1\.14, 0\.20\] by the river and \[0\.98, 1\.14, 0\.20\] at the bank/);
  for (const [b, printed] of [[0, ['1.2', '0.33', '0.24']], [1, ['0.14', '1.57', '0.08']]])
    for (const [c, value] of printed.entries()) assert.equal(Number(await readCell(page, `linear-${b}`, 0, c)), Number(value), `pool ${b}, column ${c}`);
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

test('no notion of space: outputs only move, until positions are added, and that False is the lesson, not an error', async () => {
  const page = await lesson('lesson=space&order=5.4.3.2.1.0');
  assert.equal(await page.textContent('.badge'), 'the outputs only moved with their tokens: True (as predicted: attention sees a set)');
  assert.equal(await page.getAttribute('.badge', 'class'), 'badge badge-yes');
  assert.equal(await page.textContent('.lesson-order'), 'Order: east the in rises sun The');
  await page.check('#space-positions');
  await page.waitForFunction(() => document.querySelector('.badge')?.textContent.includes('False'));
  assert.equal(await page.textContent('.badge'), 'the outputs only moved with their tokens: False (as predicted: with positions, the order matters)');
  assert.equal(await page.getAttribute('.badge', 'class'), 'badge badge-expected');
  await shot(page, 'lesson-space');
  await page.context().close();
});

// The lesson's height and graphs once its height has not changed for half a
// second: its panels laid out, and a second render, if any, landed (a busy
// machine lays a page out late, so no fixed wait is enough).
const settled = (page) => page.evaluate(() => new Promise((done) => {
  let height = -1;
  let since = performance.now();
  const look = () => {
    const l = document.getElementById('lesson');
    if (l.scrollHeight !== height) [height, since] = [l.scrollHeight, performance.now()];
    if (performance.now() - since >= 500) done({ height, graphs: l.querySelectorAll('.graph').length });
    else requestAnimationFrame(look);
  };
  look();
}));

test('a lesson opened from the navigation renders once, as from its own URL', async () => {
  for (const id of ['qkv', 'multihead']) {
    const direct = await lesson(`lesson=${id}`);
    const expected = await settled(direct);
    await direct.context().close();
    const page = await openPage(env.browser, env.url);
    assert.equal(await ready(page), 'ready');
    await page.click(`#lessons-nav a[href="#lesson=${id}"]`);
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'lesson');
    assert.equal(await ready(page), 'ready');
    const got = await settled(page);
    assert.deepEqual(got, expected, `${id}: opened from the navigation`);
    await page.context().close();
  }
});

test('link problems are still shown after an in-page hash change', async () => {
  const page = await openPage(env.browser, env.url);
  assert.equal(await ready(page), 'ready');
  await page.evaluate(() => { window.location.hash = '#head=5&preset=bank-raw'; });
  await page.waitForFunction(() => !document.getElementById('notice').hidden, null, { timeout: 30000 });
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

const lessonIds = ['trick', 'qkv', 'encoder', 'cross', 'multihead', 'scaling', 'space', 'position'];

test('every lesson prints every matrix\'s numbers at 1280 × 720, at one precision, and opens in the playground', async () => {
  for (const id of lessonIds) {
    const page = await openPage(env.browser, `${env.url}#lesson=${id}`, { viewport: { width: 1280, height: 720 } });
    assert.equal(await ready(page), 'ready', id);
    await page.waitForTimeout(50);  // the lesson settles its precision a microtask after drawing
    const numbers = await page.$$eval('#lesson figure.heatmap', (f) => f.map((x) => `${x.dataset.matrix}:${x.dataset.numbers}`));
    for (const n of numbers) assert.notEqual(n.split(':').at(-1), '0', `${id}: ${numbers.join(' ')}`);
    assert.ok(new Set(numbers.map((n) => n.split(':').at(-1))).size <= 1, `${id}: one precision: ${numbers.join(' ')}`);
    // "Open in the playground": the lesson's scenario, at the step its idea shows
    const href = await page.getAttribute('#lesson-open', 'href');
    assert.match(href, /^#preset=[a-z-]+.*&step=[a-z]+/, id);
    await page.click('#lesson-open');
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'playground');
    assert.equal(await ready(page), 'ready', `${id}: ${href}`);
    assert.equal(await page.inputValue('#preset'), /preset=([a-z-]+)/.exec(href)[1]);
    assert.equal(await page.getAttribute('.step-button.current', 'data-step'), /step=([a-z]+)/.exec(href)[1]);
    assert.deepEqual(page.problems, [], id);
    await page.context().close();
  }
});

test('encoder vs. decoder: notebook 004\'s mask after softmax, then renormalize, with the core\'s numbers', async () => {
  const page = await lesson('lesson=encoder');
  assert.equal(await page.textContent('#lesson .badge'), 'torch.allclose(masked_simple_norm, weights): True');
  // the notebook printed: attn_weights[1] = [0.0386, 0.6870, …]; row 1 keeps 0.0386 + 0.6870; renormalized [0.0532, 0.9468]
  assert.equal(Number(await readCell(page, 'unmasked', 1, 1)).toFixed(4), '0.6870');
  assert.equal(Number(await readCell(page, 'zeroed', 1, 2)), 0);
  assert.equal(Number(await readCell(page, 'row-sums', 1, 0)).toFixed(4), '0.7256');
  assert.equal(Number(await readCell(page, 'renormalized', 1, 0)).toFixed(4), '0.0532');
  // an encoder hides nothing: no renormalizing to show
  await page.check('input[name="block"][value="none"]');
  await page.waitForFunction(() => !document.querySelector('#lesson figure[data-matrix="renormalized"]'));
  await page.context().close();
});

test('multi-head: no clipped caption or chip, one colour scale for every head, and its claim stated by its numbers', async () => {
  const page = await openPage(env.browser, `${env.url}#lesson=multihead`, { viewport: { width: 1280, height: 720 } });
  assert.equal(await ready(page), 'ready');
  const clipped = await page.$$eval('#lesson figure.graph', (figures) => figures.map((f) => f.scrollWidth - f.clientWidth));
  assert.ok(clipped.every((px) => px <= 0), `graphs wider than their card: ${clipped}`);
  assert.deepEqual(await page.$$eval('#lesson figure.graph', (f) => f.map((x) => x.dataset.labels)), ['6', '6', '6', '6']);
  const scales = await page.$$eval('#lesson figure.heatmap[data-matrix^="out-"] .legend', (l) => l.map((x) => x.textContent));
  assert.equal(new Set(scales).size, 1, `out legends: ${scales}`);
  assert.match(await page.textContent('#lesson'), /These 4 are random \(torch\.rand\), and they agree more than they differ: each puts its largest weight on the same pair, sun → sun \(0\.69, 0\.92, 0\.65, 0\.87\)/);
  await page.context().close();
});

test('the navigation names each view once', async () => {
  const page = await openPage(env.browser, env.url);
  assert.equal(await ready(page), 'ready');
  const names = await page.$$eval('#lessons-nav a', (a) => a.map((x) => x.textContent));
  assert.equal(new Set(names).size, names.length, names.join(' | '));
  assert.ok(!names.includes('What attention learns') || !names.includes('Watch attention learn'));
  assert.ok(names.includes('Train live') && names.includes('Lecture GPT'), names.join(' | '));
  // one row at 1280 px, so the first screen is the playground's
  const tops = await page.$$eval('#lessons-nav a', (a) => new Set(a.map((x) => Math.round(x.getBoundingClientRect().top))).size);
  assert.equal(tops, 1);
  await page.context().close();
});
