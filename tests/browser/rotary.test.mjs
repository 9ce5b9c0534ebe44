// Rotary positions in the page (models-v2.md, scenario-v1.md "The attention
// layer"): the rotate step, shown only for rotary scenarios, with q and k
// before and after their turn and each pair's angle from the core; the
// element's step="rotate"; the lesson "Where is position?"; screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { hostSite, openPage, ready, root, serve, shot, useBrowser } from './browser.mjs';

const env = useBrowser();
const golden = JSON.parse(readFileSync(join(root, 'tests', 'golden', 'rotary-sun-rises.trace.json'), 'utf8'));

// The value of a cell of a stage matrix, as the detail panel prints it after
// the arrow keys move the focus there from (0, 0).
async function cell(page, name, row, col) {
  const canvas = await page.$(`.stage figure.heatmap[data-matrix="${name}"] canvas`);
  await canvas.focus();
  for (let i = 0; i < row; i++) await page.keyboard.press('ArrowDown');
  for (let j = 0; j < col; j++) await page.keyboard.press('ArrowRight');
  const heading = await page.textContent('#detail h3');
  return { value: Number(heading.split('=').pop().trim().replace('−', '-')), text: await page.textContent('#detail') };
}

const visibleSteps = (page) => page.$$eval('.step-button', (b) => b.filter((x) => x.offsetParent !== null).map((x) => x.dataset.step));

test('a rotary preset plays rotate between q, k, v and scores: q and k before and after, and the angles', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=rotary-sun-rises&step=rotate`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  assert.deepEqual(await visibleSteps(page), ['x', 'qkv', 'rotate', 'scores', 'scaled', 'masked', 'weights', 'out']);
  assert.equal(await page.getAttribute('.step-button.current', 'data-step'), 'rotate');
  assert.match(await page.textContent('#step-title'), /^rotate/);
  const names = await page.$$eval('.stage figure.heatmap', (f) => f.map((x) => x.dataset.matrix));
  assert.deepEqual(names, ['q', 'angles', 'q_rotated', 'k', 'k_rotated']);
  // pair 0 turns one radian per position; pair 1 (d_k 4) 10000^(-1/2) = 0.01 radians
  assert.equal((await cell(page, 'angles', 3, 0)).value, 3);
  assert.equal((await cell(page, 'angles', 5, 1)).value, 0.05);
  // q_rotated[2, 1] is PyTorch's, and its detail says how it was turned
  const turned = await cell(page, 'q_rotated', 2, 1);
  assert.ok(Math.abs(turned.value - golden.heads[0].q_rotated.data[2 * 4 + 1]) < 0.006, `${turned.value}`);
  assert.match(turned.text, /q_rotated\[2, 1\] = q\[2, 1\] · cos\(angle\) − q\[2, 3\] · sin\(angle\)/);
  assert.match(turned.text, /angle 0\.02/);
  // the step after is scores of the turned q and k
  await page.keyboard.press('Escape');
  await page.click('#forward');
  await page.waitForFunction(() => document.querySelector('.step-button.current')?.dataset.step === 'scores');
  assert.deepEqual(await page.$$eval('.stage figure.heatmap', (f) => f.map((x) => x.dataset.matrix)), ['q_rotated', 'k_rotated', 'scores']);
  assert.equal(await page.textContent('#formula'), 'scores[i, j] = q_rotated[i] · k_rotated[j]');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a scenario without rotary has no rotate step, and a link to it says so and shows scores', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=qkv`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  assert.deepEqual(await visibleSteps(page), ['x', 'qkv', 'scores', 'scaled', 'masked', 'weights', 'out']);
  await page.click('#forward');
  await page.waitForFunction(() => document.querySelector('.step-button.current')?.dataset.step === 'scores');
  await page.goto(`${env.url}#preset=sun-rises-causal&step=rotate`);
  await page.reload();
  assert.equal(await ready(page), 'ready');
  assert.equal(await page.getAttribute('.step-button.current', 'data-step'), 'scores');
  assert.match(await page.textContent('#notice'), /step rotate needs a scenario with rotary positions; showing scores/);
  await page.context().close();
});

test('the element takes step="rotate" for a rotary preset and refuses it, in one line, for another', async () => {
  const script = '<script type="module" src="assets/attention-playground/attention-playground.js"></script>';
  const dir = hostSite({ 'rotate.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>${script}</head><body>
    <attention-playground id="yes" scenario="rotary-sun-rises" view="matrices" step="rotate"></attention-playground>
    <attention-playground id="no" scenario="sun-rises-causal" view="matrices" step="rotate"></attention-playground></body></html>` });
  const { server, url } = await serve({ root: dir });
  try {
    const page = await openPage(env.browser, `${url}rotate.html`);
    for (const id of ['#yes', '#no']) await ready(page, id);
    assert.equal(await page.getAttribute('#yes', 'data-state'), 'ready');
    assert.equal(await page.$eval('#yes', (e) => e.step), 'rotate');
    assert.deepEqual(await page.$eval('#yes', (e) => [...e.shadowRoot.querySelectorAll('figure.heatmap')].map((f) => f.dataset.matrix)),
      ['q', 'angles', 'q_rotated', 'k', 'k_rotated']);
    assert.equal(await page.getAttribute('#no', 'data-state'), 'error');
    assert.equal(await page.$eval('#no', (e) => e.shadowRoot.querySelector('.message').textContent),
      'Attention Playground: step rotate needs a scenario with rotary positions');
    await page.context().close();
  } finally {
    server.close();
  }
});

test('Where is position? The same scenario at offsets 0 and 5: other turned queries, the same scores', async () => {
  const page = await openPage(env.browser, `${env.url}#lesson=position`);
  assert.equal(await ready(page), 'ready');
  assert.equal(await page.textContent('#lesson-title'), 'Where is position?');
  assert.equal(await page.textContent('#lesson .badge'), 'the scores at positions 0–5 and 5–10 agree within float32 rounding: True (as predicted: they depend on i − j only)');
  assert.deepEqual(await page.$$eval('#lesson figure.heatmap', (f) => f.map((x) => x.dataset.matrix)), ['q-rotated-a', 'q-rotated-b', 'scores-a', 'scores-b']);
  const moved = Number(/largest difference between the two is (\d+\.\d+)/.exec(await page.textContent('#lesson'))[1]);
  assert.ok(moved > 0.1, `the turned queries differ: ${moved}`);
  const same = Number(/two score matrices: ([\d.e+-]+)/.exec(await page.textContent('#lesson'))[1]);
  assert.ok(same < 1e-5, `the scores agree: ${same}`);
  assert.equal(await page.getAttribute('#lesson-open', 'href'), '#preset=rotary-sun-rises&step=rotate');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('screenshots: the rotate step and the lesson, 1280 × 720 and 390 × 844, light and dark', async () => {
  for (const [width, height] of [[1280, 720], [390, 844]])
    for (const colorScheme of ['light', 'dark']) {
      const page = await openPage(env.browser, `${env.url}#preset=rotary-sun-rises&step=rotate`, { viewport: { width, height }, colorScheme, reducedMotion: 'reduce' });
      assert.equal(await ready(page), 'ready');
      await shot(page, `rotary-rotate-${width}-${colorScheme}`);
      await page.goto(`${env.url}#lesson=position`);
      await page.waitForSelector('#lesson .badge');
      await shot(page, `rotary-lesson-${width}-${colorScheme}`);
      await page.context().close();
    }
});
