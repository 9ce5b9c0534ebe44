// The keys the page advertises (README, "The page": Space, ←/→, Home/End),
// pressed as a learner would, from a fresh load with no click first, at a
// laptop, a large screen and a phone: they move the player one step a press
// and never scroll the page; the same after ▶ has reached the end, after a
// view change and after Back/Forward. Where a control keeps its own keys
// (a text field, a select, a slider, the mask editor) and where there is
// no player (a lesson), the keys are the browser's.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, useBrowser } from './browser.mjs';

const env = useBrowser();

const viewports = [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }];
const order = ['x', 'qkv', 'scores', 'scaled', 'masked', 'weights', 'out'];

const stepOf = (page) => page.$eval('.step-button.current', (b) => b.dataset.step);
const scrollY = (page) => page.evaluate(() => window.scrollY);

// One key: the player lands on `step` and the page has not scrolled.
async function press(page, key, step, at) {
  const before = await scrollY(page);
  await page.keyboard.press(key);
  assert.equal(await stepOf(page), step, `${at}: ${key} → ${step}`);
  assert.equal(await scrollY(page), before, `${at}: ${key} scrolled the page`);
}

// → and ← one step a press through every step and back; Home, End.
async function walk(page, at) {
  await press(page, 'Home', 'x', at);
  for (const step of order.slice(1)) await press(page, 'ArrowRight', step, `${at}, forward`);
  for (const step of order.slice(0, -1).reverse()) await press(page, 'ArrowLeft', step, `${at}, back`);
  await press(page, 'End', 'out', at);
  await press(page, 'Home', 'x', at);
}

// Space plays, and Space pauses, never scrolling.
async function spacePlays(page, at) {
  const before = await scrollY(page);
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true', `${at}: Space plays`);
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false', `${at}: Space pauses`);
  assert.equal(await scrollY(page), before, `${at}: Space scrolled the page`);
}

for (const viewport of viewports) {
  const size = `${viewport.width} × ${viewport.height}`;
  test(`keys from a fresh load at ${size}: → ← one step a press, Home, End, Space plays and pauses, never scrolling`, async () => {
    const page = await openPage(env.browser, env.url, { viewport });
    assert.equal(await ready(page), 'ready');
    // no click first: the focus is the page's
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true);
    assert.equal(await stepOf(page), 'weights', `${size}: a bare link opens on the weights`);
    await press(page, 'ArrowRight', 'out', `${size}, fresh`);
    await press(page, 'ArrowLeft', 'weights', `${size}, fresh`);
    await walk(page, `${size}, fresh`);
    await spacePlays(page, `${size}, fresh`);

    // ▶ clicked to the end: the disabled button hands its focus on, the keys keep working
    await page.keyboard.press('Home');
    for (let i = 1; i < order.length; i++) await page.click('#forward');
    assert.equal(await page.$eval('#forward', (b) => b.disabled), true);
    const focused = await page.evaluate(() => ({ body: document.activeElement === document.body, disabled: !!document.activeElement.disabled }));
    assert.deepEqual(focused, { body: false, disabled: false }, `${size}: focus after ▶ reached the end`);
    await press(page, 'ArrowLeft', 'weights', `${size}, after ▶`);
    await walk(page, `${size}, after ▶`);
    await spacePlays(page, `${size}, after ▶`);

    // Play reaches the end by itself: the keys still step
    await page.selectOption('#speed', '4');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.click('#play');
    await page.waitForFunction(() => document.getElementById('play').getAttribute('aria-pressed') === 'false', null, { timeout: 30000 });
    assert.equal(await stepOf(page), 'out');
    await press(page, 'ArrowLeft', 'weights', `${size}, after Play`);
    await press(page, 'ArrowRight', 'out', `${size}, after Play`);

    // a view change (the nav) and back to the playground by the nav
    await page.click('#lessons-nav a[href="#lesson=qkv"]');
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'lesson');
    await ready(page);
    await page.click('#lessons-nav a:first-child');
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'playground');
    await ready(page);
    await walk(page, `${size}, after the nav`);
    await spacePlays(page, `${size}, after the nav`);

    // Back into the playground: the lesson, then Back
    const view = (name) => page.waitForFunction((v) => document.getElementById('app').dataset.view === v, name);
    await page.click('#lessons-nav a[href="#lesson=qkv"]');
    await view('lesson');
    await page.goBack();
    await view('playground');
    await ready(page);
    await walk(page, `${size}, after Back`);
    await spacePlays(page, `${size}, after Back`);
    // Forward into the playground: the lesson, the playground, Back, Forward
    await page.click('#lessons-nav a[href="#lesson=qkv"]');
    await view('lesson');
    await page.click('#lessons-nav a:first-child');
    await view('playground');
    await page.goBack();
    await view('lesson');
    await page.goForward();
    await view('playground');
    await ready(page);
    await walk(page, `${size}, after Forward`);
    await spacePlays(page, `${size}, after Forward`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('the keys are the browser\'s in a lesson, and a field\'s, a select\'s, a slider\'s and the mask editor\'s own', async () => {
  // a lesson has no player: Space scrolls it and the URL keeps no step
  const lesson = await openPage(env.browser, `${env.url}#lesson=qkv`, { viewport: { width: 1280, height: 720 } });
  assert.equal(await ready(lesson), 'ready');
  const hash = await lesson.evaluate(() => location.hash);
  await lesson.keyboard.press('Space');
  await lesson.waitForFunction(() => window.scrollY > 0);
  await lesson.keyboard.press('ArrowDown');
  assert.equal(await lesson.evaluate(() => location.hash), hash);
  // the footer advertises the player's keys only where the player is
  assert.equal(await lesson.isVisible('.footer .player-keys'), false);
  await lesson.context().close();

  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=masked&mask=100000.110000.111000.111100.111110.111111`,
    { viewport: { width: 1280, height: 720 } });
  assert.equal(await ready(page), 'ready');
  for (const [selector, keys] of [['#sentence', ['ArrowLeft', 'End', 'Home', 'Space']], ['#temperature', ['ArrowRight', 'Home']],
    ['#speed', ['ArrowDown']], ['.mask-cell[tabindex="0"]', ['ArrowRight', 'ArrowDown', 'End', 'Home', 'Space']]]) {
    await page.focus(selector);
    for (const key of keys) await page.keyboard.press(key);
    assert.equal(await stepOf(page), 'masked', `${selector} keeps ${keys.join(', ')}`);
    await ready(page);
  }
  assert.equal(await page.isVisible('.footer .player-keys'), true);
  // every control stays a control a screen reader reaches: the keys are a shortcut
  const controls = await page.$$eval('#player button', (buttons) => buttons.map((b) => b.tabIndex >= 0 && (b.getAttribute('aria-label') || b.textContent).trim() !== ''));
  assert.ok(controls.length >= 12 && controls.every(Boolean));
  // focused, a matrix keeps the arrows; j/k/l reach the player
  await page.focus('.heatmap canvas');
  await page.keyboard.press('ArrowRight');
  assert.equal(await stepOf(page), 'masked');
  await page.keyboard.press('l');
  assert.equal(await stepOf(page), 'weights');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
