// Every step of the playground as a learner sees it, saved to
// tests/screenshots/ to be looked at: three desktop sizes, a phone, dark
// mode, and frames in the middle of each animation. Each picture must also
// come without errors and without a sideways page scroll.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, shot, useBrowser } from './browser.mjs';

const env = useBrowser();
const steps = ['x', 'qkv', 'scores', 'scaled', 'masked', 'weights', 'out'];
const looks = [
  { name: '1280', viewport: { width: 1280, height: 720 } },
  { name: '1440', viewport: { width: 1440, height: 900 } },
  { name: '1920', viewport: { width: 1920, height: 1080 } },
  { name: '390', viewport: { width: 390, height: 844 } },
  { name: 'dark-1440', viewport: { width: 1440, height: 900 }, colorScheme: 'dark' },
];

for (const look of looks) {
  test(`every step at ${look.name}: its end state and its middle`, async () => {
    const page = await openPage(env.browser, null, { viewport: look.viewport, colorScheme: look.colorScheme ?? 'light' });
    await page.clock.install();
    await page.goto(`${env.url}#preset=sun-rises-causal`);
    assert.equal(await ready(page), 'ready');
    for (const step of steps) {
      await page.click(`.step-button[data-step="${step}"]`);
      await page.clock.runFor(800);  // half of a step at speed 1
      await shot(page, `step-${step}-${look.name}-mid`);
      await page.clock.runFor(1600);
      await shot(page, `step-${step}-${look.name}`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${step}: no sideways scroll`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}
