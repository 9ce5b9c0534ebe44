// What the page says about a scenario reads right: no position repeated as
// its own token ("0 0 1 1", "from 1 “1”"), no name repeated ("x (x)"), no
// shape twice, "scaled" only where there are scores to scale.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, useBrowser } from './browser.mjs';

const env = useBrowser();

test('a scenario without tokens says so once; positions are not repeated as tokens', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=karpathy-affinities&step=out`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  assert.equal(await page.isVisible('#tokens-none'), true);
  assert.match(await page.textContent('#tokens-none'), /names no tokens: its 8 rows are positions 0 to 7 of x\.$/);
  assert.equal(await page.$$eval('#tokens li', (l) => l.length), 0);
  assert.deepEqual(await page.$$eval('#batch option', (o) => o.map((x) => x.textContent)), ['0', '1', '2', '3']);
  const text = await page.evaluate(() => document.body.innerText);
  assert.doesNotMatch(text, /\bx \(x\)/);
  assert.match(text, /x, no value \(8 × 32\)/);
  // a node's detail: "from 1: 0.4567", neither numbered nor quoted
  await page.focus('figure[data-view="graph"] canvas');
  await page.keyboard.press('ArrowRight');
  const detail = await page.textContent('#detail');
  assert.match(detail, /^node 1 \(batch element 0\)/);
  assert.match(detail, /from 1: \d\.\d{4}/);
  assert.doesNotMatch(detail, /“1”/);
  assert.equal(await page.$eval('#detail ul.exps', (l) => getComputedStyle(l).listStyleType), 'none');
  await page.context().close();
});

test('"scaled" is listed only where a head has queries and keys; named tokens are still listed', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=math-trick`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  assert.doesNotMatch(await page.textContent('#shape-facts'), /scaled/);
  await page.goto(`${env.url}#preset=sun-rises-causal`);
  assert.equal(await ready(page), 'ready');
  await page.waitForFunction(() => /scaled/.test(document.querySelector('#shape-facts').textContent));
  await page.waitForFunction(() => document.querySelectorAll('#tokens li').length === 6);
  assert.equal(await page.isVisible('#tokens-none'), false);
  await page.context().close();
});

test('the cross-attention lesson names its weights once, with one shape', async () => {
  const page = await openPage(env.browser, `${env.url}#lesson=cross`, { reducedMotion: 'reduce' });
  await page.waitForSelector('#lesson figure');
  await page.waitForFunction(() => /weights \(6 × 8\)/.test(document.querySelector('#lesson').innerText));
  assert.doesNotMatch(await page.textContent('#lesson'), /\(\d+ × \d+\)\s*\(\d+ × \d+\)/);
  await page.context().close();
});

test('a heatmap labels a space, a newline and a tab as the token chips and the graph do (␣ ↵ ⇥), not as blank rows', async () => {
  const page = await openPage(env.browser, env.url, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  const labels = await page.evaluate(async () => {
    const { Heatmap } = await import(new URL('views/heatmap.js', document.baseURI).href);
    const box = document.body.appendChild(document.createElement('div'));
    const heatmap = new Heatmap(box, { name: 'weights', label: 'weights', scale: 'sequential' });
    const rows = [' ', 'a', '\n'];
    heatmap.draw({ shape: [3, 3], data: new Float32Array(9).fill(0.5) }, { rowLabels: rows, colLabels: [' ', 'a', '\t'] });
    const { svg } = await heatmap.toSVG();
    box.remove();
    return { texts: [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).slice(1, 7), rows };
  });
  assert.deepEqual(labels.texts, ['␣', 'a', '↵', '␣', 'a', '⇥']);
  assert.deepEqual(labels.rows, [' ', 'a', '\n'], 'the caller\'s labels are left as they were');
  await page.context().close();
});
