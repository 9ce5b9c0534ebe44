// What a third fresh learner met in the lenses and the Model view (a review
// from a first visit, the keyboard only for a while, at 1280 and 390): a
// position chosen in Attribution broke the lens once the text was shorter;
// buttons that hide or disable themselves dropped the focus to the page; a
// head's name scrolled its panel into sight and left the focus behind, off
// screen; a logit-lens cell's top 5 opened below the window; at 390 a
// focused cell slid under the sticky first column; Tab crossed the Model
// view's panels in another order than a phone or a docs column shows them;
// and a few sentences said more than the numbers. Each test fails without
// its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, useBrowser } from './browser.mjs';

const env = useBrowser();

async function lensPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForSelector('.lens-panel[data-state="ready"], .lens-panel[data-state="idle"], .lens-panel[data-state="error"]', { timeout: 30000 });
  return page;
}
const lensSettled = (page) => page.waitForFunction(() => ['ready', 'idle', 'error'].includes(document.querySelector('.lens-panel')?.dataset.state), null, { timeout: 30000 });
const focused = (page) => page.evaluate(() => document.activeElement?.className ?? '');
async function typed(page, text) {
  await page.fill('.model-text-field textarea', text);
  await page.waitForFunction((n) => document.querySelector('.model-view')?.dataset.tokens?.split(',').length === n, [...text].length);
}
const inWindow = (page, selector) => page.$eval(selector, (e) => {
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight + 1 && r.height > 0;
});

test('attribution: a position past a shorter text shows the last one and says so; the position chosen comes back with the text', async () => {
  const page = await lensPage('#model=text-gpt&lens=attribution');
  await page.selectOption('.lens-attribution-controls select >> nth=0', '15');
  await lensSettled(page);
  await typed(page, 'hi');
  await lensSettled(page);
  assert.equal(await page.getAttribute('.lens-panel', 'data-state'), 'ready', await page.textContent('.lens-status'));
  assert.equal(await page.$eval('.lens-attribution-controls select', (s) => s.value), '1');
  assert.equal(await page.textContent('.lens-attribution-past'), 'Position 15 is past the text’s 2 tokens: the last position is shown until the text is long enough again.');
  assert.match(await page.textContent('.lens-attribution-title'), /after position 1 /);
  await typed(page, 'hi there, my friend');
  await lensSettled(page);
  assert.equal(await page.$eval('.lens-attribution-controls select', (s) => s.value), '15');
  assert.equal(await page.isVisible('.lens-attribution-past'), false);
  assert.match(await page.textContent('.lens-attribution-title'), /after position 15 /);
  assert.equal(new URLSearchParams((await page.evaluate(() => window.location.hash)).slice(1)).get('at'), '15');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the focus stays with the learner: Ablate from the scores, every head back on, Generate, and Start here dismissed', async () => {
  const page = await lensPage('#model=text-gpt&lens=scores');
  // "Ablate 0.2" opens the Ablate tab, the scores' button hidden: the focus is on that head's toggle
  await page.focus('.lens-ablate-head >> nth=2');
  const name = await page.evaluate(() => document.activeElement.textContent.replace('Ablate ', ''));
  await page.keyboard.press('Enter');
  await lensSettled(page);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.head), name);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-pressed')), 'true');
  // "Switch every head back on" disables itself: the focus goes to the grid's first head
  await page.focus('.lens-ablate-clear');
  await page.keyboard.press('Enter');
  await lensSettled(page);
  assert.equal(await focused(page), 'lens-ablate-toggle');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.head), '0.0');
  // Generate by Enter: focused while it works, and after
  await page.focus('.model-generate-action button');
  const before = await page.$eval('.model-view', (v) => v.dataset.tokens.split(',').length);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Generate 10 tokens');
  await page.waitForFunction((n) => document.querySelector('.model-view').dataset.tokens.split(',').length > n, before);
  await page.waitForFunction(() => !document.querySelector('.model-generate-action button').hasAttribute('aria-disabled'));
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Generate 10 tokens');
  // "Start here" dismissed: the focus goes on to the text it invites the learner to type
  await page.waitForSelector('.start-here:not([hidden])');
  await page.focus('.start-here-close');
  await page.keyboard.press('Enter');
  assert.equal(await page.isVisible('.start-here'), false);
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'TEXTAREA');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a head named in a lens: the focus comes along to the head shown, and "Back to" returns it to the name, in sight', async () => {
  for (const [lens, selector, tab] of [['scores', '.lens-scores-table .lens-head >> nth=3', 'Head scores'], ['attribution', '.lens-part-name[type="button"] >> nth=1', 'Attribution']]) {
    const page = await lensPage(`#model=text-gpt&lens=${lens}`);
    await page.focus(selector);
    const chosen = await page.evaluate(() => document.activeElement.textContent);
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), `↓ Back to ${tab}`, lens);
    await page.waitForFunction(() => { const r = document.querySelector('.model-head-panel').getBoundingClientRect(); return r.top >= -1 && r.top < window.innerHeight; });
    assert.match(await page.textContent('.model-head-panel h3'), new RegExp(chosen.replace('head ', '').split('.').map((n, i) => (i ? `head ${n}` : `layer ${n}`)).join(', '), 'i'));
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), chosen, lens);
    await page.waitForFunction(() => { const r = document.activeElement.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; });
    assert.equal(await page.isVisible('.model-head-back'), false);
    // the name gone from sight meanwhile (another tab, the lenses closed): back to its tab, else the lenses' button
    await page.focus(selector);
    await page.keyboard.press('Enter');
    await page.click(`.lens-tab:not([data-lens="${lens}"]) >> nth=0`);
    await lensSettled(page);
    await page.click('.model-head-back');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), tab);
    await page.focus(selector.startsWith('.lens-scores') ? '.lens-tab[data-lens="scores"]' : '.lens-tab[data-lens="attribution"]');
    await page.keyboard.press('Enter');
    await lensSettled(page);
    await page.focus(selector);
    await page.keyboard.press('Enter');
    await page.click('.lens-close');
    await page.click('.model-head-back');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'lens-open');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
  // "Start here" is above the head: its way back points up, and goes on to the text once it is dismissed
  const page = await lensPage('#model=text-gpt&lens=scores');
  await page.waitForSelector('.start-here:not([hidden]) .start-here-show');
  await page.click('.start-here-show');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), '↑ Back to “Start here”');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'start-here-show');
  await page.click('.start-here-show');
  await page.$eval('.start-here', (box) => { box.hidden = true; });
  await page.click('.model-head-back');
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'TEXTAREA');
  await page.context().close();
});

test('the skip link on the Model view moves the focus to the model', async () => {
  const page = await openPage(env.browser, `${env.url}#model=text-gpt`);
  await page.waitForFunction(() => document.querySelector('.model-view')?.dataset.state === 'ready', null, { timeout: 30000 });
  await page.focus('.skip-link');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'lesson');
  assert.ok(await page.evaluate(() => document.activeElement.contains(document.querySelector('.model-view'))));
  await page.context().close();
});

test('a logit-lens cell clicked at 1280 × 900 opens its top 5 in sight', async () => {
  const page = await lensPage('#model=text-gpt&lens=logit-lens', { viewport: { width: 1280, height: 900 } });
  await page.$eval('.lens-grid', (g) => g.scrollIntoView({ block: 'end' }));  // the grid's foot at the window's: its top 5 below
  assert.equal(await inWindow(page, '.lens-cell-detail'), false);
  await page.click('.lens-cell[data-row="1"][data-position="3"]');
  await page.waitForFunction(() => { const r = document.querySelector('.lens-top5').getBoundingClientRect(); return r.bottom <= window.innerHeight + 1 && r.top >= 0; });
  assert.ok(await inWindow(page, '.lens-cell[data-row="1"][data-position="3"]'), 'the cell clicked stays in sight');
  await page.context().close();
});

test('at 390 a focused cell of a sideways-scrolling table stops clear of its sticky first column', async () => {
  const page = await lensPage('#model=text-gpt&lens=scores', { viewport: { width: 390, height: 844 } });
  const clear = (selector) => page.evaluate((s) => {
    const cell = document.activeElement.getBoundingClientRect();
    const sticky = document.querySelector(s).getBoundingClientRect();
    const scroller = document.activeElement.closest('.lens-scroll').getBoundingClientRect();
    return { left: cell.left >= sticky.right, right: cell.right <= scroller.right - 2 };
  }, selector);
  await page.focus('th[data-key="duplicate_token"] button');
  await page.focus('.lens-scores-table tbody .lens-ablate-head');  // far right: the table scrolls to it
  assert.deepEqual(await clear('.lens-scores-table tbody th[scope="row"]'), { left: true, right: true });
  await page.keyboard.down('Shift');
  for (let n = 0; n < 12; n += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement.closest('th[data-key="duplicate_token"]') !== null)) break;
  }
  await page.keyboard.up('Shift');
  assert.ok(await page.evaluate(() => document.activeElement.closest('th[data-key="duplicate_token"]') !== null));
  assert.equal((await clear('.lens-scores-table thead th[data-key="head"]')).left, true, 'the header is not under the Head column');
  await page.context().close();
});

test('Tab crosses the Model view\'s panels in the order they are laid out, at 1000 and at 390', async () => {
  for (const width of [1000, 390]) {
    const page = await openPage(env.browser, `${env.url}#model=text-gpt`, { viewport: { width, height: 900 } });
    await page.waitForFunction(() => document.querySelector('.model-view')?.dataset.state === 'ready', null, { timeout: 30000 });
    // as laid out: reading order, top to bottom and left to right
    const laidOut = await page.$$eval('.model-body > section:not(.lens-section)', (panels) => panels
      .map((p) => ({ name: p.className, box: p.getBoundingClientRect() }))
      .sort((a, b) => (Math.abs(a.box.top - b.box.top) < 2 ? a.box.left - b.box.left : a.box.left < b.box.right && b.box.left < a.box.right ? a.box.top - b.box.top : a.box.left - b.box.left))
      .map((p) => p.name));
    await page.focus('.model-grid-panel button');
    const visited = [];
    for (let n = 0; n < 60; n += 1) {
      const where = await page.evaluate(() => document.activeElement.closest('.model-body > section')?.className ?? 'out');
      if (where === 'out' || where === 'lens-section') break;
      if (visited.at(-1) !== where) visited.push(where);
      await page.keyboard.press('Tab');
    }
    assert.deepEqual(visited, laidOut, `at ${width}`);
    assert.deepEqual(visited, ['model-grid-panel', 'model-head-panel', 'model-next-panel', 'model-graph-panel'], `at ${width}`);
    await page.context().close();
  }
});

test('the words: heads ablated to their means, a loss that barely moved, the attribution head "up or down", the skip link on the Model view', async () => {
  const page = await lensPage('#model=text-gpt&lens=ablate&ablate=0.1,1.2&mode=mean');
  assert.match(await page.textContent('.lens-ablate-bars [data-side="after"]'), /heads 0\.1, 1\.2 replaced by each its own mean over the positions\./);
  // "before" is the model's own probabilities, not the bars' at the slider's temperature: said
  assert.match(await page.textContent('.lens-ablate-bars [data-side="before"]'), /the model as it is, its own probabilities \(temperature 1, where the bars above use the slider’s\)\./);
  assert.equal(await page.textContent('.skip-link'), 'Skip to the model');
  await page.click('.lens-tab[data-lens="attribution"]');
  await lensSettled(page);
  assert.match(await page.textContent('.lens-replay'), /\(the head that moves this logit most, up or down\)/);
  await page.context().close();
  // on the default text head 0.0's mean moves text-gpt's loss by 0.16%, head 0.2's zeros by 24%
  for (const [hash, said] of [['ablate=0.0&mode=mean', /The loss barely moved: on this text these heads make little difference/], ['ablate=0.2', /The loss rose: these heads were helping/]]) {
    const ablated = await lensPage(`#model=text-gpt&lens=ablate&${hash}`);
    const [before, after] = await ablated.$eval('.lens-loss', (l) => [Number(l.dataset.before), Number(l.dataset.after)]);
    assert.equal(Math.abs(after - before) < 0.005 * before, hash.includes('0.0'), `${hash}: ${before} -> ${after}`);
    assert.match(await ablated.textContent('.lens-loss'), said);
    await ablated.context().close();
  }
});
