// The example notebooks as a reader gets them: nbconvert's executed HTML and
// the nbsphinx site (tests/python/build-notebooks wrote them under
// build/notebooks), opened from file:// in headless Chromium with every
// request that is not file:, data: or blob: refused. Every figure reaches
// data-state="ready", the console stays clean, each preset figure shows the
// core's numbers (tests/golden/), each given-attention figure its JSON's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

import { launch, root, shot } from '../browser/browser.mjs';

const out = process.env.ATTENTION_NOTEBOOKS_DIR ?? join(root, 'build', 'notebooks');
const golden = (id) => JSON.parse(readFileSync(join(root, 'tests', 'golden', `${id}.trace.json`), 'utf8'));
const htmlFiles = (dir) => readdirSync(join(out, dir)).filter((f) => f.endsWith('.html')).map((f) => join(out, dir, f));

// axe-core's WCAG A and AA violations inside the figures (the notebook's
// own page is nbconvert's): the element keeps its accessibility in a cell.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function figureViolations(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run({ include: [...document.querySelectorAll('attention-playground')] }, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0].target.join(' ')})`);
}

let browser;
before(async () => {
  assert.ok(existsSync(join(out, 'html')), `no ${out}/html: run tests/python/build-notebooks first (make test-python)`);
  browser = await launch();
});
after(() => browser?.close());

// A page from file://, offline: anything else is refused and recorded.
async function openOffline(file, { width = 800, height = 900, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, offline: true });
  const page = await context.newPage();
  page.problems = [];
  await context.route(/^(?!file:|data:|blob:)/, (route) => {
    page.problems.push(`network: ${route.request().url()}`);
    return route.abort();
  });
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => page.problems.push(`failed: ${r.url()}`));
  await page.goto(pathToFileURL(file).href);
  return page;
}

// Every figure scrolled to (they start near the viewport) and ready.
async function everyFigureReady(page) {
  const figures = await page.$$('attention-playground');
  for (const figure of figures) {
    await figure.scrollIntoViewIfNeeded();
    await page.waitForFunction((e) => ['ready', 'error'].includes(e.dataset.state), figure, { timeout: 30000 });
    const state = await figure.evaluate((e) => e.dataset.state);
    const message = state === 'error' ? await figure.evaluate((e) => e.shadowRoot.textContent) : '';
    assert.equal(state, 'ready', message);
  }
  return figures;
}

// The number the detail panel gives for the focused cell.
const detailValue = (figure) => figure.$eval('.detail h3', (h) => {
  const text = h.textContent.split('=').pop().trim().replace('−', '-');
  return text === '-∞' ? -Infinity : Number(text);
});

// A preset figure's matrix at its step, cell by cell through the keyboard
// (the element's accessible path), against the core's golden trace.
async function presetNumbers(page, figure, { rows = Infinity } = {}) {
  const [scenario, step, head] = await figure.evaluate((e) => [e.getAttribute('scenario') ?? 'sun-rises-causal', e.getAttribute('step') ?? 'weights', Number(e.getAttribute('head') ?? 0)]);
  const want = golden(scenario).heads[head][step];
  if (!want) return 0;  // x and out are checked by the page's tests
  const [T, S] = want.shape.slice(-2);  // batch element 0 first
  await figure.evaluate((e) => { e.dataset.wasControls = e.getAttribute('controls') ?? ''; e.setAttribute('controls', 'full'); });
  await page.waitForFunction((e) => e.dataset.state === 'ready' && e.shadowRoot.querySelector('.detail'), figure);
  const index = await figure.$$eval('.heatmap .matrix-name', (names, wanted) => names.findIndex((n) => n.textContent.startsWith(wanted)), step);
  assert.ok(index >= 0, `${scenario}: no ${step} matrix`);
  const canvas = (await figure.$$('.heatmap canvas'))[index];
  await canvas.focus();
  for (let row = 0; row < Math.min(T, rows); row++) {
    for (let col = 0; col < S; col++) {
      const shown = await detailValue(figure);
      const expected = want.data[row * S + col];
      if (expected === null || !Number.isFinite(expected)) assert.equal(shown, -Infinity, `${scenario} ${step}[${row}, ${col}]`);
      else assert.ok(Math.abs(shown - expected) <= 5.1e-5 + 1e-4 * Math.abs(expected), `${scenario} ${step}[${row}, ${col}]: ${shown} vs ${expected}`);
      if (col < S - 1) await page.keyboard.press('ArrowRight');
    }
    for (let col = 0; col < S - 1; col++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowDown');
  }
  await figure.evaluate((e) => (e.dataset.wasControls ? e.setAttribute('controls', e.dataset.wasControls) : e.removeAttribute('controls')));
  return Math.min(T, rows) * S;
}

// The theme a figure shows: its attribute, else the front end's mark it
// follows (data-host-theme), else the system's.
const shownTheme = (e) => e.getAttribute('theme') ?? e.dataset.hostTheme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');

// 'preset' for a figure that draws a trace's matrices (a preset or the
// default one), else its view ('attention', a lesson, 'graph').
const kindOf = (e) => {
  const view = e.getAttribute('view') ?? 'both';
  return ['both', 'matrices'].includes(view) && !e.hasAttribute('sentence') ? 'preset' : view;
};

// A given-attention figure: each cell of the head shown, through the keys,
// reads back the weight its JSON holds (written by ap.attention).
async function givenNumbers(page, figure) {
  const data = JSON.parse(await figure.$eval(':scope > script[type="application/json"]', (s) => s.textContent));
  const [layer, head] = [data.layer ?? 0, data.head ?? 0];
  let matrix = data.attention;
  if (Array.isArray(matrix[0][0][0])) matrix = matrix[layer];
  if (Array.isArray(matrix[0][0])) matrix = matrix[head];
  const T = data.tokens.length;
  const canvas = await figure.$('.attention-heatmap canvas');
  await canvas.focus();
  for (let row = 0; row < T; row++) {
    for (let col = 0; col < T; col++) {
      const value = Number(await figure.$eval('.attention-readout', (r) => r.dataset.value));
      assert.equal(value, matrix[row][col], `given weights[${row}, ${col}]`);
      if (col < T - 1) await page.keyboard.press('ArrowRight');
    }
    for (let col = 0; col < T - 1; col++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowDown');
  }
  return T * T;
}

for (const file of htmlFiles('html')) {
  test(`nbconvert HTML from file://, offline: ${file.split('/').pop()}`, async () => {
    const page = await openOffline(file);
    // the engine inlined once in the page, not once per figure
    assert.equal(await page.$$eval('script[data-attention-playground-engine]', (s) => s.length), 1);
    const figures = await everyFigureReady(page);
    assert.ok(figures.length >= 4, `only ${figures.length} figures`);
    // no horizontal scroll in an 800 px window
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page scrolls sideways at 800 px');
    let checked = 0;
    let given = 0;
    for (const figure of figures) {
      const view = await figure.evaluate(kindOf);
      if (view === 'preset') checked += await presetNumbers(page, figure);
      if (view === 'attention') given += await givenNumbers(page, figure);
    }
    assert.ok(checked > 0, 'no preset figure compared with the core');
    assert.ok(given > 0, 'no given-attention figure compared with its data');
    assert.deepEqual(await figureViolations(page), []);
    await shot(page, 'notebook-nbconvert-light');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

for (const file of htmlFiles('html-dark')) {
  test(`nbconvert's dark theme: figures follow it (${file.split('/').pop()})`, async () => {
    const page = await openOffline(file, { colorScheme: 'light' });
    const figures = await everyFigureReady(page);
    for (const figure of figures) assert.equal(await figure.evaluate(shownTheme), 'dark');
    assert.deepEqual(await figureViolations(page), []);
    await shot(page, 'notebook-nbconvert-dark');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

// A front end that shows some outputs only (the first one, with the engine,
// cleared or not rendered): a later figure's output alone says in its own
// words how to get the engine, never a blank box.
test('a later figure without the engine says how to get it', async () => {
  const file = htmlFiles('html')[0];
  const page = await openOffline(file);
  const alone = await page.$$eval('.attention-playground-output', (outputs) => outputs.filter((o) => !o.querySelector('script[data-attention-playground-engine]')).map((o) => o.outerHTML)[0]);
  await page.context().close();
  const dir = mkdtempSync(join(tmpdir(), 'notebook-alone-'));
  writeFileSync(join(dir, 'alone.html'), `<!doctype html><meta charset="utf-8"><body>${alone}</body>`);
  const lonely = await openOffline(join(dir, 'alone.html'));
  const text = await lonely.$eval('attention-playground', (e) => e.innerText);
  assert.match(text, /ap\.engine\(\)/);
  assert.ok(await lonely.$eval('attention-playground', (e) => e.getBoundingClientRect().height > 10));
  assert.deepEqual(lonely.problems, []);
  await lonely.context().close();
});

// A figure's output (the engine's script, then the tag) with the tag's
// attributes replaced: only after the script, whose text may hold the tag's name.
function retagged(output, attributes) {
  const at = output.lastIndexOf('</script>');
  return output.slice(0, at) + output.slice(at).replace(/<attention-playground\b[^>]*>/, `<attention-playground ${attributes}>`);
}

// A figure the element refuses (an attribute Python passes on, which the
// element checks: positions without view="space") with the engine beside it:
// its one line says the problem, and the line about a missing engine, which
// the page does have, is hidden.
test('a refused figure beside the engine shows its problem only', async () => {
  const file = htmlFiles('html')[0];
  const page = await openOffline(file);
  const first = await page.$$eval('.attention-playground-output', (outputs) => outputs.find((o) => o.querySelector('script[data-attention-playground-engine]')).outerHTML);
  await page.context().close();
  const dir = mkdtempSync(join(tmpdir(), 'notebook-refused-'));
  writeFileSync(join(dir, 'refused.html'), `<!doctype html><meta charset="utf-8"><body>${retagged(first, 'positions="1" data-notebook-theme')}</body>`);
  const refused = await openOffline(join(dir, 'refused.html'));
  const figure = await refused.$('attention-playground');
  await refused.waitForFunction((e) => e.dataset.state === 'error', figure, { timeout: 30000 });
  const text = await figure.evaluate((e) => e.shadowRoot.querySelector('[role=alert]').textContent);
  assert.match(text, /positions applies to view="space"/);
  const lines = await figure.evaluate((e) => [...e.children].filter((c) => c.tagName === 'P' && c.getClientRects().length).map((c) => c.textContent));
  assert.deepEqual(lines, []);
  await refused.context().close();
});

// The training and Model views stay on the site: in a notebook each says so
// in one line, with nothing fetched and no console error.
for (const view of ['train', 'model']) {
  test(`view="${view}" in a notebook says in one line that it needs the site`, async () => {
    const file = htmlFiles('html')[0];
    const page = await openOffline(file);
    const first = await page.$$eval('.attention-playground-output', (outputs) => outputs.find((o) => o.querySelector('script[data-attention-playground-engine]')).outerHTML);
    await page.context().close();
    const dir = mkdtempSync(join(tmpdir(), `notebook-${view}-`));
    writeFileSync(join(dir, 'view.html'), `<!doctype html><meta charset="utf-8"><body>${retagged(first, `view="${view}" data-notebook-theme`)}</body>`);
    const alone = await openOffline(join(dir, 'view.html'));
    const figure = await alone.$('attention-playground');
    await alone.waitForFunction((e) => e.dataset.state === 'error', figure, { timeout: 30000 });
    const text = await figure.evaluate((e) => e.shadowRoot.querySelector('[role=alert]').textContent);
    assert.match(text, /needs the playground's site/);
    assert.deepEqual(alone.problems, []);
    await alone.context().close();
  });
}

test('the nbsphinx site from file://, offline: every figure ready', async () => {
  const pages = readdirSync(join(out, 'sphinx')).filter((f) => f.endsWith('.html') && !['genindex.html', 'search.html'].includes(f));
  let total = 0;
  for (const name of pages) {
    // a dark system under a light theme (alabaster): the figures follow the page
    const page = await openOffline(join(out, 'sphinx', name), { width: 1024, colorScheme: 'dark' });
    const figures = await everyFigureReady(page);
    for (const figure of figures) assert.equal(await figure.evaluate(shownTheme), 'light', name);
    total += figures.length;
    // the same figures as nbconvert's page: their first rows suffice here
    for (const figure of figures) if ((await figure.evaluate(kindOf)) === 'preset') await presetNumbers(page, figure, { rows: 2 });
    if (figures.length) await shot(page, `notebook-sphinx-${name.replace('.html', '')}`);
    assert.deepEqual(page.problems, [], name);
    await page.context().close();
  }
  assert.ok(total >= 4, `the site shows ${total} figures`);
});
