// A run of the Model view is one request to the model's worker: the run's
// one answer carries what the page draws after it, the head scores "Start
// here" (the shipped model) and the try list (any other) name a head by
// included. Counted, not timed (page-work.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, useBrowser } from './browser.mjs';
import { countPageWork, pageWork } from './page-work.mjs';

const env = useBrowser({ csp: true });

// The requests the page posts to the model's worker while `act` runs and
// the view draws its answer (`tokens` chips), by method.
async function requestsWhile(page, act, tokens) {
  const before = await pageWork(page);
  await act();
  await page.waitForFunction((n) => document.querySelectorAll('.token-chip').length === n && document.querySelector('.model-view').dataset.state === 'ready', tokens);
  await page.waitForTimeout(200);  // a request after the draw would be posted by now
  const after = await pageWork(page);
  return after.posted.slice(before.posted.length).filter((p) => p.worker === 'model-worker.js').map((p) => p.type);
}

test('a keystroke is its text\'s ids and one run request: "Start here" names its head from the run\'s own answer', async () => {
  const page = await openPage(env.browser, null);
  await countPageWork(page.context());
  await page.goto(`${env.url}#model=text-gpt&text=To%20be`);
  await page.waitForSelector('.start-here:not([hidden]) .start-here-show', { timeout: 30000 });
  const head = await page.getAttribute('.start-here', 'data-head');
  assert.match(head, /^\d\.\d$/);
  await page.focus('.model-text-field textarea');
  await page.keyboard.press('End');
  const posted = await requestsWhile(page, () => page.keyboard.type('!'), 6);
  // a character model's ids come from the worker (encode), then the run: nothing after it
  assert.deepEqual(posted, ['encode', 'run'], 'one run request, no headScores after it');
  assert.match(await page.getAttribute('.start-here', 'data-head'), /^\d\.\d$/);
  assert.ok(!await page.isHidden('.start-here'));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
