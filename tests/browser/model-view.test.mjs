// The Model view in the page, under the strict CSP: the shipped text-gpt on
// the link's text (tokens as chips, every head on one scale, the selected
// head large, the core's top-10 after the last token and after a hovered or
// focused one), arrow keys between heads, typing re-runs, Generate, the link
// kept as the learner goes; a refused file or text keeps the model and the
// text; a large file loads in the worker with a progress bar, the page's
// thread running no wasm, and Cancel keeps the model shown; a head opens in the
// playground as the core's scenario of it. The numbers are compared with the
// same model opened in Node through the same engine.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadEngine } from '../../web/engine/engine.js';
import { loadModelEngine, openModel } from '../../web/engine/model.js';
import { tokenText } from '../../web/views/format.js';
import { percent } from '../../web/views/next-tokens.js';
import { gptFile } from './gpt-file.mjs';
import { openPage, root, shot, useBrowser, violations } from './browser.mjs';
import { countPageWork, pageWork } from './page-work.mjs';

const env = useBrowser({ csp: true });
const shipped = join(root, 'web', 'models', 'text-gpt.safetensors');
const text = 'To be, or not to be';
const node = {};

const wasm = join(root, 'build', 'wasm');
const engineOf = (name) => ({ moduleUrl: new URL(`file://${join(wasm, `${name}.js`)}`), wasmBinary: readFileSync(join(wasm, `${name}.wasm`)) });

before(async () => {
  const engine = await loadModelEngine(engineOf('attention-model'));
  node.model = await openModel(new Blob([readFileSync(shipped)]), { engine, name: 'text-gpt' });
  node.vocabulary = node.model.info.vocabulary;
});

async function modelPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  return page;
}

const bars = (page) => page.$$eval('.next-token-bars li', (items) => items.map((li) => [li.querySelector('.next-token-text').textContent, li.querySelector('.next-token-p').textContent]));
// the bars are what Generate samples from at the slider's temperature (0.8 at first): the core's tempered guesses
const expectedBars = (run, position, temperature = 0.8) => {
  const { k, ids, probabilities } = node.model.temper(temperature);
  return Array.from({ length: 10 }, (_, n) => [tokenText(node.vocabulary[ids[position * k + n]]), percent(probabilities[position * k + n])]);
};
const hashOf = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(window.location.hash.slice(1))));

test('text-gpt on the link\'s text: chips, 2 × 4 heads, layer 1 head 2 large, the core\'s guesses after the last and a hovered token', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&layer=1&head=2`);
  assert.equal(await page.getAttribute('.model-view', 'data-state'), 'ready');
  const tokens = node.model.encode(text);
  const run = node.model.run(tokens);
  assert.equal(await page.getAttribute('.model-view', 'data-tokens'), tokens.join(','));
  assert.deepEqual(await page.$$eval('.token-chip', (c) => c.map((x) => x.textContent)), tokens.map((t) => tokenText(node.vocabulary[t])));
  assert.match(await page.textContent('.model-facts'), /^2 layers × 4 heads, embedding 64, a vocabulary of 81 tokens \(characters\), reads up to 32 tokens, 112,593 parameters in the file: 112,465 trained weights and 128 key biases that are always zero \(softmax ignores a key’s bias, so training never moves it\)$/);
  assert.equal(await page.$$eval('.model-thumb', (b) => b.length), 8);
  assert.deepEqual(await page.$$eval('.model-thumb[aria-pressed="true"]', (b) => b.map((x) => `${x.dataset.layer}.${x.dataset.head}`)), ['1.2']);
  assert.equal(await page.textContent('.model-head-panel h3'), 'Layer 1, head 2: who listens to whom');
  assert.equal(await page.getAttribute('.model-graph-panel figure[data-view="graph"]', 'data-edges'), String((19 * 20) / 2));
  assert.deepEqual(await bars(page), expectedBars(run, tokens.length - 1));
  assert.equal(await page.getAttribute('.next-tokens', 'data-position'), '18');
  // hover a chip: the guesses after it; focus another: after that one
  await page.hover('.token-chip[data-position="3"]');
  assert.deepEqual(await bars(page), expectedBars(run, 3));
  assert.match(await page.textContent('.next-tokens h3'), /^Next token after token 3, "b"$/);
  await page.focus('.token-chip[data-position="6"]');
  assert.deepEqual(await bars(page), expectedBars(run, 6));
  // arrow keys walk the grid; the link follows
  await page.focus('.model-thumb[aria-pressed="true"]');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await page.$$eval('.model-thumb[aria-pressed="true"]', (b) => b.map((x) => `${x.dataset.layer}.${x.dataset.head}`)), ['0.3']);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'layer 0, head 3');
  assert.deepEqual(await hashOf(page), { model: 'text-gpt', head: '3' }, 'the default text and layer 0 leave the link');
  await shot(page, 'model-view');
  await page.setViewportSize({ width: 390, height: 844 });
  // the graph is laid out again for the narrower page, not left 1280 px wide
  await page.waitForFunction(() => document.querySelector('.model-view figure[data-view="graph"] canvas').getBoundingClientRect().width <= 390);
  // and the head's heatmap sized again for it, not left overflowing
  await page.waitForFunction(() => document.querySelector('.model-view figure[data-matrix="model-head"] canvas').getBoundingClientRect().right <= 390);
  // every head of every layer in view on a phone: 4 heads a layer fit its width, none cut off
  assert.deepEqual(await page.$$eval('.model-thumb', (b) => b.filter((x) => x.getBoundingClientRect().right > 390 - 8).length), 0);
  await shot(page, 'model-view-390');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

test('a link to a layer or head past the open model shows its last, as opening one does (it threw inside the view)', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}`);
  await page.evaluate(() => { window.location.hash = '#model=text-gpt&text=To%20be&layer=7&head=9'; });
  await page.waitForFunction(() => document.querySelector('.model-view').dataset.tokens?.split(',').length === 5);
  await page.waitForFunction(() => document.querySelector('.model-thumb[aria-pressed="true"]')?.dataset.layer === '1');
  assert.deepEqual(await page.$$eval('.model-thumb[aria-pressed="true"]', (b) => b.map((x) => `${x.dataset.layer}.${x.dataset.head}`)), ['1.3']);
  assert.equal(await page.getAttribute('.model-view', 'data-state'), 'ready');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('typing re-runs the model, Generate appends its samples, the link keeps the text; a character outside the vocabulary keeps both', async () => {
  const page = await modelPage('#model=text-gpt', { colorScheme: 'dark' });
  assert.equal(await page.inputValue('.model-text-field textarea'), text, 'the default text');
  await page.focus('.model-text-field textarea');
  await page.keyboard.press('End');
  await page.keyboard.type(' that');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 24);
  const typed = `${text} that`;
  assert.deepEqual(await bars(page), expectedBars(node.model.run(node.model.encode(typed)), 23));
  // the link is written once the typing pauses
  await page.waitForFunction((typed) => new URLSearchParams(window.location.hash.slice(1)).get('text') === typed, typed);
  await page.$eval('.model-generate input[type="range"]', (slider) => {  // the stop of 0.5
    slider.value = '7';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  });
  assert.equal(await page.textContent('.model-generate output'), '0.5');
  await page.click('.model-generate button');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 32);
  const grown = await page.inputValue('.model-text-field textarea');
  assert.ok(grown.startsWith(typed) && grown.length === typed.length + 10, JSON.stringify(grown));
  assert.match(await page.textContent('.model-text-note'), /^The model reads 32 tokens at most: the first 2 are left out$/);
  assert.equal((await hashOf(page)).text, grown);
  // 32 tokens, a node each: the graph takes the page's width, not the middle column's
  const graphWidth = await page.$eval('.model-view figure[data-view="graph"] canvas', (c) => c.getBoundingClientRect().width);
  assert.ok(graphWidth >= 32 * 24, `the graph is ${graphWidth} px wide for 32 tokens`);
  await shot(page, 'model-view-dark');
  // a character the model never saw: the core's line, the text and the views stay
  await page.fill('.model-text-field textarea', 'café');
  await page.waitForFunction(() => /not in the vocabulary/.test(document.querySelector('.model-text-error').textContent));
  assert.equal(await page.textContent('.model-text-error'), 'text: character "é" at position 3 is not in the vocabulary');
  assert.equal(await page.inputValue('.model-text-field textarea'), 'café');
  assert.equal(await page.$$eval('.token-chip', (c) => c.length), 32, 'the last text the model read stays drawn');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

// Types into the text field as an input event would, then `after` (in the
// same task, so no timer runs between): the link then, and before `after`.
const typeThen = (page, typed, after) => page.evaluate(({ typed, after }) => {
  const input = document.querySelector('.model-text-field textarea');
  input.value = typed;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  const before = new URLSearchParams(window.location.hash.slice(1)).get('text');
  if (after === 'blur') input.blur();
  if (after === 'pagehide') window.dispatchEvent(new PageTransitionEvent('pagehide'));
  if (after === 'leave') window.location.href = new URL('embed.html#scenario=bank-raw', window.location.href).href;
  return { before, after: new URLSearchParams(window.location.hash.slice(1)).get('text') };
}, { typed, after });

test('a keystroke\'s link is written when the typing pauses, and at once when the text field is left or the page hidden or left', async () => {
  const page = await modelPage('#model=text-gpt');
  await page.focus('.model-text-field textarea');
  // typing: no history write per keystroke
  assert.deepEqual(await typeThen(page, 'To be', 'nothing'), { before: null, after: null });
  await page.waitForFunction(() => new URLSearchParams(window.location.hash.slice(1)).get('text') === 'To be');
  // leaving the field (a click on a link, the address bar) writes it in that moment
  await page.focus('.model-text-field textarea');
  assert.deepEqual(await typeThen(page, 'To be, or', 'blur'), { before: 'To be', after: 'To be, or' });
  await page.focus('.model-text-field textarea');
  assert.deepEqual(await typeThen(page, 'To be, or not', 'pagehide'), { before: 'To be, or', after: 'To be, or not' });
  // a page left mid-typing: back to it, the text typed
  await typeThen(page, 'To be, or not to', 'leave');
  await page.waitForURL(/embed\.html/);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('.model-view')?.dataset.state === 'ready', null, { timeout: 30000 });
  assert.equal((await hashOf(page)).text, 'To be, or not to');
  assert.equal(await page.inputValue('.model-text-field textarea'), 'To be, or not to');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a keystroke changes the token chips in place, and another head on the same tokens draws the graph a fresh page draws', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&layer=1&head=2`);
  const graph = () => page.$eval('.model-view figure[data-view="graph"] canvas', (c) => c.toDataURL());
  const firstChip = await page.$('.token-chip');
  await page.focus('.model-text-field textarea');
  await page.keyboard.press('End');
  await page.keyboard.type('!');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 20);
  assert.ok(await page.evaluate((chip) => chip.isConnected && chip === document.querySelector('.token-chip'), firstChip), 'the first chip is the same element');
  assert.deepEqual(await page.$$eval('.token-chip', (c) => c.map((x) => [x.textContent, x.title])),
    node.model.encode(`${text}!`).map((t, n) => [tokenText(node.vocabulary[t]), `token ${n}: id ${t}`]));
  // back to the link's text, then another head: its edges on the layout kept
  await page.keyboard.press('Backspace');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 19);
  const before = await graph();
  await page.click('.model-thumb[data-layer="0"][data-head="1"]');
  await page.waitForFunction(() => document.querySelector('.model-head-panel h3').textContent.startsWith('Layer 0, head 1'));
  const reweighed = await graph();
  assert.notEqual(reweighed, before, 'the graph shows the new head\'s weights');
  const fresh = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&layer=0&head=1`);
  assert.equal(reweighed, await fresh.$eval('.model-view figure[data-view="graph"] canvas', (c) => c.toDataURL()), 'the same picture as a fresh page\'s');
  assert.deepEqual(page.problems, []);
  await fresh.context().close();
  await page.context().close();
});

test('a bad model file shows the core\'s line and keeps the model and the text; a large one loads in the worker with progress, the page running no wasm; Cancel keeps the model', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'model-view-'));
  const bad = join(dir, 'broken.safetensors');
  writeFileSync(bad, Buffer.from([1, 0, 0]));
  const large = join(dir, 'large.safetensors');
  writeFileSync(large, gptFile({ embed: 384, heads: 6, layers: 6, length: 64 }));
  const page = await openPage(env.browser, null);
  await countPageWork(page.context());
  await page.goto(`${env.url}#model=text-gpt&text=To%20be`);
  await page.waitForFunction(() => document.querySelector('.model-view')?.dataset.state === 'ready', null, { timeout: 30000 });
  await page.setInputFiles('.model-source input[type="file"]', bad);
  await page.waitForFunction(() => !document.querySelector('.model-status').hidden);
  assert.match(await page.textContent('.model-status'), /^"broken\.safetensors": header: the file is shorter than the 8-byte header length; still showing text-gpt$/);
  assert.equal(await page.inputValue('.model-text-field textarea'), 'To be');
  await page.focus('.model-text-field textarea');
  await page.keyboard.press('End');
  await page.keyboard.type('!');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 6);
  assert.equal((await hashOf(page)).model, 'text-gpt', 'the link still names the model shown');
  // the large file: progress in bytes, then 6 layers × 6 heads
  const before = await pageWork(page);
  await page.setInputFiles('.model-source input[type="file"]', large);
  await page.waitForFunction(() => document.querySelectorAll('.model-thumb').length === 36, null, { timeout: 60000 });
  const progress = await page.evaluate(() => [document.querySelector('.model-progress').hidden, document.querySelector('.model-progress progress').value, document.querySelector('.model-progress progress').max]);
  assert.equal(progress[0], true);
  assert.equal(progress[1], progress[2], 'the bar reached the data\'s size');
  assert.ok(progress[2] > 40e6, `${progress[2]} bytes of data`);
  assert.equal(await page.textContent('.model-name'), 'Model: "large.safetensors"');
  // Counted, not timed (the page's tasks while it loads are `make bench`'s,
  // tests/bench/bench_page.mjs): the File itself went to a new model worker,
  // which read and opened it; the page's thread ran no wasm meanwhile.
  const after = await pageWork(page);
  const posted = after.posted.slice(before.posted.length);
  assert.deepEqual(posted.filter((p) => p.type === 'open').map(({ worker, source }) => [worker, source]), [['model-worker.js', 'File']]);
  assert.ok(posted.every((p) => p.worker === 'model-worker.js'), JSON.stringify(posted));
  assert.equal(after.wasmCalls - before.wasmCalls, 0, 'wasm calls on the page\'s thread while the file loaded and ran');
  assert.equal(after.modules, before.modules, 'a wasm module instantiated on the page');
  // Cancel halfway: the large model stays
  // (clicked in the very turn the bar shows: the load is fast enough now to
  // be over by the time a separate click arrives)
  await page.setInputFiles('.model-source input[type="file"]', large);
  await page.waitForFunction(() => {
    const box = document.querySelector('.model-progress');
    if (box.hidden) return false;
    box.querySelector('button').click();
    return true;
  });
  assert.match(await page.textContent('.model-status'), /^Opening was cancelled; still showing "large\.safetensors"$/);
  assert.equal(await page.$$eval('.model-thumb', (b) => b.length), 36);
  // a look at the bar while it loads once more (unless that load is over first:
  // a screenshot is a long task of its own, so not while the tasks are timed)
  const opened = await page.evaluate(() => performance.getEntriesByName('model-opened').length);
  await page.setInputFiles('.model-source input[type="file"]', large);
  await page.waitForFunction((n) => !document.querySelector('.model-progress').hidden || performance.getEntriesByName('model-opened').length > n, opened);
  await shot(page, 'model-view-loading');
  assert.equal(await page.isHidden('.model-status'), true, 'the cancelled opening\'s line is gone once another opening starts');
  await page.waitForFunction(() => document.querySelector('.model-view').dataset.state === 'ready', null, { timeout: 60000 });
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

test('"Open this head in the playground": the core\'s scenario of layer 1, head 2, whose weights are the Model view\'s', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&layer=1&head=2`);
  await page.click('.model-open-head');
  await page.waitForFunction(() => document.querySelector('#app').dataset.view === 'playground' && document.querySelector('#app').dataset.state === 'ready', null, { timeout: 30000 });
  const opened = JSON.parse(await page.evaluate(() => sessionStorage.getItem('attention-playground:file')));
  const tokens = node.model.encode(text);
  const run = node.model.run(tokens);
  const labels = tokens.map((t) => node.vocabulary[t]);
  const expected = node.model.headScenario(1, 2, { labels });
  assert.deepEqual(opened, expected);
  // the scenario, played by the core, gives the weights the grid drew
  const engine = await loadEngine(engineOf('attention-core'));
  const trace = engine.run(opened);
  const weights = trace.step(0, 'weights', 0);
  const T = tokens.length;
  const at = (1 * 4 + 2) * T * T;
  for (let n = 0; n < T * T; n++) assert.ok(Math.abs(weights.data[n] - run.attention.data[at + n]) <= 1e-6, `weights[${n}]`);
  trace.dispose();
  assert.deepEqual(await page.$$eval('#tokens .token-text', (t) => t.map((x) => x.textContent)), labels.map(tokenText));
  // q, k, v shows the head's biases beside its weights
  await page.click('.step-button[data-step="qkv"]');
  await page.waitForSelector('figure[data-matrix="b_query"]', { timeout: 30000 });
  assert.ok(await page.$('figure[data-matrix="b_value"]'));
  await shot(page, 'model-head-in-playground');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

test('a GPT-2 vocabulary\'s model: the vendored tokenizer loads only then, its ids are the library\'s, a split emoji\'s chips show bytes', async () => {
  const gpt2 = await import('gpt-tokenizer/encoding/gpt2');
  const dir = mkdtempSync(join(tmpdir(), 'model-view-'));
  const file = join(dir, 'tiny-gpt2.safetensors');
  writeFileSync(file, gptFile({ embed: 16, heads: 2, layers: 2, length: 64, tokenizer: 'gpt2' }));
  const page = await modelPage('#model=text-gpt&text=To%20be');
  const vendored = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/vendor/gpt-tokenizer/')).length);
  assert.equal(await vendored(), 0, 'a character model loads no tokenizer');
  await page.setInputFiles('.model-source input[type="file"]', file);
  await page.waitForFunction(() => document.querySelectorAll('.model-thumb').length === 4 && document.querySelector('.model-view').dataset.state === 'ready', null, { timeout: 30000 });
  assert.ok(await vendored() > 0);
  assert.match(await page.textContent('.model-facts'), /50,257 tokens \(GPT-2’s BPE\)/);
  const typed = 'Hi, café 中文 🙂 👍🏽 123!';
  await page.fill('.model-text-field textarea', typed);
  const ids = gpt2.encode(typed);
  await page.waitForFunction((want) => document.querySelector('.model-view').dataset.tokens === want, ids.join(','));
  const chips = await page.$$eval('.token-chip', (c) => c.map((x) => x.textContent));
  assert.ok(chips.includes('\\xF0\\x9F'), chips.join(' | '));
  const { default: ranks } = await import('gpt-tokenizer/bpeRanks/r50k_base');
  const { gpt2Tokenizer } = await import('../../web/model/tokens.js');
  assert.deepEqual(chips, ids.map((id) => tokenText(gpt2Tokenizer(gpt2, ranks).label(id))));
  assert.equal(await page.$$eval('.next-token-bars li', (l) => l.length), 10);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

test('a Model view left while its GPT-2 tokenizer loads never takes the link back, and an open "Embed this view" follows Back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'model-view-'));
  const file = join(dir, 'tiny-gpt2.safetensors');
  writeFileSync(file, gptFile({ embed: 16, heads: 2, layers: 2, length: 64, tokenizer: 'gpt2' }));
  const page = await modelPage('#model=text-gpt&text=To%20be');
  // the embed box open, then another head: Back shows the first one's snippet, as the view does
  await page.click('#lesson-embed');
  await page.click('.model-thumb[data-layer="1"][data-head="2"]');
  await page.waitForFunction(() => /head="2"/.test(document.querySelector('#lesson-embed-code-element').value));
  await page.evaluate(() => { window.location.hash = '#model=text-gpt&text=To%20be&layer=1&head=3'; });
  await page.waitForFunction(() => /head="3"/.test(document.querySelector('#lesson-embed-code-element').value));
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('.model-thumb[aria-pressed="true"]')?.dataset.head === '2');
  assert.match(await page.inputValue('#lesson-embed-code-element'), /layer="1" head="2">/);
  // the tokenizer held back until the learner has gone to a lesson
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  await page.route('**/vendor/gpt-tokenizer/bpeRanks/**', async (route) => { await gate; await route.continue(); });
  const asked = page.waitForRequest((r) => r.url().includes('/vendor/gpt-tokenizer/bpeRanks/'));
  await page.setInputFiles('.model-source input[type="file"]', file);
  const ranks = (await asked).url();
  await page.evaluate(() => { window.location.hash = '#lesson=trick'; });
  await page.waitForFunction(() => document.querySelector('#lesson-title').textContent === 'The mathematical trick');
  release();
  // the ranks evaluated (the same module the view waits on), then its continuation's turn
  await page.evaluate(async (url) => { await import(url); await new Promise((r) => setTimeout(r, 50)); }, ranks);
  assert.equal(await page.evaluate(() => window.location.hash), '#lesson=trick');
  assert.equal(await page.textContent('#lesson-title'), 'The mathematical trick');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the Model view\'s wiring loads when the view first opens, and a learner gone on before it arrived keeps the view they went to', async () => {
  const page = await openPage(env.browser, `${env.url}#lesson=trick`);
  await page.waitForFunction(() => document.querySelector('#lesson-title').textContent === 'The mathematical trick');
  const loaded = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /\/app\/(model|training)\.js$/.test(e.name)).length);
  assert.equal(await loaded(), 0, 'a first visit carries neither the Model view\'s nor the training view\'s wiring');
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  await page.route('**/app/model.js', async (route) => { await gate; await route.continue(); });
  const asked = page.waitForRequest((r) => r.url().endsWith('/app/model.js'));
  await page.evaluate(() => { window.location.hash = '#model=text-gpt'; });
  await asked;
  await page.evaluate(() => { window.location.hash = '#lesson=qkv'; });
  await page.waitForFunction(() => document.querySelector('#lesson-title').textContent === 'Queries, keys and values');
  release();
  await page.evaluate(() => import(new URL('app/model.js', document.baseURI).href));  // arrived and evaluated
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assert.deepEqual(await page.evaluate(() => [document.querySelector('#app').dataset.view, document.querySelector('#lesson-title').textContent, !!document.querySelector('.model-view')]),
    ['lesson', 'Queries, keys and values', false]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('12 layers × 12 heads (GPT-2 small\'s grid): every thumbnail in view at 1280 and at least 40 px, the last head selectable', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'model-view-'));
  const file = join(dir, 'twelve.safetensors');
  writeFileSync(file, gptFile({ embed: 24, heads: 12, layers: 12, length: 32 }));
  const page = await modelPage('#model=text-gpt&text=To%20be');
  await page.setInputFiles('.model-source input[type="file"]', file);
  await page.waitForFunction(() => document.querySelectorAll('.model-thumb').length === 144 && document.querySelector('.model-view').dataset.state === 'ready', null, { timeout: 30000 });
  const fit = await page.evaluate(() => {
    const box = document.querySelector('.head-grid-box');
    const edge = box.getBoundingClientRect();
    const thumbs = [...document.querySelectorAll('.model-thumb')].map((t) => t.getBoundingClientRect());
    return {
      smallest: Math.min(...thumbs.map((r) => Math.min(r.width, r.height))),
      outside: thumbs.filter((r) => r.left < edge.left || r.right > edge.right + 0.5 || r.bottom > edge.bottom + 0.5).length,
      scrolls: box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight,
    };
  });
  assert.deepEqual(fit, { smallest: 40, outside: 0, scrolls: false });
  await page.click('.model-thumb[data-layer="11"][data-head="11"]');
  await page.waitForFunction(() => /^Layer 11, head 11:/.test(document.querySelector('.model-head-panel h3')?.textContent ?? ''));
  await shot(page, 'model-view-12x12');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a model with its config.json, a model by URL, a URL elsewhere refused; a model without a tokenizer reads ids', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'model-view-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ model_type: 'gpt2', n_head: 6, layer_norm_epsilon: 1e-5 }));
  const badConfig = join(dir, 'bad', 'config.json');
  (await import('node:fs')).mkdirSync(join(dir, 'bad'));
  writeFileSync(badConfig, JSON.stringify({ layer_norm_epsilon: 1e-6 }));
  const hf = join(root, 'tests', 'models', 'hf-f32.safetensors');
  // a same-origin URL, relative to the page
  const page = await modelPage('#model=models/text-gpt.safetensors&text=To%20be');
  assert.equal(await page.getAttribute('.model-view', 'data-state'), 'ready');
  assert.equal(await page.textContent('.model-name'), 'Model: "models/text-gpt.safetensors"');
  // its embed carries the URL from the site's root: an author's page elsewhere on the site reads the same file
  await page.click('#lesson-embed');
  assert.match(await page.inputValue('#lesson-embed-code-element'), new RegExp(`<attention-playground view="model" model="${new URL('models/text-gpt.safetensors', env.url).pathname}" text="To be">`));
  await page.click('#lesson-embed');
  // the file and its config.json: n_head from the config (3 in the file)
  await page.setInputFiles('.model-source input[type="file"]', [hf, config]);
  // no tokenizer: it opens on ids it reads, with a line saying why, never on an error over the last text
  await page.waitForFunction(() => document.querySelector('.model-ids-note')?.textContent.includes('names no tokenizer'));
  assert.equal(await page.textContent('.model-text-error'), '');
  assert.match(await page.inputValue('.model-text-field textarea'), /^\d+(, \d+)+$/);
  await page.fill('.model-text-field textarea', '3, 1, 4, 1, 5');
  await page.waitForFunction(() => document.querySelector('.model-view').dataset.tokens === '3,1,4,1,5');
  assert.equal(await page.$$eval('.model-thumb', (b) => b.length), 2 * 6);
  // a config.json the core refuses: its line, and the model stays
  await page.setInputFiles('.model-source input[type="file"]', [hf, badConfig]);
  await page.waitForFunction(() => !document.querySelector('.model-status').hidden);
  assert.equal(await page.textContent('.model-status'), '"hf-f32.safetensors": config.layer_norm_epsilon: 1e-06, but the core\'s LayerNorm uses eps 1e-5 (gpt-v1.md); still showing "hf-f32.safetensors"');
  assert.equal(await page.$$eval('.model-thumb', (b) => b.length), 12);
  // a link to a model elsewhere: refused before any request, the model stays
  await page.evaluate(() => { window.location.hash = '#model=https://example.org/gpt2.safetensors'; });
  await page.waitForFunction(() => /not on this site/.test(document.querySelector('.model-status').textContent));
  assert.equal(await page.textContent('.model-status'), 'model: "https://example.org/gpt2.safetensors" is not on this site; model files load from the page\'s own origin only; still showing "hf-f32.safetensors"');
  assert.equal(await page.$$eval('.model-thumb', (b) => b.length), 12);
  assert.deepEqual(page.failed, []);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

test('"Embed this view" gives the element and the iframe of the Model view as it is; a model file from disk: the link says file=1, the embed says it stays behind, and the link followed opens the default model with a line saying why', async () => {
  const page = await modelPage('#model=text-gpt&text=To%20be&layer=1&head=2');
  await page.click('#lesson-embed');
  assert.equal(await page.getAttribute('#lesson-embed', 'aria-expanded'), 'true');
  const element = await page.inputValue('#lesson-embed-code-element');
  assert.match(element, /\n<attention-playground view="model" model="text-gpt" text="To be" layer="1" head="2"><\/attention-playground>$/);
  const iframe = await page.inputValue('#lesson-embed-code-iframe');
  const src = /src="([^"]+)"/.exec(iframe)[1].replaceAll('&amp;', '&');
  assert.equal(src, `${env.url}embed.html#view=model&model=text-gpt&text=To+be&layer=1&head=2`);
  assert.equal(await page.isHidden('#lesson-embed-code .embed-left'), true, 'nothing left out');
  await shot(page, 'model-view-embed');
  // the iframe's page draws the same run, layer 1 head 2 selected
  const frame = await openPage(env.browser, src);
  await frame.waitForFunction(() => document.querySelector('attention-playground')?.shadowRoot?.querySelector('.model-view')?.dataset.state === 'ready', null, { timeout: 30000 });
  const embedded = await frame.$eval('attention-playground', (e) => ({
    tokens: e.shadowRoot.querySelector('.model-view').dataset.tokens,
    selected: [...e.shadowRoot.querySelectorAll('.model-thumb[aria-pressed="true"]')].map((b) => `${b.dataset.layer}.${b.dataset.head}`),
  }));
  assert.deepEqual(embedded, { tokens: await page.getAttribute('.model-view', 'data-tokens'), selected: ['1.2'] });
  assert.deepEqual(frame.problems, []);
  await frame.context().close();

  // a model file from disk: the link cannot carry it, and says so
  await page.setInputFiles('.model-source input[type="file"]', shipped);
  await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "text-gpt.safetensors"' && document.querySelector('.model-view').dataset.state === 'ready');
  assert.deepEqual(await hashOf(page), { model: 'text-gpt', file: '1', text: 'To be', layer: '1', head: '2' });
  await page.fill('.model-text-field textarea', 'To be!');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 6);
  await page.waitForFunction(() => new URLSearchParams(window.location.hash.slice(1)).get('text') === 'To be!');  // once the typing pauses
  assert.deepEqual(await hashOf(page), { model: 'text-gpt', file: '1', text: 'To be!', layer: '1', head: '2' }, 'still from the file as the learner types');
  assert.equal(await page.textContent('.model-name'), 'Model: "text-gpt.safetensors"', 'the file stays shown');
  assert.doesNotMatch(await page.inputValue('#lesson-embed-code-element'), /model=/);
  assert.equal(await page.textContent('#lesson-embed-code .embed-left'), 'Not carried into a figure: the model file opened from your disk: put it on your site and give its URL as model.');
  await shot(page, 'model-view-embed-file');
  const link = await page.evaluate(() => window.location.hash);
  await page.context().close();

  // the link followed: the default model, one line saying why, and a link that no longer says file
  const followed = await modelPage(link);
  assert.equal(await followed.textContent('.model-name'), 'Model: text-gpt');
  assert.equal(await followed.textContent('#notice'), 'Some link settings were not valid and were replaced: file: a model file opened from someone\'s disk cannot travel in a link; opened text-gpt, the default model.');
  assert.equal(await followed.getAttribute('.model-view', 'data-tokens'), node.model.encode('To be!').join(','));
  assert.deepEqual(await hashOf(followed), { model: 'text-gpt', text: 'To be!', layer: '1', head: '2' });
  await shot(followed, 'model-view-file-link');
  assert.deepEqual(followed.problems, []);
  assert.deepEqual(await violations(followed), []);
  await followed.context().close();
});
