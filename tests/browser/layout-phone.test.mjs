// A phone (390 × 844, touch, dark): the tab strip and wide tables show that
// they scroll (shadows at the edge with more to see), the sticky player keeps
// to 120 px with every control in reach, and a touch screen shows no
// keyboard hints. Screenshots to tests/screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, screenshotDir, useBrowser } from './browser.mjs';

// what the phone shows, unscrolled sideways: a full-page picture would drop the touch emulation
const shot = (page, name) => page.screenshot({ path: `${screenshotDir}/${name}.png` });

const env = useBrowser();
const phone = { viewport: { width: 390, height: 844 }, colorScheme: 'dark', hasTouch: true, isMobile: true, reducedMotion: 'reduce' };

// A scroller's cue: scroll shadows, the covers attached to its content (background-attachment: local).
const cue = (element) => {
  const s = getComputedStyle(element);
  return { overflows: element.scrollWidth > element.clientWidth + 1, gradients: (s.backgroundImage.match(/gradient\(/g) ?? []).length,
    local: s.backgroundAttachment.split(',').filter((a) => a.trim() === 'local').length };
};

test('the tab strip shows that it scrolls, and Train live and Model are reached by scrolling it', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal`, phone);
  assert.equal(await ready(page), 'ready');
  const nav = await page.$eval('#lessons-nav', cue);
  assert.ok(nav.overflows, 'the strip is wider than the phone');
  assert.ok(nav.gradients >= 4 && nav.local >= 2, `a scroll cue: ${JSON.stringify(nav)}`);
  await shot(page, 'layout-phone-tabs-dark');
  for (const [name, hash] of [['Train live', '#train=induction'], ['Model', '#model=text-gpt']]) {
    const link = page.locator('#lessons-nav a', { hasText: name });
    await link.scrollIntoViewIfNeeded();
    const box = await link.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `${name} in view at ${JSON.stringify(box)}`);
    await link.tap();
    await page.waitForFunction((h) => location.hash.startsWith(h), hash);
  }
  await page.context().close();
});

test('the sticky player takes at most 120 px at every step, every control in reach', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal`, phone);
  assert.equal(await ready(page), 'ready');
  const steps = await page.$$eval('.step-button', (b) => b.filter((x) => !x.closest('li').hidden).map((x) => x.dataset.step));
  for (const step of steps) {
    const button = page.locator(`.step-button[data-step="${step}"]`);
    await button.scrollIntoViewIfNeeded();
    await button.tap();
    await page.waitForFunction((s) => document.querySelector('.step-button.current')?.dataset.step === s, step);
    const box = await page.evaluate(() => {
      window.scrollTo(0, document.querySelector('.stage').getBoundingClientRect().top + window.scrollY + 300);
      const r = document.querySelector('.player').getBoundingClientRect();
      // every control: drawn, and inside the player (the steps' row scrolls sideways)
      const hidden = [...document.querySelectorAll('.player button, .player select')]
        .filter((c) => !c.closest('li[hidden]') && (c.offsetParent === null || c.getBoundingClientRect().height < 16 || c.getBoundingClientRect().bottom > r.bottom + 1))
        .map((c) => c.id || c.dataset.step);
      return { top: Math.round(r.top), height: Math.round(r.height), hidden, prompt: document.getElementById('prompt').innerText.trim() };
    });
    assert.equal(box.top, 0, `${step}: the player sticks to the top`);
    assert.ok(box.height <= 120, `${step}: the player takes ${box.height} px`);
    assert.deepEqual(box.hidden, [], `${step}: controls out of reach`);
    assert.ok(box.prompt.length > 0, `${step}: the prompt says something`);
    if (step === 'weights') await shot(page, 'layout-phone-player-dark');
  }
  // the steps' row scrolls sideways, with its cue
  const row = await page.$eval('.steps', cue);
  assert.ok(row.gradients >= 4 && row.local >= 2, `the steps' cue: ${JSON.stringify(row)}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a touch screen shows no keyboard hints: the prompt, the landing line, the footer, the detail panel', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal`, phone);
  assert.equal(await ready(page), 'ready');
  assert.equal(await page.evaluate(() => matchMedia('(hover: none) and (pointer: coarse)').matches), true);
  const shown = () => page.evaluate(() => ({
    kbd: [...document.querySelectorAll('kbd')].filter((k) => k.getClientRects().length > 0).map((k) => k.textContent),
    prompt: document.getElementById('prompt').innerText.trim(),
    footer: document.querySelector('.footer').innerText,
    detail: document.getElementById('detail').innerText.trim(),
  }));
  const landing = await shown();  // the bare link's first screen: its sentence without its keys
  assert.deepEqual(landing.kbd, []);
  assert.match(landing.prompt, /^Row ‘.*’ is a query: .* summing to 1\.$/);
  assert.doesNotMatch(landing.footer, /Keys:/);
  await page.locator('.step-button[data-step="x"]').tap();
  await page.waitForFunction(() => document.querySelector('.step-button.current')?.dataset.step === 'x');
  const first = await shown();
  assert.deepEqual(first.kbd, []);
  assert.equal(first.prompt, 'Tap a step, or Play.');
  assert.equal(first.detail, 'Tap a cell to see how its number was computed.');
  await page.locator('.step-button[data-step="scores"]').tap();
  await page.waitForFunction(() => document.querySelector('.step-button.current')?.dataset.step === 'scores');
  const middle = await shown();
  assert.deepEqual(middle.kbd, []);
  assert.equal(middle.prompt, 'Step 3 of 7');
  // a tap on a cell explains it
  const canvas = page.locator('.stage figure[data-matrix="scores"] canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.touchscreen.tap(box.x + box.width - 10, box.y + box.height - 10);
  await page.waitForFunction(() => document.querySelector('#detail h3'));
  await page.locator('#detail').scrollIntoViewIfNeeded();
  await shot(page, 'layout-phone-touch-dark');
  // the graph writes its own key as text: One query's says tap, not keys
  await page.locator('.graph-modes button[data-mode="one"]').first().tap();
  const graphKey = () => page.$eval('figure[data-view="graph"] .graph-key', (p) => p.textContent);
  await page.waitForFunction(() => document.querySelector('figure[data-view="graph"] .graph-key').textContent.includes('One query'));
  assert.doesNotMatch(await graphKey(), /arrow keys|\bkeys?\b/i);
  assert.match(await graphKey(), /tap a token/);
  await page.context().close();
});

test('the logit lens\'s table and the head scores\' table show that they scroll sideways', async () => {
  for (const lens of ['logit-lens', 'scores']) {
    // motion allowed: the sticky column's shade follows the scroll (a scroll-driven animation)
    const page = await openPage(env.browser, `${env.url}#model=text-gpt&lens=${lens}`, { ...phone, reducedMotion: 'no-preference' });
    await page.waitForSelector('.lens-panel[data-state="ready"]', { timeout: 60000 });
    const scroller = await page.$$eval('.lens-scroll', (all, src) => all.map((s) => new Function(`return (${src})`)()(s)), cue.toString());
    assert.ok(scroller.length > 0, lens);
    const wide = scroller.filter((s) => s.overflows);
    assert.ok(wide.length > 0, `${lens}: a table wider than the phone`);
    for (const s of wide) assert.ok(s.gradients >= 4 && s.local >= 2, `${lens}: a scroll cue: ${JSON.stringify(s)}`);
    // the sticky first column casts a shade once columns pass under it, none before
    const under = (left) => page.$$eval('.lens-scroll', (all, x) => {
      const s = all.find((e) => e.scrollWidth > e.clientWidth + 1);
      s.scrollLeft = x;
      return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(getComputedStyle(s.querySelector('tbody th[scope="row"]')).boxShadow))));
    }, left);
    assert.match(await under(0), /^(none|rgba\(0, 0, 0, 0\) 0px 0px 0px 0px)$/, `${lens}: a shade with nothing under the column`);
    assert.match(await under(100), /rgba\(128, 128, 128/, `${lens}: no shade while columns pass under the first`);
    await page.$$eval('.lens-scroll', (all) => all.find((s) => s.scrollWidth > s.clientWidth + 1).scrollIntoView({ block: 'center' }));
    await shot(page, `layout-phone-${lens}-dark`);
    await page.context().close();
  }
});
