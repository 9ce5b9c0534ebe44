// The Model view's lenses (issue 31, lens-v1.md; web/lens/): on text-gpt,
// each lens the page draws is checked against the core's own JSON for the
// same tokens, computed here in Node by the site's wasm (LoadedModel.lens):
// the head-scores table (every score, each head's best match, sorting by a
// header with the mouse and the keyboard, the induction input), ablation
// (the bars and the loss before and after, zero and mean, the heads toggled
// in the grid and from the table), the logit lens (each cell's top token and
// final-choice probability, a cell's top 5) and attribution (each part, the
// total shown equal to the core's sum and logit, position and token chosen).
// The lens state goes into the link and a link opens on it; a lens answers
// in the worker (the page never loads the models' wasm); a head's replay
// opens the playground. Screenshots at 1280 × 720 and 390 × 844, light and
// dark, with axe run on the panel.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModelEngine, openModel } from '../../web/engine/model.js';
import { tokenText } from '../../web/views/format.js';
import { spokenToken } from '../../web/lens/dom.js';
import { percent } from '../../web/views/next-tokens.js';
import { folderRoute, openPage, root, screenshotDir, siteDir, useBrowser } from './browser.mjs';
import { countPageWork, pageWork } from './page-work.mjs';
import { gptFile } from './gpt-file.mjs';

// a wider model than text-gpt, served beside the site: 12 layers × 12 heads, 128 positions
const wide = mkdtempSync(join(tmpdir(), 'model-lens-'));
writeFileSync(join(wide, 'wide.safetensors'), gptFile({ embed: 192, heads: 12, layers: 12, length: 128 }));
const env = useBrowser({ csp: true, route: folderRoute({ '/test-models/': wide }) });
const node = {};
// the site's own models module: the page's worker runs the same one
const wasm = join(siteDir, 'wasm');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

before(async () => {
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  node.model = await openModel(new Blob([readFileSync(join(root, 'web', 'models', 'text-gpt.safetensors'))]), { engine, name: 'text-gpt' });
  node.label = (id) => tokenText(node.model.info.vocabulary[id]);
});

// The Model view on a link, once the lens panel has answered (or said why not).
async function lensPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForSelector('.lens-panel[data-state="ready"], .lens-panel[data-state="idle"], .lens-panel[data-state="error"]', { timeout: 30000 });
  return page;
}
const settled = (page) => page.waitForSelector('.lens-panel:not([data-state="busy"])');
const tokensOf = (page) => page.$eval('.model-view', (v) => v.dataset.tokens.split(',').map(Number));
const hashOf = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(window.location.hash.slice(1))));
const status = (page) => page.textContent('.lens-status');
// the next-token bars of one side of the ablation: [[text, p] …]
const sideBars = (page, side) => page.$$eval(`.lens-ablate-bars [data-side="${side}"] li`, (items) => items.map((li) => [li.querySelector('.next-token-text').textContent, Number(li.dataset.p)]));
const roles = ['previous_token', 'first_token', 'duplicate_token', 'induction'];
const argmax = (head) => roles.filter((k) => head[k] !== null).reduce((a, b) => (head[b] > head[a] ? b : a));

test('head scores: every score and best match is the core’s; a header sorts it, by mouse and keyboard; the induction input is shown', async () => {
  const page = await lensPage('#model=text-gpt&lens=scores');
  assert.equal(await page.getAttribute('.lens-panel', 'data-state'), 'ready', await status(page));
  const core = node.model.lens({ what: 'scores', tokens: await tokensOf(page) });
  const shown = await page.$$eval('.lens-scores-table tbody tr', (rows) => rows.map((tr) => ({
    head: tr.dataset.head,
    values: [...tr.querySelectorAll('.lens-score')].map((td) => [td.dataset.key, td.dataset.value]),
    best: tr.querySelector('.lens-best-role').dataset.role,
  })));
  assert.equal(shown.length, core.heads.length);
  shown.forEach((row, n) => {
    const head = core.heads[n];
    assert.equal(row.head, `${head.layer}.${head.head}`, 'the core’s order before any sort');
    assert.deepEqual(row.values, roles.map((k) => [k, String(head[k])]));
    assert.equal(row.best, argmax(head));
  });
  // the induction column is named apart from the training view's induction score
  assert.match(await page.textContent('.lens-scores-table thead'), /induction \(random repeat\)/);
  assert.deepEqual(await page.$$eval('.lens-induction-tokens .lens-chip', (c) => c.map((x) => Number(x.dataset.id))), core.induction_tokens);
  assert.equal(await page.$$eval('.lens-induction-tokens .lens-chip', (c) => c.length), 2 * Math.min(50, 16));

  // previous-token, clicked: largest first, so the top row is the core's argmax
  await page.click('th[data-key="previous_token"] button');
  const best = core.heads.reduce((a, b) => (b.previous_token > a.previous_token ? b : a));
  assert.equal(await page.getAttribute('.lens-scores-table tbody tr', 'data-head'), `${best.layer}.${best.head}`);
  assert.equal(await page.getAttribute('th[data-key="previous_token"]', 'aria-sort'), 'descending');
  // the keyboard: the focused header again (Enter) turns the order round
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('th[data-key="previous_token"]', 'aria-sort'), 'ascending');
  const worst = core.heads.reduce((a, b) => (b.previous_token < a.previous_token ? b : a));
  assert.equal(await page.getAttribute('.lens-scores-table tbody tr', 'data-head'), `${worst.layer}.${worst.head}`);
  // first-token by Tab and Space from there
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('th[data-key="first_token"]', 'aria-sort'), 'descending');
  const first = core.heads.reduce((a, b) => (b.first_token > a.first_token ? b : a));
  assert.equal(await page.getAttribute('.lens-scores-table tbody tr', 'data-head'), `${first.layer}.${first.head}`);
  // a head's name selects it in the Model view and names it for the replay
  await page.click(`.lens-scores-table tr[data-head="${best.layer}.${best.head}"] .lens-head`);
  assert.deepEqual([(await hashOf(page)).layer ?? '0', (await hashOf(page)).head ?? '0'], [String(best.layer), String(best.head)]);
  assert.match(await page.textContent('.lens-replay'), new RegExp(`layer ${best.layer}, head ${best.head}`));
  // the tabs by keyboard: the arrows move to the next lens, and the link follows
  await page.focus('.lens-tab[aria-selected="true"]');
  await page.keyboard.press('ArrowRight');
  assert.equal((await hashOf(page)).lens, 'ablate');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.lens), 'ablate');
  await page.keyboard.press('End');
  assert.equal((await hashOf(page)).lens, 'attribution');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('ablation: the bars and the loss before and after are the core’s; zero and mean; heads from the grid and the table; in the link', async () => {
  const page = await lensPage('#model=text-gpt&lens=scores');
  const tokens = await tokensOf(page);
  // a row's Ablate button: the head is ablated and the ablation shown
  await page.click('.lens-scores-table tr[data-head="0.2"] .lens-ablate-head');
  await settled(page);
  assert.equal((await hashOf(page)).lens, 'ablate');
  assert.equal((await hashOf(page)).ablate, '0.2');
  const check = async (heads, mode) => {
    await settled(page);
    const core = node.model.lens({ what: 'ablate', tokens, heads, mode });
    const bars = (top) => top.map(([id, p]) => [node.label(id), p]);
    assert.deepEqual(await sideBars(page, 'before'), bars(core.before.top));
    assert.deepEqual(await sideBars(page, 'after'), bars(core.after.top));
    assert.equal(await page.getAttribute('.lens-loss', 'data-before'), String(core.before.loss));
    assert.equal(await page.getAttribute('.lens-loss', 'data-after'), String(core.after.loss));
    assert.ok((await page.textContent('.lens-loss')).includes(core.after.loss.toFixed(4)));
    return core;
  };
  const one = await check([[0, 2]], 'zero');
  // ablating the model's clearest previous-token head changes what it guesses
  assert.notDeepEqual(one.after.top, one.before.top);
  assert.notDeepEqual(await sideBars(page, 'after'), await sideBars(page, 'before'));
  assert.equal(await page.getAttribute('.lens-ablate-toggle[data-head="0.2"]', 'aria-pressed'), 'true');
  // a second head from the grid
  await page.click('.lens-ablate-toggle[data-head="1.1"]');
  assert.equal((await hashOf(page)).ablate, '0.2,1.1');
  await check([[0, 2], [1, 1]], 'zero');
  // mean instead of zeros
  await page.check('.lens-mode input[value="mean"]');
  assert.equal((await hashOf(page)).mode, 'mean');
  const mean = await check([[0, 2], [1, 1]], 'mean');
  const zero = node.model.lens({ what: 'ablate', tokens, heads: [[0, 2], [1, 1]], mode: 'zero' });
  assert.notDeepEqual(mean.after.top, zero.after.top);
  // off again: nothing asked, and one line says what to do
  await page.click('.lens-ablate-toggle[data-head="0.2"]');
  await page.click('.lens-ablate-toggle[data-head="1.1"]');
  await page.waitForSelector('.lens-panel[data-state="idle"]');
  assert.equal((await hashOf(page)).ablate, undefined);
  assert.match(await status(page), /No head is switched off/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a link opens on the lens it names: the heads ablated, mean, restored', async () => {
  const page = await lensPage('#model=text-gpt&lens=ablate&ablate=0.1,1.2&mode=mean');
  assert.equal(await page.getAttribute('.lens-panel', 'data-state'), 'ready', await status(page));
  assert.equal(await page.getAttribute('.lens-tab[data-lens="ablate"]', 'aria-selected'), 'true');
  assert.deepEqual(await page.$$eval('.lens-ablate-toggle[aria-pressed="true"]', (b) => b.map((x) => x.dataset.head)), ['0.1', '1.2']);
  assert.equal(await page.isChecked('.lens-mode input[value="mean"]'), true);
  const core = node.model.lens({ what: 'ablate', tokens: await tokensOf(page), heads: [[0, 1], [1, 2]], mode: 'mean' });
  assert.deepEqual(await sideBars(page, 'after'), core.after.top.map(([id, p]) => [node.label(id), p]));
  // Close: the link loses the lens, and the button to open it again has the focus
  await page.click('.lens-close');
  assert.equal((await hashOf(page)).lens, undefined);
  assert.equal(await page.isVisible('.lens-panel'), false);
  assert.equal(await page.evaluate(() => document.activeElement.className), 'lens-open');
  // a link that names a head past the model, or a bad value, is refused in one line
  const bad = await lensPage('#model=text-gpt&lens=ablate&ablate=0.9');
  assert.equal(await bad.getAttribute('.lens-panel', 'data-state'), 'error');
  assert.match(await status(bad), /\S/);
  assert.equal((await status(bad)).split('\n').length, 1);
  const garbled = await openPage(env.browser, `${env.url}#model=text-gpt&lens=ablate&ablate=x.1`);
  await garbled.waitForSelector('#notice:not([hidden])');
  assert.match(await garbled.textContent('#notice'), /ablate must be heads as layer\.head/);
  for (const p of [page, bad, garbled]) await p.context().close();
});

test('logit lens: each cell is the core’s top token and final-choice probability; a cell opens its top 5', async () => {
  const page = await lensPage('#model=text-gpt&lens=logit-lens');
  assert.equal(await page.getAttribute('.lens-panel', 'data-state'), 'ready', await status(page));
  const core = node.model.lens({ what: 'logit-lens', tokens: await tokensOf(page) });
  const cells = await page.$$eval('.lens-cell', (c) => c.map((x) => [Number(x.dataset.row), Number(x.dataset.position), Number(x.dataset.top), Number(x.dataset.final), x.querySelector('.lens-cell-token').textContent, x.querySelector('.lens-cell-p').textContent]));
  const expected = core.layers.flatMap((row, r) => row.map(({ top, final }, t) => [r, t, top[0][0], final, node.label(top[0][0]), percent(top[0][1])]));
  assert.deepEqual(cells, expected);
  assert.equal(core.layers.length, node.model.config.layers + 1);
  assert.deepEqual(await page.$$eval('.lens-final', (c) => c.map((x) => Number(x.dataset.id))), core.final);
  // the model's own choice, in the last row, has the colour of its own probability
  await page.click('.lens-cell[data-row="1"][data-position="3"]');
  assert.deepEqual(await page.$$eval('.lens-top5 li', (l) => l.map((x) => [Number(x.dataset.id), Number(x.dataset.p)])), core.layers[1][3].top);
  assert.equal(await page.getAttribute('.lens-cell[data-row="1"][data-position="3"]', 'aria-current'), 'true');
  // the keyboard reaches a cell: Enter opens it
  await page.focus('.lens-cell[data-row="0"][data-position="0"]');
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.$$eval('.lens-top5 li', (l) => l.map((x) => Number(x.dataset.id))), core.layers[0][0].top.map(([id]) => id));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('logit lens by keyboard: one tab stop, on the output at the last position; the arrows, Home and End move it, each cell named by its row, position and guess', async () => {
  const page = await lensPage('#model=text-gpt&lens=logit-lens');
  assert.equal(await page.getAttribute('.lens-panel', 'data-state'), 'ready', await status(page));
  const core = node.model.lens({ what: 'logit-lens', tokens: await tokensOf(page) });
  const L = core.layers.length, T = core.tokens.length;
  // one tab stop in the whole grid: the output row's last position, where Generate continues
  const stops = () => page.$$eval('.lens-cell', (c) => c.filter((x) => x.tabIndex === 0).map((x) => [Number(x.dataset.row), Number(x.dataset.position)]));
  assert.deepEqual(await stops(), [[L - 1, T - 1]]);
  const named = (row, t) => {
    const [id, p] = core.layers[row][t].top[0];
    const rowName = row === 0 ? 'embeddings' : `after layer ${row - 1}${row === L - 1 ? ' (the output)' : ''}`;
    return `${rowName}, position ${t} (${spokenToken(node.label(core.tokens[t]))}): top guess ${spokenToken(node.label(id))}, ${percent(p)}`;
  };
  const focused = () => page.evaluate(() => {
    const b = document.activeElement;
    return [Number(b.dataset.row), Number(b.dataset.position), b.getAttribute('aria-label'), b.getAttribute('aria-current')];
  });
  // reached by Tab from the tab that shows it
  await page.focus('.lens-tab[aria-selected="true"]');
  for (let n = 0; n < 8 && !(await page.evaluate(() => document.activeElement.classList.contains('lens-cell'))); n += 1) await page.keyboard.press('Tab');
  assert.deepEqual(await focused(), [L - 1, T - 1, named(L - 1, T - 1), null]);
  // up a row: the focus and the top 5 follow, and it is the one tab stop now
  await page.keyboard.press('ArrowUp');
  assert.deepEqual(await focused(), [L - 2, T - 1, named(L - 2, T - 1), 'true']);
  assert.deepEqual(await page.$$eval('.lens-top5 li', (l) => l.map((x) => Number(x.dataset.id))), core.layers[L - 2][T - 1].top.map(([id]) => id));
  assert.deepEqual(await stops(), [[L - 2, T - 1]]);
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual((await focused()).slice(0, 3), [L - 2, T - 2, named(L - 2, T - 2)]);
  await page.keyboard.press('Home');  // the row's first position
  assert.deepEqual((await focused()).slice(0, 2), [L - 2, 0]);
  await page.keyboard.press('ArrowLeft');  // held at the edge
  assert.deepEqual((await focused()).slice(0, 2), [L - 2, 0]);
  await page.keyboard.press('Control+Home');  // the first cell
  assert.deepEqual((await focused()).slice(0, 3), [0, 0, named(0, 0)]);
  await page.keyboard.press('End');  // the row's last position
  assert.deepEqual((await focused()).slice(0, 2), [0, T - 1]);
  await page.keyboard.press('Control+End');  // the output's last position
  assert.deepEqual((await focused()).slice(0, 2), [L - 1, T - 1]);
  assert.deepEqual(await stops(), [[L - 1, T - 1]]);
  // Cmd/Ctrl with an arrow is the browser's (Back, Forward): the grid leaves it alone
  assert.equal(await page.evaluate(() => {
    const e = new KeyboardEvent('keydown', { key: 'ArrowLeft', ctrlKey: true, bubbles: true, cancelable: true });
    document.activeElement.dispatchEvent(e);
    return e.defaultPrevented;
  }), false);
  assert.deepEqual((await focused()).slice(0, 2), [L - 1, T - 1]);
  // a click moves the tab stop too; one cell is the current one at a time
  await page.click('.lens-cell[data-row="1"][data-position="2"]');
  assert.deepEqual(await stops(), [[1, 2]]);
  assert.equal(await page.getAttribute('.lens-cell[data-row="1"][data-position="2"]', 'aria-label'), named(1, 2));
  assert.deepEqual(await page.$$eval('.lens-cell[aria-current]', (c) => c.map((x) => [x.dataset.row, x.dataset.position])), [['1', '2']]);
  // a new answer (the text typed on) redraws the grid: the focus stays on its cell
  await page.focus('.lens-cell[data-row="1"][data-position="2"]');
  await page.$eval('.model-text-field textarea', (field) => {  // typed elsewhere: the focus stays in the grid
    field.value += '!';
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction((n) => document.querySelectorAll('.lens-grid thead th').length === n, T + 2);
  assert.deepEqual((await focused()).slice(0, 2), [1, 2]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('attribution: the parts are the core’s, the total shown is its sum, equal to the logit; position and token are chosen and kept in the link', async () => {
  const page = await lensPage('#model=text-gpt&lens=attribution');
  assert.equal(await page.getAttribute('.lens-panel', 'data-state'), 'ready', await status(page));
  const tokens = await tokensOf(page);
  const check = async (request) => {
    await settled(page);
    const core = node.model.lens({ what: 'attribution', tokens, ...request });
    assert.deepEqual(await page.$$eval('.lens-waterfall .lens-part', (p) => p.map((x) => [x.dataset.name, Number(x.dataset.value)])), core.parts.map(({ name, value }) => [name, value]));
    assert.equal(Number(await page.getAttribute('.lens-total', 'data-sum')), core.sum);
    assert.equal(Number(await page.getAttribute('.lens-total', 'data-logit')), core.logit);
    assert.ok(Math.abs(core.sum - core.logit) < 1e-3, `${core.sum} vs ${core.logit}`);
    assert.equal(await page.textContent('.lens-total .lens-part-value'), core.sum.toFixed(3));
    // the waterfall's last bar ends where the total's does (the parts laid end to end visibly add up)
    const [last, total] = await page.$$eval('.lens-waterfall .lens-part:last-child .lens-part-bar, .lens-total .lens-part-bar', (bars) => bars.map((b) => b.getBoundingClientRect()));
    const end = core.parts.at(-1).value < 0 ? last.left : last.right;
    assert.ok(Math.abs(end - (core.sum < 0 ? total.left : total.right)) < 1.5, `the last part ends at ${end}, the total at ${total.right}`);
    return core;
  };
  const last = await check({});
  assert.equal(last.position, tokens.length - 1);
  // the heads' parts are named and one replays the strongest
  assert.ok(await page.$('.lens-waterfall [data-name="0.0"] button.lens-part-name'));
  // another position: its own top guesses to choose from
  await page.selectOption('.lens-attribution-controls select >> nth=0', '4');
  assert.equal((await hashOf(page)).at, '4');
  await check({ position: 4 });
  const second = node.model.lens({ what: 'logit-lens', tokens }).layers.at(-1)[4].top[1][0];
  await page.selectOption('.lens-attribution-controls select >> nth=1', String(second));
  assert.equal((await hashOf(page)).token, String(second));
  const chosen = await check({ position: 4, token: second });
  assert.equal(chosen.token, second);
  // the link opens on them
  const again = await lensPage(`#model=text-gpt&lens=attribution&at=4&token=${second}`);
  assert.deepEqual(await again.$$eval('.lens-attribution-controls select', (s) => s.map((x) => x.value)), ['4', String(second)]);
  assert.deepEqual(await again.$$eval('.lens-waterfall .lens-part', (p) => p.map((x) => Number(x.dataset.value))), chosen.parts.map(({ value }) => value));
  assert.deepEqual([...page.problems, ...again.problems], []);
  for (const p of [page, again]) await p.context().close();
});

test('the lenses run in the worker; a head’s replay opens the playground on it', async () => {
  const page = await lensPage('#model=text-gpt&lens=attribution');
  // the lens answered, and the page itself never loaded the models' module: the worker did (its fetches are its own)
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => /attention-model/.test(name)));
  assert.deepEqual(loaded, []);
  assert.ok(await page.$('.lens-waterfall .lens-part'));
  const head = await page.getAttribute('.lens-replay', 'data-head');
  const layer = await page.getAttribute('.lens-replay', 'data-layer');
  await page.click('.lens-replay');
  await page.waitForSelector('.stage', { timeout: 60000 });
  const hash = await hashOf(page);
  assert.equal(hash.model, undefined);
  assert.equal(hash.lens, undefined);
  assert.equal(hash.file, '1');
  assert.ok(layer !== null && head !== null);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('12 layers × 12 heads on 120 tokens: each click asks the worker once for its lens, the page’s thread makes no wasm call, and the answer is drawn once', async () => {
  // Counted, not timed (how long the page's tasks take is `make bench`'s,
  // tests/bench/bench_page.mjs): the work is the worker's if the page only
  // posts the request and never runs wasm itself.
  const text = 'the cat sat on the mat. '.repeat(5);
  const page = await openPage(env.browser, null);
  await countPageWork(page.context());
  await page.goto(`${env.url}#model=test-models/wide.safetensors&text=${encodeURIComponent(text)}&lens=scores`);
  await page.waitForSelector('.lens-panel[data-lens="scores"][data-state="ready"]', { timeout: 120000 });
  assert.equal(await page.$$eval('.lens-scores-table tbody tr', (r) => r.length), 144);
  const draws = () => page.evaluate(() => performance.getEntriesByName('lens-draw').length);
  // each lens asked for by a click (the model itself is not run again)
  for (const [name, click] of [['ablate', '.lens-ablate-toggle[data-head="5.7"]'], ['logit-lens', '.lens-tab[data-lens="logit-lens"]'], ['attribution', '.lens-tab[data-lens="attribution"]']]) {
    if (name === 'ablate') await page.click('.lens-tab[data-lens="ablate"]');
    const [before, drawn] = [await pageWork(page), await draws()];
    await page.click(click);
    await page.waitForSelector(`.lens-panel[data-lens="${name}"][data-state="ready"]`, { timeout: 120000 });
    const after = await pageWork(page);
    assert.deepEqual(after.posted.slice(before.posted.length).map(({ worker, type, what }) => [worker, type, what]), [['model-worker.js', 'lens', name]], `${name}: one request to the model's worker`);
    assert.equal(after.wasmCalls - before.wasmCalls, 0, `${name}: wasm calls on the page's thread`);
    assert.equal(after.modules, before.modules, `${name}: a wasm module instantiated on the page`);
    assert.equal(await draws(), drawn + 1, `${name}: the answer drawn once`);
  }
  // the models' module is the worker's alone: the page never fetched it
  assert.deepEqual(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /attention-model/.test(n))), []);
  assert.equal(await page.$$eval('.lens-cell', (c) => c.length), 13 * 120);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('screenshots: each lens at 1280 × 720 and 390 × 844, light and dark; axe finds nothing in the panel', async () => {
  const views = [['scores', 'lens=scores'], ['ablate', 'lens=ablate&ablate=0.1,1.2'], ['logit-lens', 'lens=logit-lens'], ['attribution', 'lens=attribution']];
  for (const [width, height] of [[1280, 720], [390, 844]]) {
    for (const colorScheme of ['light', 'dark']) {
      const page = await lensPage(`#model=text-gpt&${views[0][1]}`, { viewport: { width, height }, colorScheme, bypassCSP: true });
      for (const [name, hash] of views) {
        await page.evaluate((h) => { window.location.hash = `model=text-gpt&${h}`; }, hash);
        await page.waitForSelector(`.lens-panel[data-lens="${name}"][data-state="ready"]`, { timeout: 30000 });
        if (name === 'logit-lens') await page.click('.lens-cell[data-row="2"][data-position="5"]');
        await page.locator('.lens-section').screenshot({ path: join(screenshotDir, `model-lens-${name}-${width}-${colorScheme}.png`) });
        await page.addScriptTag({ content: axeSource });
        const found = await page.evaluate(() => window.axe.run('.lens-section', { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
        assert.deepEqual(found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], `${name} ${width} ${colorScheme}`);
      }
      // nothing wider than the page at 390
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${width} ${colorScheme}: the page scrolls sideways`);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  }
});

// A learner's review: the lenses are found from "Start here" and "Try:", and
// opening them puts the focus on the tab; at 390 px the Head column stays
// while the table scrolls, the tabs fit one row; the logit lens's legend says
// what colour and number mean; attribution's colours and its logit mark are shown.
test('the lenses are found from "Start here" and "Try:", and opening them focuses the tab', async () => {
  const page = await openPage(env.browser, `${env.url}#model=text-gpt`);
  await page.waitForSelector('.start-here:not([hidden]) .lens-line-open', { timeout: 30000 });
  await page.click('.start-here .lens-line-open');
  await page.waitForSelector('.lens-panel[data-state="ready"]', { timeout: 30000 });
  assert.equal((await hashOf(page)).lens, 'scores');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.lens), 'scores', 'the focus is on the selected tab');
  const top = await page.$eval('.lens-section', (s) => s.getBoundingClientRect().top);
  assert.ok(top >= -1 && top < 720, `the panel is scrolled into view (top ${top})`);
  // closed, then opened again by Enter on the button at the foot: the focus goes to the tab, not <body>
  await page.click('.lens-close');
  await page.focus('.lens-open');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.classList.contains('lens-tab'));
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-selected')), 'true');
  // another model's "Try:" has the same line
  const other = await openPage(env.browser, `${env.url}#model=test-models/wide.safetensors&text=the%20cat`);
  await other.waitForSelector('.model-try:not([hidden]) .lens-line-open', { timeout: 120000 });
  await other.click('.model-try .lens-line-open');
  await other.waitForSelector('.lens-panel[data-lens="scores"]:not([hidden])', { timeout: 120000 });
  assert.equal(await other.evaluate(() => document.activeElement.dataset.lens), 'scores');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(other.problems, []);
  for (const p of [page, other]) await p.context().close();
});

test('at 390 px: the Head column stays while the table scrolls, ablate buttons name their head, the tabs fit one row; the legends say what they mean', async () => {
  const page = await lensPage('#model=text-gpt&lens=scores', { viewport: { width: 390, height: 844 } });
  const button = page.locator('.lens-scores-table tr[data-head="0.2"] .lens-ablate-head');
  assert.equal(await button.textContent(), 'Ablate 0.2');
  assert.equal(await button.getAttribute('aria-label'), 'Ablate 0.2 (layer 0, head 2)', 'its name begins with its text');
  const stays = await page.$eval('.lens-scores-table', (table) => {
    const scroll = table.parentElement;
    scroll.scrollLeft = 300;
    const head = table.querySelector('tbody th[scope="row"]');
    return { scrolled: scroll.scrollLeft, left: head.getBoundingClientRect().left - scroll.getBoundingClientRect().left };
  });
  assert.ok(stays.scrolled > 100, 'the table is wider than the screen');
  assert.ok(Math.abs(stays.left) < 1, `the Head column stays at the left edge (${stays.left})`);
  // the tab strip: one row, and the close button short with its full name
  const tops = await page.$$eval('.lens-tab', (tabs) => tabs.map((t) => t.getBoundingClientRect().top));
  assert.equal(new Set(tops).size, 1, `the tabs on one row: ${tops}`);
  assert.ok(await page.$eval('.lens-tabs', (strip) => strip.scrollWidth <= strip.clientWidth), 'the four tabs fit the strip at 390 px');
  const [title, close] = await page.$$eval('.lens-top h3, .lens-close', (e) => e.map((x) => x.getBoundingClientRect().top));
  assert.ok(Math.abs(title - close) < 12, 'Close beside the title, not on a line of its own');
  assert.equal(await page.textContent('.lens-close'), 'Close');
  assert.equal(await page.getAttribute('.lens-close', 'aria-label'), 'Close the lenses');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  // the logit lens: what colour and number mean; the last row is the output
  await page.click('.lens-tab[data-lens="logit-lens"]');
  await page.waitForSelector('.lens-panel[data-lens="logit-lens"][data-state="ready"]', { timeout: 30000 });
  assert.match(await page.textContent('.lens-logit-lens .lens-legend'), /Colour: how likely the final choice \(bottom row\) already is\. Number: this guess’s own probability\./);
  const rows = await page.$$eval('.lens-grid tbody th[scope="row"]', (ths) => ths.map((th) => th.textContent));
  assert.match(rows.at(-1), /^after layer \d+ \(the output\)$/);
  assert.ok(rows.slice(0, -1).every((r) => !r.includes('output')));
  // attribution: a key for red and blue, and the logit's mark stands out of the total bar
  await page.click('.lens-tab[data-lens="attribution"]');
  await page.waitForSelector('.lens-panel[data-lens="attribution"][data-state="ready"]', { timeout: 30000 });
  assert.match(await page.textContent('.lens-attribution-legend'), /red raises the logit, blue lowers it/);
  const mark = await page.$eval('.lens-logit-mark', (m) => {
    const r = m.getBoundingClientRect();
    const bar = m.parentElement.querySelector('.lens-part-bar').getBoundingClientRect();
    return { width: r.width, height: r.height, bar: bar.height };
  });
  assert.ok(mark.width >= 3 && mark.height > mark.bar + 6, `the logit's mark is visible beyond the bar: ${JSON.stringify(mark)}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('ablation compares: each guess after has its change against before (or "new"), the loss says which way; heads named; the other lenses say every head is on', async () => {
  const page = await lensPage('#model=text-gpt&lens=ablate&ablate=0.2');
  assert.equal(await page.getAttribute('.lens-panel', 'data-state'), 'ready', await status(page));
  const core = node.model.lens({ what: 'ablate', tokens: await tokensOf(page), heads: [[0, 2]], mode: 'zero' });
  const before = new Map(core.before.top);
  const shown = await page.$$eval('.lens-ablate-bars [data-side="after"] li', (items) => items.map((li) => [li.dataset.delta, li.querySelector('.lens-delta').textContent]));
  assert.equal(shown.length, core.after.top.length);
  core.after.top.forEach(([id, p], n) => {
    if (!before.has(id)) return assert.deepEqual(shown[n], ['new', 'new']);
    const d = (p - before.get(id)) * 100;
    assert.ok(Math.abs(Number(shown[n][0]) - d) < 1e-9);
    assert.equal(shown[n][1], `${d < 0 ? '−' : '+'}${Math.abs(d).toFixed(1)} pp`);
  });
  const barely = Math.abs(core.after.loss - core.before.loss) < 0.005 * core.before.loss;
  assert.match(await page.textContent('.lens-loss'), barely ? /The loss barely moved/ : core.after.loss < core.before.loss ? /The loss fell: with them on, these heads were hurting/ : /The loss rose: these heads were helping/);
  assert.match(await page.textContent('.lens-ablate-grid-title'), /“0\.2” is layer 0, head 2/);
  // each lens says what you see and what to do, and glosses its jargon on first use
  const about = async (id) => {
    await page.click(`.lens-tab[data-lens="${id}"]`);
    await page.waitForSelector(`.lens-panel[data-lens="${id}"]:not([data-state="busy"])`, { timeout: 30000 });
    return page.textContent('.lens-about');
  };
  assert.match(await about('ablate'), /^What you see: .* the heads you ablate switched off \(after\)\. .* percentage points \(pp\)\. .* What to do: /);
  assert.match(await about('scores'), /^What you see: .* What to do: /);
  assert.equal(await page.isVisible('.lens-all-on'), false, 'head scores: no note');
  const logit = await about('logit-lens');
  assert.match(logit, /^What you see: .*residual stream \(the running sum.*unembedding \(the matrix.* What to do: /);
  // heads are off in the Ablate tab: the logit lens and attribution say they show every head on
  assert.equal(await page.isVisible('.lens-all-on'), true);
  assert.match(await page.textContent('.lens-all-on'), /Every head is on here; switching heads off applies to the Ablate tab/);
  assert.match(await about('attribution'), /^What you see: .*logit \(its score before softmax.*MLP \(the feed-forward.* What to do: /);
  assert.equal(await page.isVisible('.lens-all-on'), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the replay is under the lens and says why that head; attribution names the largest head part again for each position', async () => {
  const page = await lensPage('#model=text-gpt&lens=attribution');
  assert.equal(await page.getAttribute('.lens-panel', 'data-state'), 'ready', await status(page));
  assert.ok(await page.$eval('.lens-replay', (b) => Boolean(document.querySelector('.lens-attribution').compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING)), 'the replay follows the lens');
  const tokens = await tokensOf(page);
  const strongest = (json) => json.parts.filter((p) => /^\d+\.\d+$/.test(p.name)).reduce((a, b) => (Math.abs(b.value) > Math.abs(a.value) ? b : a)).name;
  const check = async (at) => {
    await settled(page);
    const core = node.model.lens({ what: 'attribution', tokens, position: at });
    const name = strongest(core);
    assert.match(await page.textContent('.lens-replay'), new RegExp(`^Replay layer ${name.split('.')[0]}, head ${name.split('.')[1]} \\(the head that moves this logit most, up or down\\)`));
  };
  await check(tokens.length - 1);
  // a head the learner names: no reason given; another position: its own strongest head again
  await page.click('.lens-waterfall [data-name="1.3"] button.lens-part-name');
  assert.match(await page.textContent('.lens-replay'), /^Replay layer 1, head 3 step by step/);
  for (const at of [1, 3]) {
    await page.selectOption('.lens-attribution-controls select >> nth=0', String(at));
    await check(at);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
