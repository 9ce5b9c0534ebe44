// The temperature slider with the keyboard: each → moves it one place and
// the temperature with it, through the whole range. Its values are rounded
// to 3 figures, and two neighbouring places can round alike (1.02 at 503
// and 504): the slider must not be put back on the first of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, useBrowser } from './browser.mjs';

const env = useBrowser();

test('→ on the temperature slider moves it one place a press, past 1.02', async () => {
  const page = await openPage(env.browser, `${env.url}#temperature=1`);
  assert.equal(await ready(page), 'ready');
  const slider = page.locator('#temperature');
  await slider.focus();
  assert.equal(await slider.inputValue(), '500');
  for (let i = 1; i <= 12; i++) {
    await page.keyboard.press('ArrowRight');
    assert.equal(await slider.inputValue(), String(500 + i), `after ${i} presses`);
  }
  assert.equal(await page.textContent('#temperature-value'), '1.07');  // 0.05 · 400^0.512
  await page.context().close();
});
