// <attention-playground> on a host page: one script tag and one tag, every
// attribute, the scripting interface, Shadow DOM both ways, one shared wasm
// module, lazy start, the iframe page, all under the strict CSP and a sub-path.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { hostSite, launch, openPage, serve, shot, violations } from './browser.mjs';

const script = '<script type="module" src="assets/attention-playground/attention-playground.js"></script>';
const page = (body, head = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="host.css">${head}${script}</head><body>${body}</body></html>`;

let browser;
let server;
let url;
before(async () => {
  browser = await launch();
  const root = hostSite({
    // a host stylesheet that would wreck anything it could reach
    'host.css': '* { font-size: 31px !important; color: rgb(255, 0, 0) !important; } canvas { display: none !important; } .title { letter-spacing: 9px; } .spacer { height: 4000px; }',
    'one.html': page('<p class="title">Host title</p><attention-playground scenario="bank-raw" view="graph" step="weights" controls="player"></attention-playground>'),
    'many.html': page(`
      <attention-playground id="a" scenario="sun-rises-causal" view="matrices" step="masked" controls="full"></attention-playground>
      <attention-playground id="b" sentence="the cat sat on the mat" view="both" controls="player" theme="dark"></attention-playground>
      <attention-playground id="c" scenario="mine.json" view="graph" step="weights" controls="none"></attention-playground>
      <div class="spacer"></div>
      <attention-playground id="far" scenario="bank-raw" view="graph"></attention-playground>`),
    'author.html': page(`
      <attention-playground id="u" view="model" model="assets/attention-playground/models/text-gpt.safetensors" text="To be"></attention-playground>
      <attention-playground id="deep" view="model" layer="5"></attention-playground>
      <attention-playground id="pos" view="position" controls="none"></attention-playground>
      <attention-playground id="pos2" view="position" scenario="mine.json"></attention-playground>
      <attention-playground id="u2" view="model" model="assets/attention-playground/models/text-gpt.safetensors" playground="https://other.example/playground/"></attention-playground>`),
    'heads.html': page('<attention-playground id="h" scenario="rotary-sun-rises" view="matrices" step="x" controls="full"></attention-playground>'),
    'bad.html': page(`
      <attention-playground id="view" view="grpah"></attention-playground>
      <attention-playground id="preset" scenario="no-such-preset"></attention-playground>
      <attention-playground id="both" scenario="bank-raw" sentence="two inputs"></attention-playground>
      <attention-playground id="batch" scenario="bank-raw" batch="7"></attention-playground>`),
    'lesson.html': page('<attention-playground view="trick" controls="none"></attention-playground>'),
    'train.html': page(`<attention-playground id="t" view="train" training="previous-token" autoplay></attention-playground>
      <attention-playground id="bad" view="train" training="no-such-training"></attention-playground>`),
    'model.html': page(`<attention-playground id="m" view="model" text="To be" layer="1" head="3"></attention-playground>
      <attention-playground id="far" view="model" model="https://example.org/gpt2.safetensors"></attention-playground>`),
    'frame.html': page('<iframe id="frame" title="embedded view" src="assets/attention-playground/embed.html#scenario=bank-raw&view=both&step=weights" width="800" height="200"></iframe>'),
    'mine.json': JSON.stringify({ version: 1, id: 'mine', title: 'A scenario file of the host', tensors: [{ name: 'x', values: [[1, 0], [0, 1], [1, 1]] }, { name: 'w', values: [[1, 0], [0, 1]] }], attention: { x: 'x', heads: [{ query: 'w', key: 'w' }], mask: 'none' } }),
  });
  // the host.css spacer: no inline styles under the strict CSP
  ({ server, url } = await serve({ root, csp: true, prefix: '/docs/v2' }));
});
after(async () => {
  await browser?.close();
  server?.close();
});

const state = (p, selector = 'attention-playground') => p.$eval(selector, (e) => e.dataset.state);
const readyIn = (p, selector = 'attention-playground') =>
  p.waitForFunction((s) => ['ready', 'error'].includes(document.querySelector(s)?.dataset.state), selector, { timeout: 60000 });

test('one script tag and one tag draw a view, with a ready event, under a sub-path and strict CSP', async () => {
  const p = await openPage(browser, null);
  await p.addInitScript(() => document.addEventListener('ready', (e) => { window.__ready = (window.__ready ?? 0) + 1; }, true));
  await p.goto(`${url}one.html`);
  await readyIn(p);
  assert.equal(await state(p), 'ready');
  assert.equal(await p.evaluate(() => window.__ready), 1);
  assert.equal(await p.getAttribute('attention-playground .graph', 'data-edges'), '9,9');
  assert.equal((await p.$$('attention-playground .heatmap')).length, 0);  // view="graph"
  await shot(p, 'element-one');
  assert.deepEqual(await violations(p), []);
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('Shadow DOM: the host\'s CSS does not reach in, and the element\'s does not leak out', async () => {
  const p = await openPage(browser, `${url}one.html`);
  await readyIn(p);
  const inside = await p.$eval('attention-playground', (e) => {
    const title = e.shadowRoot.querySelector('.title');
    const canvas = e.shadowRoot.querySelector('canvas');
    return { size: getComputedStyle(title).fontSize, color: getComputedStyle(title).color, canvas: getComputedStyle(canvas).display, width: canvas.clientWidth };
  });
  assert.notEqual(inside.size, '31px');
  assert.notEqual(inside.color, 'rgb(255, 0, 0)');
  assert.equal(inside.canvas, 'block');
  assert.ok(inside.width > 100);
  // the element's .title rule (font-weight 600) does not style the host's .title
  assert.equal(await p.$eval('p.title', (t) => getComputedStyle(t).fontWeight), '400');
  await p.context().close();
});

test('several elements share one WebAssembly module, each with its own state, and start near the viewport', async () => {
  const p = await openPage(browser, `${url}many.html`);
  for (const id of ['#a', '#b', '#c']) await readyIn(p, id);
  assert.equal(await state(p, '#far'), 'loading');  // 4000 px below: not started
  assert.equal(await p.$eval('#far', (e) => e.step), null);  // no step before its trace is drawn
  const wasm = await p.evaluate(() => performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.wasm')).length);
  assert.equal(wasm, 1);
  assert.equal(await p.$eval('#a', (e) => e.step), 'masked');
  assert.equal(await p.$eval('#b', (e) => e.step), 'weights');
  assert.equal(await p.$eval('#c', (e) => e.shadowRoot.querySelector('.title').textContent), 'A scenario file of the host');
  assert.equal((await p.$$('#c .transport')).length, 0);  // controls="none"
  assert.ok((await p.$$('#a select')).length === 2);      // controls="full": batch and head
  // theme="dark" on #b: its own dark colours
  const background = await p.$eval('#b', (e) => getComputedStyle(e).backgroundColor);
  assert.equal(background, 'rgb(20, 23, 27)');
  await shot(p, 'element-many');
  await p.$eval('#far', (e) => e.scrollIntoView());
  await readyIn(p, '#far');
  assert.equal(await state(p, '#far'), 'ready');
  assert.deepEqual(await violations(p), []);
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('play, pause, step and attribute changes, with stepchange events', async () => {
  const p = await openPage(browser, `${url}many.html`);
  await readyIn(p, '#a');
  await p.$eval('#a', (e) => {
    window.__steps = [];
    e.addEventListener('stepchange', (event) => window.__steps.push(event.detail.step));
    e.step = 'scores';
  });
  assert.equal(await p.$eval('#a', (e) => e.step), 'scores');
  await p.$eval('#a', (e) => e.play());
  await p.waitForFunction(() => window.__steps.includes('scaled'), null, { timeout: 30000 });
  await p.$eval('#a', (e) => e.pause());
  assert.equal(await p.$eval('#a', (e) => e.shadowRoot.querySelector('.play').getAttribute('aria-pressed')), 'false');
  assert.deepEqual((await p.evaluate(() => window.__steps)).slice(0, 2), ['scores', 'scaled']);
  const refused = await p.$eval('#a', (e) => { try { e.step = 'nowhere'; return null; } catch (error) { return error.message; } });
  assert.match(refused, /step must be one of x, qkv/);

  // changing attributes updates the view
  await p.$eval('#a', (e) => e.setAttribute('step', 'out'));
  await p.waitForFunction(() => document.querySelector('#a').step === 'out');
  await p.$eval('#a', (e) => e.setAttribute('view', 'graph'));
  await p.waitForFunction(() => document.querySelector('#a').shadowRoot.querySelector('.graph') && !document.querySelector('#a').shadowRoot.querySelector('.heatmap'));
  await p.$eval('#a', (e) => e.setAttribute('scenario', 'karpathy-value'));
  await p.waitForFunction(() => document.querySelector('#a').shadowRoot.querySelector('.graph')?.dataset.edges === '36,36,36,36');
  // a click on its player button plays it
  await p.click('#b .play');
  assert.equal(await p.$eval('#b', (e) => e.shadowRoot.querySelector('.play').getAttribute('aria-pressed')), 'true');
  await p.context().close();
});

test('controls="full": the step shown is marked, back and forward stop at the ends, the Head menu draws the other head', async () => {
  const p = await openPage(browser, `${url}heads.html`);
  await readyIn(p, '#h');
  const controls = () => p.$eval('#h', (e) => {
    const r = e.shadowRoot;
    return {
      current: [...r.querySelectorAll('.step-button[aria-current="step"]')].map((b) => b.textContent),
      back: r.querySelector('[aria-label="Step back"]').disabled,
      forward: r.querySelector('[aria-label="Step forward"]').disabled,
    };
  });
  assert.deepEqual(await controls(), { current: ['x'], back: true, forward: false });
  await p.click('#h .step-button >> text=rotate');
  await p.waitForFunction(() => document.querySelector('#h').step === 'rotate');
  assert.deepEqual(await controls(), { current: ['rotate'], back: false, forward: false });
  await p.$eval('#h', (e) => { e.step = 'out'; });
  assert.deepEqual(await controls(), { current: ['out'], back: false, forward: true });
  // the Head menu: the same step of head 1 is another picture, and head 0 the first again
  const picture = () => p.locator('#h .matrices').screenshot();
  const head0 = await picture();
  await p.locator('#h select').nth(1).selectOption('1');
  const head1 = await picture();
  assert.notDeepEqual(head1, head0);
  await p.locator('#h select').nth(1).selectOption('0');
  assert.deepEqual(await picture(), head0);
  // turned into a lesson: no step, and play() neither moves it nor starts the trace that comes back
  await p.$eval('#h', (e) => {
    window.__steps = [];
    e.addEventListener('stepchange', (event) => window.__steps.push(event.detail.step));
    e.setAttribute('view', 'trick');
  });
  await p.waitForFunction(() => document.querySelector('#h').shadowRoot.querySelector('.lesson-body'));
  await readyIn(p, '#h');
  assert.equal(await p.$eval('#h', (e) => { e.play(); return e.step; }), null);
  await p.$eval('#h', (e) => e.setAttribute('view', 'matrices'));
  await p.waitForFunction(() => document.querySelector('#h').shadowRoot.querySelector('.matrices'));
  await readyIn(p, '#h');
  await p.evaluate(() => { window.__steps = []; });  // the redraw's own step, x, is reported; nothing may follow it
  await p.waitForTimeout(600);
  assert.deepEqual(await p.evaluate(() => window.__steps), []);
  assert.equal(await p.$eval('#h', (e) => e.shadowRoot.querySelector('.play').getAttribute('aria-pressed')), 'false');
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('an author\'s page: a model by URL opens in the playground from its link, a layer past the model is one line, a lesson\'s own link opens the full page', async () => {
  const p = await openPage(browser, `${url}author.html`);
  await readyIn(p, '#u');
  await readyIn(p, '#deep');
  assert.equal(await p.$eval('#deep', (e) => e.shadowRoot.querySelector('[role="alert"]').textContent),
    'Attention Playground: layer 5 is beyond this model\'s 2 layers');
  // the model's link names the file from the site's root: the playground, elsewhere on the site, finds it
  const link = await p.$eval('#u', (e) => e.shadowRoot.querySelector('a.open').href);
  const path = new URL(url).pathname;
  assert.equal(new URLSearchParams(new URL(link).hash.slice(1)).get('model'), `${path}assets/attention-playground/models/text-gpt.safetensors`);
  // the lesson's link inside a figure is the full page's, not a hash of the host page
  await p.$eval('#pos', (e) => e.scrollIntoView());
  await readyIn(p, '#pos');
  assert.equal(await p.$eval('#pos', (e) => e.shadowRoot.querySelector('.lesson-open').href),
    `${url}assets/attention-playground/index.html#preset=rotary-sun-rises&step=rotate`);
  // so with no link of the figure's own (a scenario file), and in a new tab as that link
  await p.$eval('#pos2', (e) => e.scrollIntoView());
  await readyIn(p, '#pos2');
  assert.deepEqual(await p.$eval('#pos2', (e) => { const a = e.shadowRoot.querySelector('.lesson-open'); return [a.href, a.target]; }),
    [`${url}assets/attention-playground/index.html#preset=rotary-sun-rises&step=rotate`, '_blank']);
  // a playground on another origin would refuse this site's model: no link
  await p.$eval('#u2', (e) => e.scrollIntoView());
  await readyIn(p, '#u2');
  assert.equal(await p.$eval('#u2', (e) => [e.dataset.state, e.shadowRoot.querySelectorAll('a.open').length].join()), 'ready,0');
  // a layer past the model on a figure already showing it: one line, then back
  await p.$eval('#u', (e) => e.setAttribute('layer', '5'));
  await p.waitForFunction(() => document.querySelector('#u').dataset.state === 'error');
  assert.equal(await p.$eval('#u', (e) => e.shadowRoot.querySelector('[role="alert"]').textContent),
    'Attention Playground: layer 5 is beyond this model\'s 2 layers');
  await p.$eval('#u', (e) => e.setAttribute('layer', '1'));
  await p.waitForFunction(() => document.querySelector('#u').dataset.state === 'ready', null, { timeout: 60000 });
  assert.deepEqual(p.failed, []);
  assert.deepEqual(p.problems, []);
  await p.goto(link);
  await p.waitForFunction(() => document.querySelector('.model-view')?.dataset.state === 'ready', null, { timeout: 60000 });
  assert.equal(await p.textContent('.model-name'), `Model: "${path}assets/attention-playground/models/text-gpt.safetensors"`);
  assert.equal(await p.getAttribute('.model-view', 'data-tokens') !== null, true);
  assert.deepEqual(p.failed, []);
  assert.deepEqual(await violations(p), []);
  await p.context().close();
});

test('theme="auto" (the default) follows the host\'s colour scheme', async () => {
  for (const [scheme, background] of [['dark', 'rgb(20, 23, 27)'], ['light', 'rgb(251, 250, 247)']]) {
    const p = await openPage(browser, `${url}one.html`, { colorScheme: scheme });
    await readyIn(p);
    assert.equal(await p.$eval('attention-playground', (e) => getComputedStyle(e).backgroundColor), background, scheme);
    await p.context().close();
  }
});

test('invalid attributes show a clear message inside the element and fire error', async () => {
  const p = await openPage(browser, null);
  await p.addInitScript(() => document.addEventListener('error', (e) => { if (e.detail?.message) (window.__errors ??= []).push(e.detail.message); }, true));
  await p.goto(`${url}bad.html`);
  for (const id of ['#view', '#preset', '#both', '#batch']) await readyIn(p, id);
  const message = (id) => p.$eval(id, (e) => e.shadowRoot.querySelector('.message').textContent);
  assert.equal(await message('#view'), 'Attention Playground: view must be one of matrices, graph, both, trick, qkv, encoder, cross, multihead, scaling, space, position, learn, lecture, train, model, attention; got "grpah"');
  assert.equal(await message('#preset'), 'Attention Playground: scenario: no preset "no-such-preset"; the presets are bank-module, bank-projected, bank-raw, karpathy-affinities, karpathy-value, market-apples, math-trick, rotary-sun-rises, scaled-attention, single-head-42, sun-rises-causal, sun-rises-cross, sun-rises-multihead-projected, sun-rises-multihead, sun-rises, tril-matmul, uniform-value-42');
  assert.deepEqual(p.failed, [], 'an unknown preset is found out from the index, with no request that 404s');
  assert.equal(await message('#both'), 'Attention Playground: give a scenario or a sentence, not both');
  assert.equal(await message('#batch'), 'Attention Playground: batch 7 is beyond this scenario\'s 2 batch elements');
  assert.equal(await p.$eval('#batch', (e) => e.step), null);  // refused: no trace, no step
  for (const id of ['#view', '#preset', '#both', '#batch']) assert.equal(await state(p, id), 'error');
  assert.equal((await p.evaluate(() => window.__errors)).length, 4);
  await shot(p, 'element-errors');
  // fixing the attribute recovers
  await p.$eval('#view', (e) => e.setAttribute('view', 'matrices'));
  await p.waitForFunction(() => document.querySelector('#view').dataset.state === 'ready');
  await p.context().close();
});

test('a lesson as a view', async () => {
  const p = await openPage(browser, `${url}lesson.html`);
  await readyIn(p);
  assert.equal(await state(p), 'ready');
  const badges = await p.$$eval('attention-playground .badge', (b) => b.map((x) => x.textContent));
  assert.deepEqual(badges, ['torch.allclose(xbow2, xbow): True', 'torch.allclose(xbow3, xbow): True']);
  assert.deepEqual(await violations(p), []);
  await p.context().close();
});

test('the iframe page shows one view and tells its parent its height', async () => {
  const p = await openPage(browser, null);
  await p.addInitScript(() => window.addEventListener('message', (e) => {
    if (e.data?.type === 'attention-playground:height') (window.__heights ??= []).push(e.data.height);
  }));
  await p.goto(`${url}frame.html`);
  const frame = p.frame({ url: /embed\.html/ });
  await frame.waitForFunction(() => document.querySelector('attention-playground')?.dataset.state === 'ready', null, { timeout: 60000 });
  assert.equal(await frame.$eval('attention-playground', (e) => e.getAttribute('view')), 'both');
  await p.waitForFunction(() => (window.__heights ?? []).some((h) => h > 300));
  const height = Math.max(...(await p.evaluate(() => window.__heights)));
  const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  assert.equal(height, content);
  assert.equal(await frame.$$eval('h1, nav, .masthead', (n) => n.length), 0);  // no page chrome
  assert.deepEqual(await violations(p), []);
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('the full playground and the iframe page work unchanged under a sub-path with strict CSP', async () => {
  const p = await openPage(browser, `${url}assets/attention-playground/index.html#preset=bank-raw&step=weights`);
  await p.waitForSelector('#app[data-state="ready"]', { timeout: 60000 });
  await p.click('#play');
  await p.waitForFunction(() => document.querySelector('#step-title').textContent.startsWith('out'), null, { timeout: 30000 });
  await shot(p, 'playground-under-csp');
  assert.deepEqual(await violations(p), []);
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('view="train": a documentation page shows a head learning, autoplaying, under the strict CSP; a bad training is one line', async () => {
  const p = await openPage(browser, `${url}/train.html`);
  await readyIn(p, '#t');
  await p.waitForFunction(() => Number(document.querySelector('#t').shadowRoot.querySelector('.training')?.dataset.step) >= 20, null, { timeout: 60000 });
  assert.equal(await p.$eval('#t', (e) => e.shadowRoot.querySelector('#train-open').hidden), true, 'no playground to open a head in');
  await p.waitForFunction(() => document.querySelector('#bad').dataset.state === 'error', null, { timeout: 60000 });
  // one line, as any bad attribute: no empty trainer with its charts and link under it
  assert.equal(await p.$eval('#bad', (e) => e.shadowRoot.querySelectorAll('.training, .open').length), 0);
  assert.equal(await p.$eval('#bad', (e) => e.shadowRoot.querySelector('[role="alert"]').textContent),
    'Attention Playground: training: no preset "no-such-training"; the training presets are previous-token, reverse, induction, induction-one-layer, text-bigram, text-one-head, text-four-heads, text-mlp, text-gpt');
  assert.deepEqual(p.failed, [], 'an unknown training preset makes no request that 404s');
  await shot(p, 'element-train');
  assert.deepEqual(await violations(p), []);
  await p.context().close();
});

test('view="model": the shipped GPT on the text, its head selected; a new text re-runs it, a model elsewhere is one line', async () => {
  const p = await openPage(browser, `${url}/model.html`);
  await readyIn(p, '#m');
  const shown = () => p.$eval('#m', (e) => ({
    state: e.dataset.state, chips: [...e.shadowRoot.querySelectorAll('.token-chip')].map((c) => c.textContent).join(''),
    selected: [...e.shadowRoot.querySelectorAll('.model-thumb[aria-pressed="true"]')].map((b) => `${b.dataset.layer}.${b.dataset.head}`),
  }));
  assert.deepEqual(await shown(), { state: 'ready', chips: 'To␣be', selected: ['1.3'] });
  await p.$eval('#m', (e) => e.setAttribute('text', 'To be, or'));
  await p.waitForFunction(() => document.querySelector('#m').shadowRoot.querySelectorAll('.token-chip').length === 9);
  await p.$eval('#m', (e) => e.setAttribute('head', '0'));
  await p.waitForFunction(() => document.querySelector('#m').shadowRoot.querySelector('.model-thumb[aria-pressed="true"]')?.dataset.head === '0');
  await p.waitForFunction(() => document.querySelector('#far').dataset.state === 'error', null, { timeout: 60000 });
  assert.equal(await p.$eval('#far', (e) => e.shadowRoot.querySelector('.model-status').textContent),
    'model: "https://example.org/gpt2.safetensors" is not on this site; model files load from the page\'s own origin only');
  assert.deepEqual(p.failed, []);
  await shot(p, 'element-model');
  assert.deepEqual(await violations(p), []);
  await p.context().close();
});
