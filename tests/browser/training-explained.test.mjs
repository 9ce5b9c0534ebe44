// The training view explains itself: the loss chart names its guessing line
// in words (the core's ln V for the task's vocabulary), a text task's loss
// axis is a log scale with labelled ticks so the stretch from 2.8 to 2.2 is
// readable, a finished run says what was trained and how far, and a window
// resized while it trains lays every head's heatmap out again to fit.
import { createRequire } from 'node:module';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { openPage, shot, useBrowser } from './browser.mjs';

// axe-core's WCAG A and AA violations on the page as it is
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function axe(page) {
  await page.evaluate(axeSource);  // through the debugger protocol: the page's strict CSP allows no inline script
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const env = useBrowser();

async function trainingPage(hash, options = {}) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 30000 });
  return page;
}

const ticks = (page) => page.$eval('figure.curves', (f) => (f.dataset.ticks ?? '').split(',').filter(Boolean).map((t) => t.split(':').map(Number)));

// every head's heatmap inside its figure and the grid: nothing cropped or scrolled
const cropped = (page) => page.$$eval('.training-heads figure', (figures) => {
  const grid = document.querySelector('.training-heads-grid').getBoundingClientRect();
  return figures.filter((f) => {
    const c = f.querySelector('canvas').getBoundingClientRect();
    return !c.width || f.scrollWidth > f.clientWidth + 1 || c.right > grid.right + 1 || c.left < grid.left - 1;
  }).map((f) => f.dataset.matrix);
});

test('text-gpt\'s loss chart: the guessing line in words (ln 81 = 4.39), a log axis with ticks where 2.2 to 2.8 is readable, drawn again when resized or re-themed while paused', async () => {
  const page = await trainingPage('#train=text-gpt', { viewport: { width: 1280, height: 720 }, colorScheme: 'light' });
  const caption = await page.textContent('figure.curves figcaption');
  assert.match(caption, /dashed: guessing uniformly: ln 81 = 4\.39, where an untrained model starts/);
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('.training').dataset.step) >= 300, null, { timeout: 240000 });
  await page.click('#train-play');  // pause mid-run
  await page.waitForFunction(() => document.querySelector('.training').dataset.worker === 'paused', null, { timeout: 30000 });
  for (const [width, height] of [[1280, 720], [390, 844]])
    for (const colorScheme of ['light', 'dark']) {
      // the paused chart is drawn again for the window and the theme: inside its box, in the theme's ink
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await page.waitForFunction(() => {
        const figure = document.querySelector('figure.curves'), canvas = figure.querySelector('canvas');
        const box = document.querySelector('.training-charts');
        return canvas.getBoundingClientRect().width <= box.clientWidth + 1 && figure.dataset.ink === getComputedStyle(canvas).color;
      }, null, { timeout: 10000 });
      assert.equal(await page.getAttribute('figure.curves', 'data-axis'), 'log');
      const marks = await ticks(page);
      const y = (v) => marks.find(([t]) => Math.abs(t - v) < 1e-9)?.[1];
      for (const v of [2.5, 3, 4]) assert.ok(y(v) !== undefined, `a tick at ${v}: ${JSON.stringify(marks)}`);
      // half a unit around 2.5 takes a readable height: more than a linear axis from 0 gives it
      assert.ok(y(2.5) - y(3) >= 24, `2.5 to 3 takes ${y(2.5) - y(3)} px`);
      assert.ok(y(2.5) - y(3) > y(3.5) - y(4), 'the low losses are stretched (log scale)');
      assert.ok(await page.isHidden('#train-done'), 'a paused run is not trained');
      await shot(page, `training-mid-run-${width}-${colorScheme}`);
    }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a finished run says what was trained and how far: "Trained: previous-token (…), 300 of 300 steps, validation loss …"', async () => {
  for (const [width, height] of [[1280, 720], [390, 844]])
    for (const colorScheme of ['light', 'dark']) {
      const page = await trainingPage('#train=previous-token', { viewport: { width, height }, colorScheme });
      assert.match(await page.textContent('figure.curves figcaption'), /dashed: guessing uniformly: ln 16 = 2\.77/);
      await page.selectOption('#train-speed', '0');
      await page.click('#train-play');
      await page.waitForFunction(() => document.querySelector('#train-play').textContent === 'Trained', null, { timeout: 60000 });
      const done = await page.textContent('#train-done');
      const loss = (await page.textContent('#train-status')).match(/validation loss (\d\.\d{3})/)[1];
      assert.equal(done.replace(/accuracy [\d.]+%/, 'accuracy %'),
        `Trained: previous-token (One head learns to look one token back), 300 of 300 steps, validation loss ${Number(loss).toFixed(2)}, accuracy %. Reset trains it again from the start.`);
      assert.equal(await page.getAttribute('#train-play', 'aria-describedby'), 'train-done');
      assert.match(await page.textContent('.training-about'), /[\d,]+ trained weights; /);
      await shot(page, `training-end-${width}-${colorScheme}`);
      assert.deepEqual(await axe(page), []);
      await page.click('#train-reset');
      await page.waitForFunction(() => document.querySelector('#train-done').hidden);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
});

test('resizing the window while text-gpt trains lays every head out again: no heatmap cropped', async () => {
  const page = await trainingPage('#train=text-gpt', { viewport: { width: 1280, height: 720 } });
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('.training').dataset.step) >= 20, null, { timeout: 60000 });
  assert.deepEqual(await cropped(page), []);
  for (const [width, height] of [[700, 720], [390, 844], [1000, 720]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(400);  // a few frames of training, drawn at the new width
    assert.equal(await page.getAttribute('.training', 'data-playing'), 'true', 'still training');
    assert.deepEqual(await cropped(page), [], `at ${width} px`);
  }
  await page.click('#train-play');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
