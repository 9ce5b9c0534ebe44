// Real documentation sites, built from examples/ as the README says: MkDocs
// (Debian's mkdocs), Sphinx (Debian's python3-sphinx, alabaster) and a plain
// HTML page of iframes, each with dist/ copied in, served under a sub-path
// with the strict Content-Security-Policy. Every figure reaches ready,
// plays, and the console shows no error and no CSP violation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launch, openPage, root, serve, shot, siteDir, violations } from './browser.mjs';

// dist/: the built site plus its static figures, as `make dist` writes it
const dist = mkdtempSync(join(tmpdir(), 'attention-dist-'));
cpSync(siteDir, dist, { recursive: true });
execFileSync('node', [join(root, 'scripts', 'figures.mjs'), process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm'), join(dist, 'figures')]);

let browser;
const servers = [];
// builds example `name` in a fresh folder with `build(work)`; serves `out`
async function site(name, assets, build, out) {
  const work = mkdtempSync(join(tmpdir(), `attention-${name}-`));
  cpSync(join(root, 'examples', name), work, { recursive: true });
  cpSync(dist, join(work, assets), { recursive: true });
  build(work);
  const served = await serve({ root: join(work, out), csp: true, prefix: '/courses/attention' });
  servers.push(served.server);
  return served.url;
}
let url;
let sphinxUrl;
let plainUrl;
before(async () => {
  url = await site('mkdocs', join('docs', 'assets', 'attention-playground'), (work) =>
    execFileSync('mkdocs', ['build', '--strict', '--quiet', '-f', join(work, 'mkdocs.yml'), '-d', join(work, 'site')], { stdio: 'inherit' }), 'site');
  sphinxUrl = await site('sphinx', join('_static', 'attention-playground'), (work) =>
    execFileSync('sphinx-build', ['-q', '-W', '-b', 'html', work, join(work, '_build')], { stdio: 'inherit' }), '_build');
  plainUrl = await site('plain-html', join('assets', 'attention-playground'), () => {}, '.');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  for (const server of servers) server.close();
});

// Each figure scrolled to, ready, and its Play moves it on.
async function everyFigurePlays(page, figures) {
  for (const figure of figures) {
    await figure.scrollIntoViewIfNeeded();  // they start near the viewport
    await page.waitForFunction((e) => e.dataset.state === 'ready', figure, { timeout: 60000 });
    const before = await figure.evaluate((e) => e.step);
    await figure.evaluate((e) => e.addEventListener('stepchange', () => { e.dataset.moved = 'yes'; }));
    const play = await figure.$('.play');
    await play.click();
    await page.waitForFunction((e) => e.dataset.moved === 'yes', figure, { timeout: 30000 });
    assert.notEqual(await figure.evaluate((e) => e.step), before);
    await play.click();  // pause
  }
}

// An iframe of embed.html: its view ready, the frame sized by frame-resizer.js
// to its content's height (not the markup's), and Play moving it on.
async function frameSizedAndPlaying(page, iframe, index) {
  await iframe.scrollIntoViewIfNeeded();
  const frame = await iframe.contentFrame();
  await frame.waitForFunction(() => document.querySelector('attention-playground')?.dataset.state === 'ready', null, { timeout: 60000 });
  const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await page.waitForFunction(([i, h]) => Number(document.querySelectorAll('iframe')[i].height) === h, [index, content], { timeout: 30000 });
  const before = await frame.$eval('attention-playground', (e) => e.step);
  await frame.click('attention-playground .play');
  await frame.waitForFunction((step) => document.querySelector('attention-playground').step !== step, before, { timeout: 30000 });
  return frame;
}

// A training figure of the lecture's GPT (training="text-gpt" steps="30"
// autoplay): it trains by itself, stops at step 30, and shows what the model
// writes there, a sample from the core. `root` is the element (or a frame's).
async function trainsAndWrites(page, figure) {
  await figure.scrollIntoViewIfNeeded();
  await page.waitForFunction((e) => e.dataset.state === 'ready', figure, { timeout: 30000 });
  const stopped = (e) => {
    const view = e.shadowRoot.querySelector('.training');
    return view?.dataset.step === '30' && view.dataset.playing === 'false'
      && e.shadowRoot.querySelector('.training-sample')?.dataset.step === '30';
  };
  await page.waitForFunction(stopped, figure, { timeout: 120000 });
  const sample = await figure.evaluate((e) => e.shadowRoot.querySelector('.training-sample-text').textContent);
  assert.ok(sample.length >= 100, `a sample of 120 characters: ${JSON.stringify(sample)}`);
  assert.equal(await figure.evaluate((e) => e.shadowRoot.querySelector('#train-play').textContent), 'Train');
}

// The end of every site's test: a picture, and nothing went wrong.
// The model figure (view="model" model="text-gpt" text="To be, or not to be"
// layer="1" head="2"): the shipped GPT opened in its worker, the text's 19
// characters as chips, 2 × 4 heads with layer 1's head 2 selected, ten guesses.
async function showsTheModel(page, figure) {
  await figure.scrollIntoViewIfNeeded();
  await page.waitForFunction((e) => ['ready', 'error'].includes(e.dataset.state), figure, { timeout: 30000 });
  const got = await figure.evaluate((e) => {
    const r = e.shadowRoot;
    return {
      state: e.dataset.state, message: r.querySelector('.message, .model-status:not([hidden])')?.textContent ?? '',
      chips: r.querySelectorAll('.token-chip').length, heads: r.querySelectorAll('.model-thumb').length,
      selected: [...r.querySelectorAll('.model-thumb[aria-pressed="true"]')].map((b) => `${b.dataset.layer}.${b.dataset.head}`),
      bars: r.querySelectorAll('.next-token-bars li').length, open: r.querySelector('a.open')?.getAttribute('href') ?? '',
    };
  });
  assert.equal(got.state, 'ready', got.message);
  assert.deepEqual([got.chips, got.heads, got.selected, got.bars], [19, 8, ['1.2'], 10]);
  const link = new URL(got.open);
  assert.match(link.pathname, /\/index\.html$/);
  assert.deepEqual(Object.fromEntries(new URLSearchParams(link.hash.slice(1))), { model: 'text-gpt', text: 'To be, or not to be', layer: '1', head: '2' });
}

async function clean(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, name);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
}

test('the MkDocs page: every figure ready, each player answers a click, no error, no CSP violation', async () => {
  const page = await openPage(browser, `${url}index.html`);
  const figures = await page.$$('attention-playground');
  assert.equal(figures.length, 5);
  await everyFigurePlays(page, figures.slice(0, 2));
  // the third is a lesson with no controls: the scaling plot is there
  await figures[2].scrollIntoViewIfNeeded();
  await page.waitForFunction((e) => e.dataset.state === 'ready', figures[2], { timeout: 60000 });
  assert.equal(await figures[2].evaluate((e) => e.shadowRoot.querySelectorAll('.lesson-table tbody tr').length), 9);
  // the fourth trains the lecture's GPT
  await trainsAndWrites(page, figures[3]);
  await figures[3].screenshot({ path: join(root, 'tests', 'screenshots', 'docs-site-mkdocs-gpt.png') });
  // the fifth: every head of the trained GPT
  await showsTheModel(page, figures[4]);
  await figures[4].screenshot({ path: join(root, 'tests', 'screenshots', 'docs-site-mkdocs-model.png') });

  const iframes = await page.$$('iframe');
  assert.equal(iframes.length, 1);
  await frameSizedAndPlaying(page, iframes[0], 0);
  // the site's menu is its own pages: the copied playground's Markdown
  // (trainings/CORPORA.md) is no page of it
  assert.deepEqual(await page.$$eval('.navbar a, nav a', (links) => links.filter((a) => /corpora/i.test(a.textContent + a.href)).map((a) => a.href)), []);
  await clean(page, 'docs-site-mkdocs');
});

test('the MkDocs page at 825 px: a figure\'s matrices share the column\'s width', async () => {
  const page = await openPage(browser, `${url}index.html`, { viewport: { width: 825, height: 900 } });
  const figure = (await page.$$('attention-playground'))[1];  // mask and masked, step="masked"
  await figure.scrollIntoViewIfNeeded();
  await page.waitForFunction((e) => e.dataset.state === 'ready', figure, { timeout: 60000 });
  const { column, element, tops, used } = await figure.evaluate((e) => {
    const figures = [...e.shadowRoot.querySelectorAll('.matrices figure.heatmap')];
    const box = e.shadowRoot.querySelector('.matrices').getBoundingClientRect();
    return {
      column: e.parentElement.parentElement.getBoundingClientRect().width, element: e.getBoundingClientRect().width,
      tops: figures.map((f) => Math.round(f.getBoundingClientRect().top)),
      used: (Math.max(...figures.map((f) => f.getBoundingClientRect().right)) - box.left) / box.width,
    };
  });
  assert.ok(element >= column - 32, `the figure is ${element} px of its ${column} px column`);
  assert.equal(new Set(tops).size, 1, `mask and masked side by side: ${tops}`);
  assert.ok(used > 0.9, `the matrices use ${Math.round(used * 100)}% of the figure's width`);
  await figure.screenshot({ path: join(root, 'tests', 'screenshots', 'docs-site-mkdocs-825.png') });
  await page.context().close();
});

test('the Sphinx site (alabaster): both figures ready and playing, the fallback figure gone once ready, no error, no CSP violation', async () => {
  const page = await openPage(browser, `${sphinxUrl}index.html`);
  const figures = await page.$$('attention-playground');
  assert.equal(figures.length, 4);
  await everyFigurePlays(page, figures.slice(0, 2));
  await trainsAndWrites(page, figures[2]);
  await showsTheModel(page, figures[3]);
  // the static figure inside the first tag was shown until ready; now the view is
  assert.equal(await figures[0].evaluate((e) => e.shadowRoot.querySelector('slot') === null), true);
  assert.equal(await figures[0].evaluate((e) => e.shadowRoot.querySelector('.caption').textContent), 'Each node aggregates from the nodes that point to it.');
  // mask="none" temperature="0.5": every weight is above zero
  assert.equal(await figures[1].evaluate((e) => Array.from(e.trace.step(0, 'weights', 0).data).every((w) => w > 0)), true);
  await clean(page, 'docs-site-sphinx');
});

test('the plain HTML page: every iframe ready, sized by frame-resizer.js, playing or training, no error, no CSP violation', async () => {
  const page = await openPage(browser, `${plainUrl}index.html`);
  const frames = await page.$$('iframe');
  assert.equal(frames.length, 4);
  await frameSizedAndPlaying(page, frames[0], 0);
  await frameSizedAndPlaying(page, frames[3], 3);
  // the GPT's frame trains, stops at step 30 with its sample, and is sized to it
  await frames[1].scrollIntoViewIfNeeded();
  const gpt = await frames[1].contentFrame();
  await gpt.waitForSelector('attention-playground');
  await trainsAndWrites(gpt, await gpt.$('attention-playground'));
  const content = await gpt.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await page.waitForFunction((h) => Number(document.querySelectorAll('iframe')[1].height) === h, content, { timeout: 30000 });
  // the model's frame: every head of the trained GPT
  await frames[2].scrollIntoViewIfNeeded();
  const model = await frames[2].contentFrame();
  await model.waitForSelector('attention-playground');
  await showsTheModel(model, await model.$('attention-playground'));
  // the sidebar's frame (300 px): nothing wider than the frame
  const second = await frames[3].contentFrame();
  assert.ok(await second.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  await clean(page, 'docs-site-plain-html');
});
