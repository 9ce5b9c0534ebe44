// <attention-playground view="attention">: given attention weights as JSON
// inside the element, drawn as given (heatmap, heads grid, graph), linked,
// sized for an 800 px notebook column, light and dark, and every refusal one
// line in the figure. No WebAssembly is fetched for it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { hostSite, launch, openPage, serve, shot, violations } from './browser.mjs';

const script = '<script type="module" src="assets/attention-playground/attention-playground.js"></script>';
const page = (body, head = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notebook</title>
<link rel="icon" href="data:,">${head}${script}</head><body>${body}</body></html>`;
// JSON inside the element, as python/ writes it (its "<" escaped, so a token cannot close the script)
const figure = (data, attributes = '') =>
  `<attention-playground view="attention"${attributes}><script type="application/json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script></attention-playground>`;

// Rows that sum to 1, different in every head: a row i of head m gives
// weight to keys 0 … i (causal) in proportion to 1 + ((i + j + m) mod 3).
function causalHeads(L, H, T) {
  return Array.from({ length: L }, (_, l) => Array.from({ length: H }, (_, h) => Array.from({ length: T }, (_, i) => {
    const raw = Array.from({ length: T }, (_, j) => (j <= i ? 1 + ((i + j + l * H + h) % 3) : 0));
    const sum = raw.reduce((a, b) => a + b, 0);
    return raw.map((v) => v / sum);
  })));
}
const words = (T) => Array.from({ length: T }, (_, i) => ['The', ' cat', ' sat', ' on', ' the', ' mat', '.', '<b>'][i % 8]);
const four = { tokens: words(5), attention: causalHeads(2, 3, 5), layer: 1, head: 2, title: 'Two layers of three heads' };
const square = { tokens: ['a', 'b', 'c'], attention: [[0.5, 0.25, 0.25], [0.2, 0.6, 0.2], [0.1, 0.1, 0.8]] };
const big = { tokens: words(32), attention: causalHeads(12, 12, 32), title: 'GPT-2 small sized: 12 layers × 12 heads, 32 tokens' };
const off = { tokens: ['x', 'y'], attention: [[[1, 0], [0.3, 0.3]], [[0.5, 0.5], [0.25, 0.75]]] };

let browser;
let server;
let url;
before(async () => {
  browser = await launch();
  const root = hostSite({
    'four.html': page(figure(four)),
    'square.html': page(figure(square, ' theme="dark"')),
    'big.html': page(figure(big)),
    'off.html': page(figure(off)),
    'jupyter.html': page(figure(four, ' id="auto"') + figure(square, ' id="light" theme="light"')).replace('<body>', '<body data-jp-theme-light="false">'),
    'vscode.html': page(figure(square)).replace('<body>', '<body class="vscode-body vscode-dark" data-vscode-theme-kind="vscode-dark">'),
    'highlight.html': page(figure(four, ' id="row" highlight="3"') + figure(four, ' id="cell" highlight="4,1" layer="0" head="0"') + figure(four, ' id="far" highlight="5"')),
    'late.html': page('<attention-playground id="late" view="attention"></attention-playground>'),
    'bad.html': page([
      ['missing', null],
      ['json', '{"tokens": ["a"], "attention": [[1]'],
      ['nan', '{"tokens": ["a", "b"], "attention": [[1, 0], [NaN, 1]]}'],
      ['null', { tokens: ['a', 'b'], attention: [[1, 0], [null, 1]] }],
      ['negative', { tokens: ['a', 'b'], attention: [[1, 0], [-0.5, 1.5]] }],
      ['queries', { tokens: ['a', 'b', 'c'], attention: [[1, 0], [0, 1]] }],
      ['keys', { tokens: ['a', 'b'], attention: [[[1, 0], [0, 1]], [[1, 0, 0], [0, 1]]] }],
      ['heads', { tokens: ['a'], attention: [[[[1]], [[1]]], [[[1]]]] }],
      ['axes', { tokens: ['a'], attention: [1] }],
      ['tokens-limit', { tokens: Array(513).fill('t'), attention: [[1]] }],
      ['heads-limit', { tokens: ['a'], attention: Array.from({ length: 33 }, () => Array.from({ length: 32 }, () => [[1]])) }],
      ['layer', { tokens: ['a'], attention: [[[[1]]]], layer: 1 }],
      ['unknown', { tokens: ['a'], attention: [[1]], heads: 2 }],
    ].map(([id, data]) => `<attention-playground id="${id}" view="attention">${data === null ? '' : `<script type="application/json">${typeof data === 'string' ? data : JSON.stringify(data)}</script>`}</attention-playground>`).join('\n')),
  });
  ({ server, url } = await serve({ root, csp: true, prefix: '/nb' }));
});
after(async () => {
  await browser?.close();
  server?.close();
});

const settled = (p, selector = 'attention-playground') =>
  p.waitForFunction((s) => [...document.querySelectorAll(s)].every((e) => ['ready', 'error'].includes(e.dataset.state)), selector, { timeout: 60000 });
const inside = (p, selector, fn, arg) => p.$eval('attention-playground', (e, [selector, fn, arg]) => {
  const node = e.shadowRoot.querySelector(selector);
  return node && new Function('node', 'arg', `return (${fn})(node, arg)`)(node, arg);
}, [selector, String(fn), arg]);

test('(L, H, T, T): ready with no WebAssembly, the chosen head drawn, L·H thumbnails, the cells the given numbers', async () => {
  const p = await openPage(browser, null, { viewport: { width: 800, height: 700 } });
  const requests = [];
  p.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await p.goto(`${url}four.html`);
  await settled(p);
  assert.equal(await p.getAttribute('attention-playground', 'data-state'), 'ready');
  assert.deepEqual(requests.filter((r) => /\.wasm$|attention-core\.js$|scenarios\//.test(r)), []);  // the engine is never asked for
  const view = await p.$eval('attention-playground', (e) => {
    const r = e.shadowRoot;
    const box = r.querySelector('.attention-view');
    return { title: r.querySelector('.title').textContent, shape: box.dataset.shape, layer: box.dataset.layer, head: box.dataset.head,
      thumbs: r.querySelectorAll('.model-thumb').length, pressed: r.querySelector('.model-thumb[aria-pressed="true"]').getAttribute('aria-label'),
      heading: r.querySelector('.attention-head-panel h3').textContent, edges: r.querySelector('.graph').dataset.edges,
      matrix: r.querySelector('[data-matrix="weights"] .matrix-shape').textContent, note: r.querySelector('.attention-note').hidden };
  });
  assert.deepEqual(view, { title: 'Two layers of three heads', shape: '2,3,5,5', layer: '1', head: '2', thumbs: 6, pressed: 'layer 1, head 2',
    heading: 'Layer 1, head 2: who listens to whom', edges: '15', matrix: ' (5 × 5)', note: true });
  // every cell of the selected head, read through the keys: the given number
  await p.focus('attention-playground >> [data-matrix="weights"] canvas');
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 5; j++) {
      const read = await inside(p, '.attention-readout', (n) => ({ row: Number(n.dataset.row), col: Number(n.dataset.col), value: Number(n.dataset.value) }));
      assert.deepEqual(read, { row: i, col: j, value: four.attention[1][2][i][j] });
      if (j < 4) await p.keyboard.press('ArrowRight');
    }
    for (let j = 0; j < 4; j++) await p.keyboard.press('ArrowLeft');
    if (i < 4) await p.keyboard.press('ArrowDown');
  }
  // the cell under the keys lights its edge in the graph (4 → 0 at row 4, column 0)
  assert.equal(await inside(p, '.graph', (n) => n.dataset.focusEdge), '0→4');
  assert.match(await inside(p, '.attention-readout', (n) => n.textContent), /^“ the” \(row 4\) listens to “The” \(column 0\) with weight 0\.1111$/);
  await shot(p, 'element-attention-800-light');
  assert.deepEqual(await violations(p), []);
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('given weights have no steps: play() sends no stepchange; printed, the figure keeps its pictures and drops its buttons and hint', async () => {
  const p = await openPage(browser, `${url}four.html`);
  await settled(p);
  await p.$eval('attention-playground', (e) => {
    window.__steps = [];
    e.addEventListener('stepchange', (event) => window.__steps.push(event.detail.step));
    e.play();
  });
  await p.waitForTimeout(700);
  assert.deepEqual(await p.evaluate(() => window.__steps), []);
  assert.equal(await p.$eval('attention-playground', (e) => e.step), null);
  await p.emulateMedia({ media: 'print' });
  const printed = await p.$eval('attention-playground', (e) => {
    const shown = (s) => [...e.shadowRoot.querySelectorAll(s)].map((n) => getComputedStyle(n).display !== 'none');
    return { modes: shown('.graph-modes'), hint: shown('.attention-readout'), heatmap: shown('[data-matrix="weights"]'), graph: shown('.graph') };
  });
  assert.deepEqual(printed, { modes: [false], hint: [false], heatmap: [true], graph: [true] });
  // the sentence a highlight="row,col" asked for is the figure's, not a hint: it prints
  await p.goto(`${url}highlight.html`);
  await settled(p, '#cell');
  assert.equal(await p.$eval('#cell', (e) => getComputedStyle(e.shadowRoot.querySelector('.attention-readout')).display), 'block');
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('the heads grid picks the head: click and arrow keys; a graph node lights its row in the heatmap and every thumbnail', async () => {
  const p = await openPage(browser, `${url}four.html`, { viewport: { width: 800, height: 700 } });
  await settled(p);
  await p.click('attention-playground >> .model-thumb[data-layer="0"][data-head="1"]');
  const state = () => p.$eval('attention-playground', (e) => {
    const box = e.shadowRoot.querySelector('.attention-view');
    return `${box.dataset.layer}.${box.dataset.head}`;
  });
  assert.equal(await state(), '0.1');
  await p.keyboard.press('ArrowDown');
  await p.keyboard.press('ArrowRight');
  assert.equal(await state(), '1.2');
  // the heatmap now holds head (1, 2)'s numbers
  await p.focus('attention-playground >> [data-matrix="weights"] canvas');
  await p.keyboard.press('ArrowDown');
  assert.equal(Number(await inside(p, '.attention-readout', (n) => n.dataset.value)), four.attention[1][2][1][0]);
  // a node of the graph, by the keys: its row everywhere
  await p.focus('attention-playground >> .graph canvas');
  await p.keyboard.press('ArrowRight');
  await p.keyboard.press('ArrowRight');
  const lit = await p.$eval('attention-playground', (e) => ({
    heatmap: e.shadowRoot.querySelector('[data-matrix="weights"]').dataset.highlightRow,
    grid: e.shadowRoot.querySelector('.head-grid').dataset.row,
  }));
  assert.deepEqual(lit, { heatmap: '2', grid: '2' });
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('(T, T) with no heads grid, dark by the theme attribute; and by prefers-color-scheme', async () => {
  const p = await openPage(browser, `${url}square.html`, { viewport: { width: 800, height: 700 } });
  await settled(p);
  const seen = await p.$eval('attention-playground', (e) => ({
    grid: e.shadowRoot.querySelector('.attention-grid-panel').hidden,
    heading: e.shadowRoot.querySelector('.attention-head-panel h3').textContent,
    background: getComputedStyle(e).backgroundColor,
    edges: e.shadowRoot.querySelector('.graph').dataset.edges,
  }));
  // not causal (weights above the diagonal): every edge, both ways
  assert.deepEqual(seen, { grid: true, heading: 'The weights: who listens to whom', background: 'rgb(20, 23, 27)', edges: '9' });
  await shot(p, 'element-attention-square-dark');
  await p.context().close();
  for (const [scheme, background] of [['dark', 'rgb(20, 23, 27)'], ['light', 'rgb(251, 250, 247)']]) {
    const q = await openPage(browser, null, { viewport: { width: 800, height: 700 }, colorScheme: scheme });
    await q.goto(`${url}four.html`);
    await settled(q);
    assert.equal(await q.$eval('attention-playground', (e) => getComputedStyle(e).backgroundColor), background);
    await q.context().close();
  }
});

test('a notebook front end\'s theme: JupyterLab\'s and VS Code\'s body marks, followed live; theme="light" over it', async () => {
  const dark = 'rgb(20, 23, 27)', light = 'rgb(251, 250, 247)';
  const background = (p, s) => p.$eval(s, (e) => getComputedStyle(e).backgroundColor);
  const p = await openPage(browser, null, { viewport: { width: 800, height: 700 }, colorScheme: 'light' });
  await p.goto(`${url}jupyter.html`);
  await settled(p);
  assert.deepEqual([await background(p, '#auto'), await background(p, '#light')], [dark, light]);
  await shot(p, 'element-attention-jupyter-dark');
  await p.evaluate(() => { document.body.dataset.jpThemeLight = 'true'; });
  await p.waitForFunction(() => document.querySelector('#auto').dataset.hostTheme === 'light');
  assert.equal(await background(p, '#auto'), light);
  await p.goto(`${url}vscode.html`);
  await settled(p);
  assert.equal(await background(p, 'attention-playground'), dark);
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('highlight="row" and "row,col" light as hovering does; past the tokens is one line; every part has its accessible name', async () => {
  const p = await openPage(browser, `${url}highlight.html`, { viewport: { width: 800, height: 700 } });
  await settled(p);
  const lit = await p.$$eval('attention-playground', (all) => all.map((e) => {
    const r = e.shadowRoot;
    return e.dataset.state === 'error' ? r.querySelector('[role="alert"]').textContent
      : [r.querySelector('[data-matrix="weights"]').dataset.highlightRow ?? null, r.querySelector('.head-grid').dataset.row ?? null,
        r.querySelector('.graph').dataset.focusNode ?? null, r.querySelector('.graph').dataset.focusEdge ?? null, r.querySelector('.attention-readout').dataset.value ?? null];
  }));
  assert.deepEqual(lit, [['3', '3', '0:3', null, null], [null, null, null, '1→4', String(four.attention[0][0][4][1])],
    'Attention Playground: highlight: row 5 is beyond the data\'s 5 tokens']);
  const names = await p.$eval('#row', (e) => {
    const r = e.shadowRoot;
    return [r.querySelector('.head-grid').getAttribute('aria-label'), r.querySelector('[data-matrix="weights"] canvas').getAttribute('aria-label'),
      r.querySelector('.graph canvas').getAttribute('aria-label'), r.querySelector('.attention-readout').getAttribute('aria-live'),
      r.querySelectorAll('.model-thumb[tabindex="0"]').length];
  });
  assert.deepEqual(names, ['Attention of all 6 heads: 2 layers by 3 heads, 5 tokens; arrow keys choose a head',
    'Layer 1, head 2: the weights, 5 × 5, a row per token listening, a column per token heard; arrow keys move between cells',
    'Directed graph of attention, 5 nodes; 15 edges, each pointing to the node that receives. Arrow keys move between nodes.', 'polite', 1]);
  // a resize redraws the heatmap: it keeps the head's name (it went back to "weights, 5 × 5 matrix", which a loaded machine showed at once)
  await p.setViewportSize({ width: 640, height: 700 });
  await p.waitForFunction(() => document.querySelector('#row').shadowRoot.querySelector('[data-matrix="weights"] canvas').getBoundingClientRect().width > 0);
  await p.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  assert.equal(await p.$eval('#row', (e) => e.shadowRoot.querySelector('[data-matrix="weights"] canvas').getAttribute('aria-label')),
    'Layer 1, head 2: the weights, 5 × 5, a row per token listening, a column per token heard; arrow keys move between cells');
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('rows that do not sum to 1 are shown with a one-line note, not refused', async () => {
  const p = await openPage(browser, `${url}off.html`, { viewport: { width: 800, height: 700 } });
  await settled(p);
  assert.equal(await p.getAttribute('attention-playground', 'data-state'), 'ready');
  assert.equal(await inside(p, '.attention-note', (n) => (n.hidden ? null : n.textContent)),
    '1 of 4 rows do not sum to 1 (within 0.001); head 0, row 1 ("y"), sums to 0.6000. Shown as given.');
  // the graph's key does not claim what the note denies
  const key = await inside(p, '.graph-key', (n) => n.textContent);
  assert.match(key, /these given rows do not all sum to 1/);
  assert.doesNotMatch(key, /weights sum to 1\./);
  await p.context().close();
});

test('each refusal is one line in the figure naming the problem, with an error event', async () => {
  const p = await openPage(browser, `${url}bad.html`, { viewport: { width: 800, height: 700 } });
  await settled(p);
  const lines = await p.$$eval('attention-playground', (all) => Object.fromEntries(all.map((e) =>
    [e.id, `${e.dataset.state}: ${e.shadowRoot.querySelector('[role="alert"]')?.textContent}`])));
  const error = (m) => `error: Attention Playground: ${m}`;
  assert.deepEqual(lines, {
    missing: error('view="attention" needs its data: a <script type="application/json"> inside the element holding {"tokens": […], "attention": […]}'),
    json: error('the attention data is not valid JSON'),
    nan: error('attention holds NaN or an infinite weight: weights must be finite numbers'),
    null: error('attention[1][0] is null: NaN or infinite weights are refused'),
    negative: error('attention[1][0] is negative (-0.5): weights must be 0 or more'),
    queries: error('attention has 2 entries on axis 0 (queries), but there are 3 tokens'),
    keys: error('attention[1][0] has 3 entries on axis 2 (keys), but there are 2 tokens'),
    heads: error('attention[1] has 1 entry on axis 1 (heads); the first has 2'),
    axes: error('attention must have 2, 3 or 4 axes, (T, T), (H, T, T) or (L, H, T, T); it has 1'),
    'tokens-limit': error('tokens: 513 tokens is beyond the element\'s limit of 512'),
    'heads-limit': error('attention has 1056 heads (33 layers × 32 heads), beyond the element\'s limit of 1024'),
    layer: error('layer 1 is beyond the data\'s 1 layer'),
    unknown: error('the attention data has an unknown key "heads"; it takes tokens, attention, layer, head, title'),
  });
  await shot(p, 'element-attention-refusals');
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('data put in later, and changed, draws again; a bad layer attribute is refused', async () => {
  const p = await openPage(browser, `${url}late.html`, { viewport: { width: 800, height: 700 } });
  await settled(p);
  assert.equal(await p.getAttribute('#late', 'data-state'), 'error');
  await p.$eval('#late', (e, data) => {
    const s = document.createElement('script');
    s.type = 'application/json';
    s.textContent = JSON.stringify(data);
    e.append(s);
  }, four);
  await p.waitForFunction(() => document.querySelector('#late').dataset.state === 'ready');
  await p.$eval('#late', (e) => e.setAttribute('head', '0'));
  await p.waitForFunction(() => document.querySelector('#late').shadowRoot.querySelector('.attention-view')?.dataset.head === '0');
  await p.$eval('#late', (e) => e.setAttribute('layer', '2'));
  await p.waitForFunction(() => document.querySelector('#late').dataset.state === 'error');
  assert.equal(await p.$eval('#late', (e) => e.shadowRoot.querySelector('[role="alert"]').textContent), 'Attention Playground: layer 2 is beyond the data\'s 2 layers');
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

for (const [width, height] of [[800, 700], [1280, 720], [390, 844]]) {
  test(`12 × 12 heads of 32 tokens at ${width} px: no horizontal scroll, light and dark`, async () => {
    for (const scheme of ['light', 'dark']) {
      const p = await openPage(browser, null, { viewport: { width, height }, colorScheme: scheme });
      await p.goto(`${url}big.html`);
      await settled(p);
      assert.equal(await p.getAttribute('attention-playground', 'data-state'), 'ready');
      const sizes = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
        thumbs: document.querySelector('attention-playground').shadowRoot.querySelectorAll('.model-thumb').length }));
      assert.ok(sizes.scroll <= sizes.client, `the page scrolls sideways: ${sizes.scroll} > ${sizes.client}`);
      assert.equal(sizes.thumbs, 144);
      await shot(p, `element-attention-${width}x${height}-${scheme}`);
      assert.deepEqual(p.problems, []);
      await p.context().close();
    }
  });
}
