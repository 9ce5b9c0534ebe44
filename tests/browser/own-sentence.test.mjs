// The learner's own sentence, told for what it is: its numbers are random
// (an untrained embedding and torch.rand projections), and the first screen
// says so beside them, with the way to meaning: the same sentence in the
// shipped trained model, and the trained induction heads. The preset menu
// names the sentence as shown, never blank. Screenshots: 1280 light, 390 dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, shot, useBrowser, violations } from './browser.mjs';

const env = useBrowser();
const sentence = 'I love my cat because it purrs';

// The page at a fresh load, the sentence typed into the bar's field.
async function typed(viewport, colorScheme = 'light') {
  const page = await openPage(env.browser, env.url, { viewport, colorScheme, reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  await page.fill('#sentence', sentence);
  await page.waitForFunction((s) => new URLSearchParams(location.hash.slice(1)).get('sentence') === s, sentence);
  await page.waitForFunction(() => document.getElementById('tokens').textContent.includes('purrs'));
  return page;
}

// What the first screen shows of the line, unscrolled.
const lineSeen = (page) => page.evaluate(() => {
  window.scrollTo(0, 0);
  const line = document.getElementById('own-sentence');
  const box = line?.getBoundingClientRect();
  const bottom = (s) => Math.round(document.querySelector(s).getBoundingClientRect().bottom);
  return line && {
    visible: line.getClientRects().length > 0 && getComputedStyle(line).visibility !== 'hidden',
    top: Math.round(box.top),
    bottom: Math.round(box.bottom),
    text: line.textContent,
    links: [...line.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]),
    inDrawer: Boolean(line.closest('#settings-drawer')),
    inGraphCard: Boolean(line.closest('.graph-wrap')),
    aboveMatrices: line.nextElementSibling === document.getElementById('matrices'),
    graph: bottom('figure[data-view="graph"] canvas'),
  };
});

test('a typed sentence says on the first screen that its numbers are random, and links to a trained model and to the induction heads', async () => {
  for (const [viewport, scheme] of [[{ width: 1280, height: 720 }, 'light'], [{ width: 390, height: 844 }, 'dark']]) {
    const at = `${viewport.width} × ${viewport.height}`;
    const page = await typed(viewport, scheme);
    const seen = await lineSeen(page);
    assert.ok(seen, `${at}: no line about the sentence's numbers`);
    assert.ok(seen.visible && !seen.inDrawer, `${at}: the line shows, outside the folded panel`);
    assert.ok(seen.top >= 0 && seen.bottom <= viewport.height, `${at}: the line is on the first screen (${seen.top}–${seen.bottom})`);
    assert.match(seen.text, /^Random numbers, as in the notebook: untrained embeddings and projections, so the words mean nothing yet\./);
    assert.deepEqual(seen.links, [['This sentence in a trained model', '#model=text-gpt&text=I+love+my+cat+because+it+purrs'],
      ['Induction heads, trained', '#lesson=learn&preset=induction']], at);
    // side by side, the line sits in the graph's card: the result and the graph stay on the first screen
    // (the matrices' first line keeps the place a preset's has); narrower, it sits right above the matrices
    if (viewport.width === 1280) {
      assert.ok(seen.inGraphCard, `${at}: the line sits in the graph's card`);
      assert.ok(seen.graph <= viewport.height, `${at}: the graph ends at ${seen.graph}`);
    } else assert.ok(seen.aboveMatrices, `${at}: the line sits right above the matrices`);
    await shot(page, `own-sentence-${viewport.width}-${scheme}`);
    assert.deepEqual(page.problems, [], at);
    assert.deepEqual(await violations(page), [], `${at}: the line's styles are set through the CSSOM, which the page's policy allows`);
    await page.context().close();
  }
});

test('the trained-model link opens the Model view on text-gpt with the same sentence; the induction link opens the trained lesson', async () => {
  const page = await typed({ width: 1280, height: 720 });
  await page.click('#own-sentence a[href^="#model="]');
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 60000 });
  assert.equal(await page.getAttribute('.model-view', 'data-state'), 'ready');
  const hash = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  assert.equal(hash.model, 'text-gpt');
  assert.equal(hash.text, sentence);
  assert.equal(await page.$eval('.model-view textarea', (t) => t.value), sentence);
  // the model read it: one chip per character
  assert.deepEqual(await page.$$eval('.token-chip', (c) => c.map((x) => x.textContent).join('').replaceAll('␣', ' ')), sentence);
  await shot(page, 'own-sentence-model-1280');
  // Back: the sentence again, with its line
  await page.goBack();
  await ready(page);
  await page.waitForSelector('#own-sentence', { state: 'visible' });
  await page.click('#own-sentence a[href^="#lesson="]');
  await page.waitForFunction(() => location.hash === '#lesson=learn&preset=induction');
  await page.waitForSelector('#lesson', { state: 'visible' });
  assert.match(await page.textContent('#lesson-body'), /induction/i);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the preset menu names the sentence shown, never blank; a preset chosen from it replaces the sentence, and Back brings it again', async () => {
  const page = await typed({ width: 1280, height: 720 });
  const menu = () => page.$eval('#preset', (s) => ({ index: s.selectedIndex, shown: s.selectedOptions[0]?.textContent ?? '' }));
  assert.deepEqual(await menu(), { index: 0, shown: 'Your own sentence' });
  await page.focus('#preset');  // as a click on the menu does
  await page.selectOption('#preset', 'bank-raw');
  await page.waitForFunction(() => location.hash.includes('preset=bank-raw') && !location.hash.includes('sentence='));
  await ready(page);
  assert.match(await page.textContent('#tokens'), /bank/);
  assert.equal((await menu()).shown, await page.$eval('#preset option[value="bank-raw"]', (o) => o.textContent));
  assert.equal(await page.$$eval('#preset option', (o) => o.filter((x) => x.textContent === 'Your own sentence').length), 0, 'a preset shown: no sentence in the menu');
  assert.equal(await page.isVisible('#own-sentence'), false, 'a preset says nothing of random words');
  await page.goBack();
  await page.waitForFunction((s) => new URLSearchParams(location.hash.slice(1)).get('sentence') === s, sentence);
  await page.waitForFunction(() => document.getElementById('tokens').textContent.includes('purrs'));
  assert.deepEqual(await menu(), { index: 0, shown: 'Your own sentence' });
  assert.equal(await page.$eval('#sentence', (i) => i.value), sentence);
  assert.equal(await page.isVisible('#own-sentence'), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
