// The first screen in headless Chromium: at 1280 × 720 and on a phone, what a
// learner sees before scrolling: the settings folded, the player, each step's
// input beside its result, every matrix printing its numbers, no sideways
// scroll. Screenshots go to tests/screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, shot, useBrowser } from './browser.mjs';

const env = useBrowser();

test('a step\'s input and output sit side by side at desktop widths, their rows lined up', async () => {
  const rows = { qkv: ['x', 'q', 'k', 'v'], scores: ['q', 'k', 'scores'], scaled: ['scores', 'scaled'], masked: ['mask', 'masked'],
    weights: ['masked', 'weights'], out: ['weights-row', 'v', 'products', 'out'] };
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1440, height: 900 }, { width: 1920, height: 1080 }]) {
    const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal`, { viewport, reducedMotion: 'reduce' });
    assert.equal(await ready(page), 'ready');
    for (const [step, names] of Object.entries(rows)) {
      await page.click(`.step-button[data-step="${step}"]`);
      await page.waitForFunction((s) => document.querySelector('.step-button.current')?.dataset.step === s, step);
      const boxes = await page.$$eval('.stage figure.heatmap', (f, wanted) => wanted.map((name) => {
        const figure = f.find((x) => x.dataset.matrix === name);
        return { figure: Math.round(figure.getBoundingClientRect().top), canvas: Math.round(figure.querySelector('canvas').getBoundingClientRect().top), cell: figure.dataset.cell };
      }), names);
      assert.equal(new Set(boxes.map((b) => b.figure)).size, 1, `${viewport.width}: ${step}: ${names} at ${JSON.stringify(boxes)}`);
      // captions as tall as each other: the first rows line up, cells one size
      assert.equal(new Set(boxes.map((b) => b.canvas)).size, 1, `${viewport.width}: ${step}: canvases at ${JSON.stringify(boxes)}`);
      assert.equal(new Set(boxes.map((b) => b.cell)).size, 1, `${viewport.width}: ${step}: cells ${JSON.stringify(boxes)}`);
    }
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scroll');
    if (viewport.width === 1280) await shot(page, 'page-side-by-side-1280');
    await page.context().close();
  }
});

// What each step makes: the matrices that must be on the first screen.
const results = { x: ['x'], qkv: ['q', 'k', 'v'], scores: ['scores'], scaled: ['scaled'], masked: ['masked'], weights: ['weights'], out: ['out'] };

test('one screen: at every step the settings, the player, the step\'s results and the graph are inside the first viewport, unscrolled', async () => {
  for (const [viewport, preset] of [[{ width: 1280, height: 720 }, 'sun-rises-causal'], [{ width: 1280, height: 720 }, 'karpathy-value'],
    [{ width: 1440, height: 900 }, 'sun-rises-causal'], [{ width: 1920, height: 1080 }, 'sun-rises-causal']]) {
    const page = await openPage(env.browser, `${env.url}#preset=${preset}`, { viewport, reducedMotion: 'reduce' });
    assert.equal(await ready(page), 'ready');
    // karpathy-value's x is 32 wide: its q, k, v and out take rows of their own; its T × T steps fit
    const shown = preset === 'karpathy-value' ? ['scores', 'scaled', 'masked', 'weights'] : Object.keys(results);
    for (const [step, names] of Object.entries(results).filter(([step]) => shown.includes(step))) {
      await page.click(`.step-button[data-step="${step}"]`);
      await page.waitForFunction((s) => document.querySelector('.step-button.current')?.dataset.step === s, step);
      const at = `${viewport.width} × ${viewport.height}, ${preset}, ${step}`;
      const box = await page.evaluate((wanted) => {
        window.scrollTo(0, 0);
        const bottom = (e) => Math.round(e.getBoundingClientRect().bottom);
        const figures = [...document.querySelectorAll('.stage figure.heatmap')];
        return {
          results: wanted.map((name) => bottom(figures.find((f) => f.dataset.matrix === name))),
          firstLine: Math.max(...[...document.querySelector('.matrix-line').children].map(bottom)),
          bar: bottom(document.querySelector('.settings-bar')),
          player: bottom(document.querySelector('.player')),
          prompt: document.getElementById('prompt').textContent,
          graph: bottom(document.querySelector('figure[data-view="graph"] canvas')),
          graphTop: Math.round(document.querySelector('figure[data-view="graph"] canvas').getBoundingClientRect().top),
        };
      }, names);
      for (const b of box.results) assert.ok(b <= viewport.height, `${at}: the result ends at ${b}`);
      // the step's input beside its result; karpathy-value's q and k (16 wide) follow its scores instead
      if (preset === 'sun-rises-causal') assert.ok(box.firstLine <= viewport.height, `${at}: the first line of matrices ends at ${box.firstLine}`);
      assert.ok(box.bar < box.player && box.player < 260, `${at}: the bar and the player on top (${box.bar}, ${box.player})`);
      // the graph whole; karpathy-value's four pools: as many as show whole under the sticky player
      if (preset === 'sun-rises-causal') assert.ok(box.graph <= viewport.height, `${at}: the graph ends at ${box.graph}`);
      else assert.ok(box.graphTop <= viewport.height / 2, `${at}: the graph starts at ${box.graphTop}`);
      assert.ok(box.prompt.length > 0, `${at}: the prompt says what to do`);
    }
    if (preset === 'sun-rises-causal') {
      // temperature and mask change what is visible, live, without scrolling
      await page.click('.step-button[data-step="weights"]');
      const before = await page.$eval('.stage figure[data-matrix="weights"] canvas', (c) => c.toDataURL());
      await page.$eval('#temperature', (input) => { input.value = '800'; input.dispatchEvent(new Event('input', { bubbles: true })); });
      await page.waitForFunction((b) => document.querySelector('.stage figure[data-matrix="weights"] canvas').toDataURL() !== b, before);
      const inView = await page.$eval('.stage figure[data-matrix="weights"]', (f) => f.getBoundingClientRect().bottom <= window.innerHeight);
      assert.ok(inView, `${viewport.width}: the weights stay in view`);
      await page.check('#mask-none');
      await page.waitForFunction(() => document.querySelector('figure[data-view="graph"]').dataset.edges === '36');
    }
    await shot(page, `page-one-screen-${viewport.width}-${preset}`);
    await page.context().close();
  }
});

test('the first screen: the settings folded into a bar, a prompt that says what to do, a skip link to the player', async () => {
  const page = await openPage(env.browser, env.url, { viewport: { width: 1280, height: 720 } });
  assert.equal(await ready(page), 'ready');
  assert.equal(await page.isVisible('#settings-drawer'), false);
  assert.match(await page.textContent('#prompt'), /^Row ‘rises’ is a query: /);
  // the first stop of the keyboard is the skip link; it moves focus to the player, never the hash
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  assert.equal(await page.isVisible('.skip-link'), true);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'player');
  assert.equal(await page.evaluate(() => location.hash), '');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.getElementById('step-title').textContent.startsWith('masked'));
  assert.match(await page.textContent('#prompt'), /Step 5 of 7/);
  await page.keyboard.press('Home');
  assert.match(await page.textContent('#prompt'), /Press → to step, Space to play/);
  await page.click('#settings-toggle');
  assert.equal(await page.isVisible('#settings-drawer'), true);
  assert.equal(await page.isVisible('#mode-sentence'), true);
  // a scenario with one batch element and one head offers no choice of either
  assert.equal(await page.isVisible('#batch'), false);
  assert.equal(await page.isVisible('#head'), false);
  await page.evaluate(() => { location.hash = '#preset=karpathy-value'; });
  await page.waitForSelector('#batch', { state: 'visible' });
  await shot(page, 'page-first-screen-1280');
  await page.context().close();
});

test('every matrix of the step prints its numbers at 1280 × 720, at one precision for the view', async () => {
  const hashes = [...Object.keys(results).map((step) => `#step=${step}`), '#preset=karpathy-value&step=weights', '#preset=karpathy-value&step=masked',
    '#preset=sun-rises-cross&step=out', '#preset=sun-rises-multihead&step=out'];
  const page = await openPage(env.browser, null, { viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
  for (const hash of hashes) {
    await page.goto(`${env.url}${hash}`);
    await page.reload();
    assert.equal(await ready(page), 'ready', hash);
    const numbers = await page.$$eval('.stage figure.heatmap', (f) => f.map((x) => `${x.dataset.matrix}:${x.dataset.numbers}`));
    assert.ok(numbers.length > 0, hash);
    for (const n of numbers) assert.notEqual(n.split(':')[1], '0', `${hash}: ${numbers.join(' ')}`);
    assert.equal(new Set(numbers.map((n) => n.split(':')[1])).size, 1, `${hash}: one precision: ${numbers.join(' ')}`);
  }
  await page.context().close();
});

test('no horizontal page scroll at 390 px: the playground, every lesson, the largest settings; a short view un-sticks the player', async () => {
  const hashes = ['#preset=sun-rises-causal&step=out', '#sentence=a%20b%20c%20d&heads=8&value_size=64&embed=64&step=out',
    ...['trick', 'qkv', 'encoder', 'cross', 'multihead', 'scaling', 'space'].map((id) => `#lesson=${id}`)];
  for (const hash of hashes) {
    const page = await openPage(env.browser, `${env.url}${hash}`, { viewport: { width: 390, height: 844 } });
    assert.equal(await ready(page), 'ready', hash);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, hash);
    await page.context().close();
  }
  // 1280 × 720 at 200% zoom is 640 × 360 CSS pixels
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal`, { viewport: { width: 640, height: 360 } });
  assert.equal(await ready(page), 'ready');
  await page.evaluate(() => window.scrollTo(0, document.querySelector('.stage').getBoundingClientRect().top + window.scrollY));
  const covered = await page.$eval('.player', (p) => { const r = p.getBoundingClientRect(); return Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)); });
  assert.ok(covered <= 360 / 5, `the player covers ${covered} px of 360`);
  await page.context().close();
});
