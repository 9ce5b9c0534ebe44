// The communication graph: edges per pool for every kind of mask, cross-
// attention, pools kept apart, and hover linking nodes, rows and edges.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { contrast, openPage, ready, shot, useBrowser } from './browser.mjs';

const env = useBrowser();

async function edges(page) {
  return (await page.getAttribute('.graph', 'data-edges')).split(',').map(Number);
}

test('a causal mask gives T(T+1)/2 edges in every pool, one pool per batch element, as many as the first screen holds', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=karpathy-value&step=weights`, { viewport: { width: 1280, height: 1400 } });
  await ready(page);
  assert.deepEqual(await edges(page), [36, 36, 36, 36]);  // T = 8: 8·9/2, B = 4 pools
  assert.equal(await page.getAttribute('.graph', 'data-pools'), '4');
  assert.equal(await page.textContent('.graph figcaption'), 'Communication graph (4 pools, one per batch element; pools never talk)');
  await shot(page, 'graph-causal-pools');
  await page.context().close();
  // shorter: the pools around the current one that show whole under the sticky player, and the caption says which
  const short = await openPage(env.browser, `${env.url}#preset=karpathy-value&step=weights&batch=3`, { viewport: { width: 1280, height: 900 } });
  await ready(short);
  assert.deepEqual(await edges(short), [36, 36, 36]);
  assert.equal(await short.getAttribute('.graph', 'data-shown-pools'), '1,2,3');
  assert.match(await short.textContent('.graph figcaption'), /batch elements 1–3 of 4/);
  const fits = await short.evaluate(() => document.querySelector('.graph').getBoundingClientRect().height + document.querySelector('.player').offsetHeight <= innerHeight);
  assert.ok(fits, 'the graph shows whole under the player');
  await short.context().close();
});

test('no mask gives T² edges; switching to causal removes the ones from the future', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises&step=weights`);
  await ready(page);
  assert.deepEqual(await edges(page), [36]);
  // one sentence: no pools to tell apart, no batch to name
  assert.equal(await page.textContent('.graph figcaption'), 'Communication graph: who listens to whom');
  assert.doesNotMatch(await page.getAttribute('.graph canvas', 'aria-label'), /pool/);
  await page.check('#mask-causal');
  await page.waitForFunction(() => document.querySelector('.graph').dataset.edges === '21');
  await page.context().close();
});

test('a custom mask shows exactly its allowed pairs', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=bank-raw&step=weights&mask=101.111.011`);
  await ready(page);
  assert.deepEqual(await edges(page), [7, 7]);
  await page.context().close();
});

test('cross-attention draws edges from every context node to every query node', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-cross&step=weights`);
  await ready(page);
  assert.deepEqual(await edges(page), [48]);  // 6 queries · 8 context nodes
  assert.match(await page.textContent('.graph figcaption'), /context → queries/);
  await shot(page, 'graph-cross');
  await page.context().close();
});

test('hovering a node lights its row of the weights; hovering a cell lights its edge', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=weights`);
  await ready(page);
  const canvas = await page.$('.graph canvas');
  // node 3 ("in"): chips sit evenly from a 10 px margin, under the title (20 px)
  // and the band of arcs from the past (26% of the width, 54 to 130 px)
  const geometry = await page.$eval('.graph canvas', (c) => ({ width: c.clientWidth, height: c.clientHeight }));
  const box = await canvas.boundingBox();
  const x = box.x + 10 + 3.5 * ((geometry.width - 20) / 6);
  const y = box.y + 20 + Math.max(54, Math.min(130, geometry.width * 0.26)) + 10;
  await page.mouse.move(x, y);
  await page.waitForFunction(() => document.querySelector('#detail h3')?.textContent.startsWith('node 3'));
  const rows = await page.$$eval('.heatmap', (figures) => figures.map((f) => [f.querySelector('.matrix-name').textContent, f.dataset.highlightRow]));
  assert.deepEqual(rows.find(([name]) => name.startsWith('weights'))[1], '3');
  assert.match(await page.textContent('#detail'), /from 0 “The”: 0\.2211/);
  await shot(page, 'graph-hover-node');

  const weights = (await page.$$('.heatmap canvas'))[1];
  await weights.focus();
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
  assert.equal(await page.getAttribute('.graph', 'data-focus-edge'), '1→2');
  await page.context().close();
});

test('the graph at T = 64 draws every one of its 2,080 causal edges without error', async () => {
  const tokens = Array.from({ length: 64 }, (_, i) => `t${i}`);
  const page = await openPage(env.browser, `${env.url}#sentence=${encodeURIComponent(tokens.join(' '))}&embed=16&head_size=8&step=out`);
  await ready(page);
  assert.deepEqual(await edges(page), [2080]);
  // redraw cost of the graph alone, measured in the page
  const ms = await page.evaluate(() => {
    const canvas = document.querySelector('.graph canvas');
    const start = performance.now();
    for (let i = 0; i < 20; i++) canvas.dispatchEvent(new MouseEvent('mouseleave'));
    return (performance.now() - start) / 20;
  });
  console.log(`graph redraw at T = 64: ${ms.toFixed(1)} ms`);
  await shot(page, 'graph-t64');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('scaled-attention (q and k drawn directly, attention.self) is drawn and named as self-attention', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=scaled-attention&step=weights`, { viewport: { width: 1280, height: 1400 } });
  assert.equal(await ready(page), 'ready');
  assert.doesNotMatch(await page.textContent('#shape-facts'), /cross-attention/);
  assert.equal(await page.getAttribute('figure[data-view="graph"]', 'data-edges'), '64,64,64,64');
  assert.doesNotMatch(await page.textContent('figure[data-view="graph"]'), /context → queries/);
  await page.click('.step-button[data-step="qkv"]');
  assert.match(await page.textContent('#formula'), /k = x · W_key/);
  await page.context().close();
});

test('dark mode: edges and −∞ cells keep 3:1 contrast against their panel', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=masked`, { colorScheme, reducedMotion: 'reduce' });
    assert.equal(await ready(page), 'ready');
    const colors = await page.evaluate(() => {
      const rgb = (text) => text.match(/\d+/g).slice(0, 3).map(Number);
      const graph = document.querySelector('figure[data-view="graph"] canvas');
      const panel = rgb(getComputedStyle(graph.closest('.graph-wrap')).backgroundColor);
      const edge = getComputedStyle(graph).getPropertyValue('--edge').trim().split(/\s+/).map(Number);
      const stagePanel = rgb(getComputedStyle(document.body).backgroundColor);
      return { panel, edge, stagePanel };
    });
    assert.ok(contrast(colors.edge, colors.panel) >= 3, `${colorScheme}: edges ${contrast(colors.edge, colors.panel).toFixed(2)}:1`);
    const masked = await page.evaluate(() => getComputedStyle(document.querySelector('.stage figure[data-matrix="masked"] canvas')).getPropertyValue('--masked').trim());
    const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
    assert.ok(contrast(hex(masked), colors.stagePanel) >= 3, `${colorScheme}: −∞ cells ${contrast(hex(masked), colors.stagePanel).toFixed(2)}:1`);
    // an edge with a tenth of its row's weight (or none yet), and the hatches over −∞ cells
    const drawn = await page.evaluate(async () => {
      const { edgeAlpha } = await import('./views/graph.js');
      const { hatchStyle } = await import('./views/heatmap.js');
      const masked = getComputedStyle(document.querySelector('.stage figure[data-matrix="masked"] canvas')).getPropertyValue('--masked').trim();
      const light = parseInt(masked.slice(1, 3), 16) > 128;
      return { alpha: edgeAlpha(0.1, false), hatch: hatchStyle(light).match(/[\d.]+/g).map(Number) };
    });
    const blend = (color, alpha, under) => color.map((c, i) => c * alpha + under[i] * (1 - alpha));
    assert.ok(contrast(blend(colors.edge, drawn.alpha, colors.panel), colors.panel) >= 3, `${colorScheme}: a tenth-weight edge`);
    const cell = hex(masked);
    const hatch = blend(drawn.hatch.slice(0, 3), drawn.hatch[3], cell);
    assert.ok(contrast(hatch, cell) >= 3, `${colorScheme}: hatches ${contrast(hatch, cell).toFixed(2)}:1 on −∞ cells`);
    await shot(page, `graph-masked-${colorScheme}`);
    await page.context().close();
  }
});

test('the graph reads in a still picture: scores colour the edges, and past T = 8 one query\'s edges show with their numbers', async () => {
  // T = 6 at scores: every edge, red above 0 and blue below, in the SVG export as on the canvas
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=scores`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  assert.equal(await page.getAttribute('.graph', 'data-edge-mode'), 'all');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  const text = await new Promise((resolve) => {
    let t = '';
    download.createReadStream().then((s) => { s.on('data', (d) => { t += d; }); s.on('end', () => resolve(t)); });
  });
  const colours = new Set([...text.matchAll(/<path class="edge"[^>]*stroke="(rgb\([^)]+\))"/g)].map((m) => m[1]));
  assert.deepEqual([...colours].sort(), ['rgb(178, 24, 43)', 'rgb(33, 102, 172)'], 'red and blue by the sign of the score');
  // one query: its incoming edges labelled with the numbers of its row of scores
  await page.click('.graph-modes button[data-mode="one"]');
  assert.equal(await page.getAttribute('.graph', 'data-edge-mode'), 'one');
  assert.equal(await page.getAttribute('.graph', 'data-query'), '5');
  assert.equal(await page.getAttribute('.graph', 'data-live-edges'), '6');
  assert.ok(Number(await page.getAttribute('.graph', 'data-edge-numbers')) >= 4);
  await page.context().close();

  // T = 16: one query by default, the last; a click picks another
  const words = Array.from({ length: 16 }, (_, i) => `w${i}`).join(' ');
  const long = await openPage(env.browser, `${env.url}#sentence=${encodeURIComponent(words)}&step=weights`, { reducedMotion: 'reduce' });
  assert.equal(await ready(long), 'ready');
  assert.equal(await long.getAttribute('.graph', 'data-edge-mode'), 'one');
  assert.equal(await long.getAttribute('.graph', 'data-query'), '15');
  assert.equal(await long.getAttribute('.graph', 'data-live-edges'), '16', 'not 136 arcs: one query\'s 16');
  await long.focus('.graph canvas');
  await long.keyboard.press('ArrowLeft');
  await long.keyboard.press('ArrowLeft');
  assert.equal(await long.getAttribute('.graph', 'data-query'), '13', 'the keys pick the query');
  await long.evaluate(() => document.activeElement.blur());
  assert.equal(await long.getAttribute('.graph', 'data-query'), '13', 'and it stays picked');
  assert.equal(await long.getAttribute('.graph', 'data-live-edges'), '14', 'a causal mask: 14 edges into token 13');
  await shot(long, 'graph-one-query-t16');
  await long.context().close();
});

test('any host\'s graph is laid out again for a new width: a lesson\'s, drawn once, fits a phone after a resize', async () => {
  const page = await openPage(env.browser, `${env.url}#lesson=qkv`);
  await ready(page);
  const width = () => page.$eval('#lesson-body figure[data-view="graph"] canvas', (c) => c.getBoundingClientRect().width);
  assert.ok(await width() > 390, `the graph is ${await width()} px wide at 1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => document.querySelector('#lesson-body figure[data-view="graph"] canvas').getBoundingClientRect().width <= 390 - 16);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// The SVG export of the page's graph, as text.
async function exportedSVG(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  const stream = await download.createReadStream();
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

// Points along an SVG path "M x y Q cx cy x y" or "M x y C … x y".
function pathPoints(d) {
  const n = d.match(/-?[\d.]+/g).map(Number);
  return Array.from({ length: 41 }, (_, k) => {
    const t = k / 40, u = 1 - t;
    if (n.length === 6) return { x: u * u * n[0] + 2 * u * t * n[2] + t * t * n[4], y: u * u * n[1] + 2 * u * t * n[3] + t * t * n[5] };
    return { x: u ** 3 * n[0] + 3 * u * u * t * n[2] + 3 * u * t * t * n[4] + t ** 3 * n[6], y: u ** 3 * n[1] + 3 * u * u * t * n[3] + 3 * u * t * t * n[5] + t ** 3 * n[7] };
  });
}

test('24 tokens: weak edges fade and the bar says under what; numbers stand in one row, clear of each other, the strongest edge and the figure\'s edges', async () => {
  const words = 'The sun rises in the east and sets in the west while the moon follows it across a quiet sky over the sleeping town';
  for (const [width, height, colorScheme] of [[1280, 720, 'light'], [390, 844, 'dark']]) {
    const page = await openPage(env.browser, `${env.url}#sentence=${encodeURIComponent(words)}&step=weights`, { viewport: { width, height }, colorScheme, reducedMotion: 'reduce' });
    assert.equal(await ready(page), 'ready');
    assert.deepEqual(await edges(page), [300], 'every causal edge counted, faded or not');
    assert.equal(await page.getAttribute('.graph', 'data-edge-mode'), 'one');
    assert.equal(await page.getAttribute('.graph', 'data-live-edges'), '24', 'faded edges are still drawn');
    const faded = Number(await page.getAttribute('.graph', 'data-faded'));
    const note = await page.textContent('.graph .graph-fade');
    assert.equal(note, `${faded} edges under 0.05 faded`);
    assert.ok(faded > 0 && faded < 24, `${faded} of the 24 edges into "town" faded`);
    assert.ok(await page.isVisible('.graph .graph-fade'), 'the threshold is shown');

    const svg = await exportedSVG(page);
    const paths = [...svg.matchAll(/<path class="edge( faded)?" data-from="(\d+)" data-to="(\d+)" d="([^"]+)"[^>]*stroke-width="([\d.]+)"/g)]
      .map(([, weak, from, to, d, stroke]) => ({ weak: Boolean(weak), from: Number(from), to: Number(to), d, stroke: Number(stroke) }));
    assert.equal(paths.length, 24);
    assert.equal(paths.filter((p) => p.weak).length, faded, 'the picture fades the same edges');
    assert.match(svg, /<text class="fade-note"[^>]*>edges under 0.05 faded<\/text>/);
    const boxes = [...svg.matchAll(/<g class="edge-number"><rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"/g)]
      .map((m) => m.slice(1).map(Number)).map(([x, y, w, h]) => ({ x, y, w, h }));
    assert.equal(boxes.length, Number(await page.getAttribute('.graph', 'data-edge-numbers')), 'the picture prints the canvas\'s numbers');
    assert.ok(boxes.length >= 6, `${boxes.length} numbers`);
    // one row: none stacked over another, none overlapping
    assert.equal(new Set(boxes.map((b) => b.y)).size, 1, 'the numbers stand in one row');
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => assert.ok(a.x + a.w <= b.x || b.x + b.w <= a.x, `numbers at ${a.x} and ${b.x} overlap`)));
    // the strongest edge is not under any number
    const strongest = paths.reduce((a, p) => (p.stroke > a.stroke ? p : a));
    const covered = pathPoints(strongest.d).filter((q) => boxes.some((b) => q.x > b.x && q.x < b.x + b.w && q.y > b.y && q.y < b.y + b.h));
    assert.deepEqual(covered, [], `the strongest edge, ${strongest.from} → ${strongest.to}, is clear of the numbers`);
    // inside the canvas, and not cut by the scroller's edges where it opens, nor by the page's
    const view = await page.$eval('.graph .graph-scroll', (s) => ({ left: s.scrollLeft, width: s.clientWidth, canvas: s.scrollWidth, height: s.querySelector('canvas').clientHeight, page: document.documentElement.scrollWidth }));
    assert.ok(view.page <= width, `the page does not scroll sideways (${view.page} px)`);
    for (const b of boxes) {
      assert.ok(b.x >= 0 && b.x + b.w <= view.canvas && b.y >= 0 && b.y + b.h <= view.height, `a number at ${b.x}, ${b.y} inside the canvas`);
      for (const edge of [view.left, view.left + view.width]) assert.ok(!(b.x < edge && edge < b.x + b.w), `a number at ${b.x}–${b.x + b.w} cut by the scroller's edge at ${edge}`);
    }
    await shot(page, `graph-t24-${width}-${colorScheme}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
