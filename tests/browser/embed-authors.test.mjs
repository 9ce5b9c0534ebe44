// What a documentation author needs of <attention-playground> and
// embed.html: every setting as an attribute, changing the view live; any
// width from 280 px with nothing clipped and no number wider than its cell;
// "Open in the playground" and the page's "Embed this view"; the author's
// content before (and without) JavaScript; print. Under a sub-path and the
// strict CSP.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { hostSite, launch, openPage, serve, shot, violations } from './browser.mjs';

const script = '<script type="module" src="assets/attention-playground/attention-playground.js"></script>';
const page = (body, withScript = true) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="host.css">${withScript ? script : ''}</head><body>${body}</body></html>`;
const fallback = '<img id="still" src="still.svg" alt="A still picture of the figure" width="200" height="100">';
const widths = [280, 300, 350, 600, 1200];

let browser;
let server;
let url;
before(async () => {
  browser = await launch();
  const root = hostSite({
    'host.css': 'body { margin: 0; font: 16px serif; } .column { box-sizing: border-box; } '
      + widths.map((w) => `.w${w} { width: ${w}px; }`).join(' '),
    'still.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#35b779"/></svg>',
    'live.html': page('<attention-playground id="a" scenario="sun-rises-causal" view="both" step="weights" controls="full"></attention-playground>'),
    'widths.html': page(widths.map((w) => `<div class="column w${w}">
      <attention-playground id="causal-${w}" scenario="sun-rises-causal" step="weights" controls="full"></attention-playground>
      <attention-playground id="batch-${w}" scenario="karpathy-affinities" step="out" layout="columns"></attention-playground></div>`).join('\n')),
    'fallback.html': page(`<attention-playground id="f" scenario="bank-raw">${fallback}</attention-playground>
      <attention-playground id="g" scenario="no-such-preset">${fallback}</attention-playground>`),
    'no-script.html': page(`<attention-playground scenario="bank-raw">${fallback}</attention-playground>`, false),
    'train.html': page('<attention-playground id="t" view="train" training="previous-token" steps="30" speed="0" autoplay></attention-playground>'),
    'space.html': page('<attention-playground id="s" view="space" positions="1" controls="none"></attention-playground>'),
  });
  ({ server, url } = await serve({ root, csp: true, prefix: '/docs/v3' }));
});
after(async () => {
  await browser?.close();
  server?.close();
});

const settled = (p, id) => p.waitForFunction((s) => ['ready', 'error'].includes(document.querySelector(s)?.dataset.state), id, { timeout: 60000 });
// Sets attributes, then waits for the element to settle again (ready or error).
async function set(p, id, attributes) {
  await p.$eval(id, (e, a) => {
    e.dataset.state = 'loading';
    for (const [name, value] of Object.entries(a)) if (value === null) e.removeAttribute(name); else e.setAttribute(name, value);
  }, attributes);
  await settled(p, id);
  return p.$eval(id, (e) => e.dataset.state);
}
const weights = (p, id) => p.$eval(id, (e) => Array.from(e.trace.step(0, 'weights', 0).data));
const inShadow = (p, id, selector, read) => p.$eval(id, (e, [s, r]) => {
  const node = e.shadowRoot.querySelector(s);
  return node ? (r === 'text' ? node.textContent : node.getAttribute(r)) : null;
}, [selector, read]);

test('every setting is an attribute and changes the view live; a bad one is one line inside the element', async () => {
  const p = await openPage(browser, null);
  await p.addInitScript(() => document.addEventListener('error', (e) => { if (e.detail?.message) (window.__errors ??= []).push(e.detail.message); }, true));
  await p.goto(`${url}live.html`);
  await settled(p, '#a');
  const causal = await weights(p, '#a');
  assert.equal(causal[1], 0, 'causal: token 0 does not see token 1');
  assert.equal(await inShadow(p, '#a', '.graph', 'data-edges'), '21');

  assert.equal(await set(p, '#a', { mask: 'none' }), 'ready');
  assert.equal(await inShadow(p, '#a', '.graph', 'data-edges'), '36');
  assert.ok((await weights(p, '#a'))[1] > 0, 'no mask: token 0 sees token 1');
  assert.equal(await set(p, '#a', { mask: '110000.110000.111000.111100.111110.111111' }), 'ready');
  assert.equal(await inShadow(p, '#a', '.graph', 'data-edges'), '22');

  await set(p, '#a', { mask: null, temperature: '0.3' });
  const cold = await weights(p, '#a');
  assert.ok(Math.max(...cold.slice(6, 12)) > Math.max(...causal.slice(6, 12)), 'a low temperature sharpens each row');
  await set(p, '#a', { temperature: null, scale: '0' });
  assert.notDeepEqual(await weights(p, '#a'), causal);

  await set(p, '#a', { scale: null, scenario: null, sentence: 'we all talk to the past', heads: '3', 'head-size': '5', 'value-size': '2', embed: '4', seed: '7' });
  const summary = await p.$eval('#a', (e) => ({ heads: e.trace.summary.heads.length, q: e.trace.step(2, 'q', 0).shape, out: e.trace.step(2, 'out', 0).shape, x: e.trace.summary.tokens[0] }));
  assert.deepEqual(summary, { heads: 3, q: [6, 5], out: [6, 2], x: ['we', 'all', 'talk', 'to', 'the', 'past'] });

  await set(p, '#a', { sentence: null, heads: null, 'head-size': null, 'value-size': null, embed: null, seed: null, scenario: 'sun-rises-causal', highlight: '3' });
  assert.equal(await inShadow(p, '#a', 'figure.graph', 'data-focus-node'), '0:3');
  assert.equal(await inShadow(p, '#a', '[data-matrix="weights"]', 'data-highlight-row'), '3');
  await set(p, '#a', { highlight: '4,1' });
  assert.equal(await inShadow(p, '#a', 'figure.graph', 'data-focus-edge'), '1→4');
  assert.equal(await p.$eval('#a', (e) => e.shadowRoot.querySelectorAll('[data-matrix="weights"] .heatmap-overlay .focus').length), 1);
  assert.match(await inShadow(p, '#a', '.detail', 'text'), /weights \[4, 1\] = /, 'the detail panel tells the cell, as a hover does');

  await set(p, '#a', { highlight: null, layout: 'columns', caption: 'Token 4 <b>listens</b> to token 1' });
  assert.equal(await inShadow(p, '#a', 'figure.graph', 'data-layout'), 'columns');
  assert.equal(await inShadow(p, '#a', '.caption', 'text'), 'Token 4 <b>listens</b> to token 1', 'the caption is text, never markup');

  // bad values: the message inside the element, an error event, and a fix recovers
  const problems = [
    [{ temperature: 'hot' }, 'temperature must be a number from 0.05 to 20; got "hot"'],
    [{ temperature: null, mask: '10.11' }, 'attention.mask: expected 6 × 6 for the scenario\'s 6 queries and 6 keys, got 2 × 2'],
    [{ mask: null, highlight: '9' }, 'highlight: row 9 is beyond this scenario\'s 6 rows'],
    [{ highlight: null, heads: '2' }, 'heads applies to a sentence; scenario="sun-rises-causal" fixes its own sizes'],
    [{ heads: null, playground: 'javascript:alert(1)' }, 'playground must be an http or https URL; got "javascript:alert(1)"'],
  ];
  for (const [attributes, message] of problems) {
    assert.equal(await set(p, '#a', attributes), 'error', JSON.stringify(attributes));
    const shown = await inShadow(p, '#a', '.message', 'text');
    assert.ok(shown.startsWith('Attention Playground: '), shown);
    if (!message.startsWith('attention.mask')) assert.equal(shown, `Attention Playground: ${message}`);
    else assert.match(shown, /attention\.mask/);
  }
  assert.equal((await p.evaluate(() => window.__errors)).length, problems.length);
  assert.equal(await set(p, '#a', { playground: null }), 'ready');
  assert.deepEqual(await violations(p), []);
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('view="train" with steps and speed stops where told; view="space" with positions', async () => {
  const p = await openPage(browser, `${url}train.html`);
  await settled(p, '#t');
  await p.waitForFunction(() => document.querySelector('#t').shadowRoot.querySelector('.training')?.dataset.worker === 'paused', null, { timeout: 60000 });
  assert.equal(await p.$eval('#t', (e) => e.shadowRoot.querySelector('#train-speed').value), '0');
  assert.match(await p.$eval('#t', (e) => e.shadowRoot.querySelector('#train-status').textContent), /^Step 30 of \d+/);
  assert.equal(await p.$eval('#t', (e) => e.shadowRoot.querySelector('#train-play').textContent), 'Train', 'paused, not finished');
  await p.goto(`${url}space.html`);
  await settled(p, '#s');
  assert.equal(await p.$eval('#s', (e) => e.shadowRoot.querySelector('#space-positions').checked), true);
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

// Everything in the shadow tree lies inside the element, unless it is inside
// a panel that scrolls; no printed number is wider than its cell.
function fits(element) {
  const host = element.getBoundingClientRect();
  const clipped = [];
  const scrolls = (node) => {
    for (let n = node.parentElement; n; n = n.parentElement) if (['auto', 'scroll'].includes(getComputedStyle(n).overflowX)) return n;
    return null;
  };
  for (const node of element.shadowRoot.querySelectorAll('*')) {
    const box = node.getBoundingClientRect();
    if (box.width === 0 || getComputedStyle(node).display === 'none') continue;
    const panel = scrolls(node);
    const frame = panel ? panel.getBoundingClientRect() : host;
    const limit = panel ? { left: frame.left, right: panel === node ? frame.right : frame.left + panel.scrollWidth } : host;
    if (panel && panel !== node && panel.getBoundingClientRect().right > host.right + 1) clipped.push(`${panel.className} wider than the element`);
    if (box.left < limit.left - 1 || box.right > limit.right + 1) clipped.push(`${node.tagName.toLowerCase()}.${node.className}: ${Math.round(box.left - host.left)}…${Math.round(box.right - host.left)} of ${Math.round(host.width)}`);
  }
  const overlapping = [];
  const g = document.createElement('canvas').getContext('2d');
  g.font = '12px system-ui, sans-serif';
  for (const figure of element.shadowRoot.querySelectorAll('figure.heatmap')) {
    const decimals = Number(figure.dataset.numbers);
    if (!decimals) continue;
    const heatmap = element.views.heatmaps().find((h) => h.figure === figure);
    const cell = Number(figure.dataset.cell);
    const widest = Math.max(...Array.from(heatmap.matrix.data, (v) => g.measureText(window.__format(v, decimals)).width));
    if (widest > cell - 2) overlapping.push(`${figure.dataset.matrix}: ${widest.toFixed(1)} px numbers in ${cell} px cells`);
  }
  return { clipped, overlapping };
}

test('any width: from 280 to 1,200 px nothing is clipped and no number overlaps its neighbour, in the element and embed.html', async () => {
  const p = await openPage(browser, `${url}widths.html`, { viewport: { width: 1280, height: 900 } });
  await p.evaluate(async (u) => { window.__format = (await import(u)).formatNumber; }, `${url}assets/attention-playground/views/format.js`);
  for (const w of widths) {
    for (const id of [`#causal-${w}`, `#batch-${w}`]) {
      await p.$eval(id, (e) => e.scrollIntoView());
      await settled(p, id);
      await p.waitForTimeout(50);  // a frame for the resize observer
      const { clipped, overlapping } = await p.$eval(id, fits);
      assert.deepEqual(clipped, [], `${id}`);
      assert.deepEqual(overlapping, [], `${id}`);
    }
  }
  // at 280 the 6 × 6 matrices drop their numbers rather than cram them
  assert.equal(await p.$eval('#causal-280', (e) => e.shadowRoot.querySelector('[data-matrix="weights"]').dataset.numbers), '0');
  assert.notEqual(await p.$eval('#causal-1200', (e) => e.shadowRoot.querySelector('[data-matrix="weights"]').dataset.numbers), '0');
  await p.$eval('#causal-300', (e) => e.scrollIntoView());
  await shot(p, 'element-widths');
  await p.context().close();

  for (const w of widths) {
    const f = await openPage(browser, null, { viewport: { width: w, height: 800 } });
    await f.goto(`${url}assets/attention-playground/embed.html#scenario=sun-rises-causal&controls=full&caption=The%20causal%20mask`);
    await f.evaluate(async (u) => { window.__format = (await import(u)).formatNumber; }, `${url}assets/attention-playground/views/format.js`);
    await settled(f, 'attention-playground');
    await f.waitForTimeout(50);
    const { clipped, overlapping } = await f.$eval('attention-playground', fits);
    assert.deepEqual([clipped, overlapping], [[], []], `embed.html at ${w}`);
    assert.ok(await f.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `embed.html at ${w}: no horizontal scroll`);
    if (w === 300) await shot(f, 'embed-300');
    assert.deepEqual(f.problems, []);
    await f.context().close();
  }
});

test('"Open in the playground" opens the full page in the figure\'s state; "Embed this view" gives back tags for the page\'s', async () => {
  const p = await openPage(browser, `${url}live.html`);
  await settled(p, '#a');
  await set(p, '#a', { scenario: 'bank-raw', step: 'out', mask: 'none', layout: 'columns' });
  const href = await inShadow(p, '#a', 'a.open', 'href');
  assert.equal(href, `${url}assets/attention-playground/index.html#preset=bank-raw&mask=none&step=out&graph=columns`);
  await set(p, '#a', { playground: 'https://example.org/attention/' });
  assert.equal(await inShadow(p, '#a', 'a.open', 'href'), 'https://example.org/attention/#preset=bank-raw&mask=none&step=out&graph=columns');
  await p.context().close();

  const full = await openPage(browser, href);
  await full.waitForSelector('#app[data-state="ready"]', { timeout: 60000 });
  assert.equal(await full.$eval('#preset', (e) => e.value), 'bank-raw');
  assert.equal(await full.$eval('.step-button.current', (e) => e.dataset.step), 'out');
  assert.equal(await full.getAttribute('#graph figure.graph', 'data-layout'), 'columns');
  await full.click('#embed-view');
  await full.waitForSelector('#embed-element');  // the panel's module loads when first opened
  const element = await full.$eval('#embed-element', (e) => e.value);
  const iframe = await full.$eval('#embed-iframe', (e) => e.value);
  assert.match(element, /^<script type="module" src="assets\/attention-playground\/attention-playground.js"><\/script>\n<attention-playground scenario="bank-raw" view="both" step="out" mask="none" layout="columns"><\/attention-playground>$/);
  const src = /src="([^"]+)"/.exec(iframe)[1].replace(/&amp;/g, '&');
  assert.equal(src, `${url}assets/attention-playground/embed.html#scenario=bank-raw&view=both&step=out&mask=none&layout=columns`);
  await full.evaluate(() => document.querySelector('#embed-code').scrollIntoView());
  await shot(full, 'embed-this-view');
  // the snippet's iframe shows the same view
  await full.goto(src);
  await settled(full, 'attention-playground');
  assert.equal(await full.$eval('attention-playground', (e) => e.dataset.state), 'ready');
  assert.equal(await full.$eval('attention-playground', (e) => e.step), 'out');
  assert.deepEqual(await violations(full), []);
  assert.deepEqual(full.problems, []);
  await full.context().close();
});

test('the author\'s content shows until the view is ready, stays when the script never loads or the view fails, and print gets a still picture', async () => {
  const none = await openPage(browser, `${url}no-script.html`);
  const box = await none.$eval('#still', (e) => e.getBoundingClientRect().toJSON());
  assert.ok(box.width === 200 && box.height === 100, 'without the script the fallback is the figure');
  await none.context().close();

  const p = await openPage(browser, null);
  // hold the engine back: while it loads, the fallback is what shows
  let release;
  const held = new Promise((r) => { release = r; });
  await p.route('**/attention-core.wasm', async (route) => { await held; await route.continue(); });
  await p.goto(`${url}fallback.html`);
  await p.waitForFunction(() => document.querySelector('#f').shadowRoot?.querySelector('slot'));
  assert.equal(await p.$eval('#f', (e) => e.dataset.state), 'loading');
  assert.equal(await p.$eval('#f #still', (e) => e.getBoundingClientRect().width), 200, 'shown while loading');
  release();
  await settled(p, '#f');
  await settled(p, '#g');
  assert.equal(await p.$eval('#f #still', (e) => e.getBoundingClientRect().width), 0, 'the view replaces it once ready');
  assert.equal(await p.$eval('#g #still', (e) => e.getBoundingClientRect().width), 200, 'a failed view keeps it under the message');
  assert.deepEqual(p.failed, []);

  await p.emulateMedia({ media: 'print' });
  const printed = await p.$eval('#f', (e) => {
    const hidden = (s) => [...e.shadowRoot.querySelectorAll(s)].every((n) => getComputedStyle(n).display === 'none');
    const canvas = e.shadowRoot.querySelector('figure.graph canvas');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let drawn = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]) drawn++;
    return { controls: hidden('.controls'), open: hidden('.open'), drawn, shown: canvas.getBoundingClientRect().width };
  });
  assert.equal(printed.controls, true);
  assert.equal(printed.open, true);
  assert.ok(printed.drawn > 1000 && printed.shown > 200, JSON.stringify(printed));
  await shot(p, 'element-print');
  const pdf = await p.pdf();
  assert.ok(pdf.length > 10000, `a PDF of ${pdf.length} bytes`);
  await p.context().close();
});
