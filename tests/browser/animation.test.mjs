// The animation shows what combines, in the page, on a fake clock: the q and
// k rows of the score being filled, softmax's exponentials then their
// normalization, the weights row and the v rows of the out row being built,
// and the graph's edges in step with them. Reduced motion keeps the same
// highlights on each step's end state.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, shot, useBrowser } from './browser.mjs';

const env = useBrowser();
const stepMs = 1600;  // web/state/player.js defaults.stepMs

async function clocked(hash, options = {}) {
  const page = await openPage(env.browser, null, options);
  await page.clock.install();
  await page.goto(`${env.url}${hash}`);
  assert.equal(await ready(page), 'ready');
  // Paused: only runFor moves time, so a slow machine's real milliseconds
  // between a click and its frame do not move the animation along.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  return page;
}

// Click a step, then let its animation run `fraction` of the way.
async function at(page, step, fraction) {
  await page.click(`.step-button[data-step="${step}"]`);
  await page.clock.runFor(Math.round(stepMs * fraction));
}

const marks = (page, name) => page.getAttribute(`.stage figure[data-matrix="${name}"]`, 'data-marks');
const graph = (page, key) => page.getAttribute('figure[data-view="graph"]', `data-${key}`);

test('scores: the q row and the k row of the cell being filled light up', async () => {
  const page = await clocked('#preset=sun-rises-causal');
  await at(page, 'scores', 0.4);  // 36 cells: about 14 filled
  // read together, between two frames
  const all = await page.$$eval('.stage figure[data-matrix]', (f) => Object.fromEntries(f.map((x) => [x.dataset.matrix, x.dataset.marks])));
  const [, row, col] = /^\|(\d+)\.(\d+)$/.exec(all.scores).map(Number);
  assert.equal(all.q, `${row}|`);
  assert.equal(all.k, `${col}|`);
  assert.ok(row * 6 + col >= 10 && row * 6 + col <= 17, `cell ${row}, ${col} at 40%`);
  await shot(page, 'animation-scores-mid');
  await page.clock.runFor(stepMs);
  assert.equal(await marks(page, 'scores'), '|5.5', 'the end state keeps the last cell');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('masked: the mask\'s edges fade row by row; weights: exponentials appear, then each row is divided by its sum', async () => {
  const page = await clocked('#preset=sun-rises-causal');
  await at(page, 'scaled', 1);
  assert.equal(await graph(page, 'live-edges'), '36', 'before the mask every token could hear every other');
  await at(page, 'masked', 0.5);
  assert.equal(await graph(page, 'removed-edges'), '15', 'the mask\'s 15 edges are drawn, fading');
  assert.equal(await graph(page, 'live-edges'), '21');
  assert.match(await marks(page, 'mask'), /^[23]\|$/);
  await shot(page, 'animation-masked-mid');
  await at(page, 'weights', 0.25);
  const figure = '.stage figure[data-matrix="weights"]';
  assert.equal(await page.getAttribute(figure, 'data-phase'), 'exponentials');
  assert.match(await page.textContent(figure), /exp\(masked − row max\)/);
  assert.equal(await graph(page, 'removed-edges'), '0', 'the mask\'s edges are gone');
  assert.match(await marks(page, 'masked'), /^3\|$/);
  await shot(page, 'animation-weights-exponentials');
  await page.clock.runFor(stepMs * 0.5);
  assert.equal(await page.getAttribute(figure, 'data-phase'), 'normalizing');
  await shot(page, 'animation-weights-normalizing');
  await page.clock.runFor(stepMs);
  assert.equal(await page.getAttribute(figure, 'data-phase'), 'done');
  assert.match(await page.textContent(figure), /every row sums to 1/);
  await page.context().close();
});

test('out: the weights row beside the v rows it mixes, their products, and the messages land in the node the out row is building', async () => {
  const page = await clocked('#preset=sun-rises-causal');
  await at(page, 'out', 0.4);  // 6 rows: row 2 being built
  // read together, between two frames
  const all = await page.$$eval('.stage figure[data-matrix]', (f) => Object.fromEntries(f.map((x) => [x.dataset.matrix, x.dataset.marks])));
  const [row] = all.out.split('|');
  assert.ok(['2', '3'].includes(row), `row ${row} at 40%`);
  assert.equal(all.v, `${Array.from({ length: Number(row) + 1 }, (_, j) => j).join(',')}|`, 'row i mixes the v rows 0 … i (causal)');
  assert.equal(all.products, all.v, 'each v row times its weight');
  assert.equal(await page.textContent(`.stage figure[data-matrix="weights-row"] .matrix-name`), `weights[${row}]`);
  assert.equal(await graph(page, 'receiving'), row);
  await shot(page, 'animation-out-mid');
  await page.clock.runFor(stepMs * 0.3);
  assert.equal(await graph(page, 'receiving'), await marks(page, 'out').then((m) => m.split('|')[0]));
  await page.context().close();
});

test('reduced motion: each step\'s end state with the same highlights, no movement', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=out`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  assert.equal(await marks(page, 'out'), '5|');
  assert.equal(await marks(page, 'v'), '0,1,2,3,4,5|');
  // the end state's row: weights[5] beside v, each column of the products summing to out[5]
  assert.equal(await page.textContent('.stage figure[data-matrix="products"] .matrix-note'), 'each column sums to out[5]');
  const products = await page.$('.stage figure[data-matrix="products"] canvas');
  const box = await products.boundingBox();
  await page.mouse.move(box.x + box.width - 4, box.y + box.height - 4);  // weights[5, 5] · v[5, 3]
  await page.waitForFunction(() => document.querySelector('#detail h3')?.textContent.startsWith('weights[5, 5] · v[5, 3]'));
  assert.match(await page.textContent('#detail'), /0\.1881 × 0\.6\d{3} = 0\.1\d{3}/);
  assert.match(await page.textContent('#detail'), /Column 3 of these products sums to out\[5, 3\] = 0\.3\d{3}/);
  await page.click('.step-button[data-step="qkv"]');
  // x beside q, k and v, the row being multiplied lit with the rows it makes
  assert.equal(await marks(page, 'x'), '5|');
  assert.equal(await marks(page, 'q'), '5|');
  assert.equal(await marks(page, 'v'), '5|');
  await page.click('.step-button[data-step="scores"]');
  assert.equal(await marks(page, 'scores'), '|5.5');
  assert.equal(await marks(page, 'q'), '5|');
  await page.click('.step-button[data-step="weights"]');
  assert.equal(await page.getAttribute('.stage figure[data-matrix="weights"]', 'data-phase'), 'done');
  // pointing at a cell of the result shows what it combines
  await page.focus('.stage figure[data-matrix="weights"] canvas');
  await page.keyboard.press('ArrowDown');
  assert.equal(await marks(page, 'masked'), '1|');
  await shot(page, 'animation-reduced-weights');
  await page.context().close();
});

test('the graph\'s two layouts: arcs and from → to, switched by buttons and kept in the link; both SVG exports carry arrowheads', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=bank-raw&step=weights`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  assert.equal(await graph(page, 'layout'), 'arcs');
  await page.click('.graph-layouts button[data-layout="columns"]');
  assert.equal(await graph(page, 'layout'), 'columns');
  assert.equal(await page.getAttribute('.graph-layouts button[data-layout="columns"]', 'aria-pressed'), 'true');
  assert.match(await page.evaluate(() => location.hash), /graph=columns/);
  await shot(page, 'graph-columns');
  await page.reload();
  assert.equal(await ready(page), 'ready');
  assert.equal(await graph(page, 'layout'), 'columns', 'the link keeps the layout');
  for (const layout of ['columns', 'arcs']) {
    if (layout === 'arcs') await page.click('.graph-layouts button[data-layout="arcs"]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
    const svg = await new Promise((resolve) => {
      let text = '';
      download.createReadStream().then((s) => { s.on('data', (d) => { text += d; }); s.on('end', () => resolve(text)); });
    });
    const edges = (svg.match(/<path class="edge"/g) ?? []).length;
    assert.equal(edges, 18, `${layout}: 9 edges in each of the 2 pools`);
    assert.equal((svg.match(/<polygon class="arrow"/g) ?? []).length, edges, `${layout}: an arrowhead on every edge`);
  }
  await page.context().close();
});

test('T = 33: every token is printed in both layouts and the graph takes the panel\'s width', async () => {
  const words = 'the cat sat on a warm mat while rain fell outside and a small dog slept near the fire until morning light came through old glass windows above quiet streets of the town';
  for (const layout of ['arcs', 'columns']) {
    const page = await openPage(env.browser, `${env.url}#sentence=${encodeURIComponent(words)}&step=weights&graph=${layout}`, { reducedMotion: 'reduce' });
    assert.equal(await ready(page), 'ready');
    assert.equal(await graph(page, 'labels'), String(33 * (layout === 'columns' ? 2 : 1)));
    const fill = await page.$eval('figure[data-view="graph"] canvas', (c) => c.clientWidth / c.closest('#graph').clientWidth);
    assert.ok(fill > 0.95, `${layout}: the graph uses ${Math.round(fill * 100)}% of its panel`);
    await shot(page, `graph-t33-${layout}`);
    await page.context().close();
  }
});
