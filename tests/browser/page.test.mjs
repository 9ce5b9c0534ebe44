// The playground page in headless Chromium (playwright-core + Debian's
// chromium): what a learner sees and does. Screenshots go to tests/screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { contrast, openPage, ready, root, shot, siteDir, useBrowser } from './browser.mjs';

const env = useBrowser();

const presets = JSON.parse(readFileSync(join(siteDir, 'scenarios', 'index.json'), 'utf8'));
const golden = (id) => JSON.parse(readFileSync(join(root, 'tests', 'golden', `${id}.trace.json`), 'utf8'));

// The detail heading reads "weights [2, 1] = 0.0493"
async function focusedValue(page) {
  const heading = await page.textContent('#detail h3');
  const text = heading.split('=').pop().trim().replace('−', '-');
  return text === '-∞' ? -Infinity : Number(text);
}

async function heatmap(page, name) {
  const index = await page.$$eval('.heatmap .matrix-name', (names, wanted) => names.findIndex((n) => n.textContent.startsWith(wanted)), name);
  assert.ok(index >= 0, `no matrix ${name} on the page`);
  return (await page.$$('.heatmap canvas'))[index];
}

test('the page loads, draws its first trace and logs no error', async () => {
  const page = await openPage(env.browser, env.url);
  assert.equal(await ready(page), 'ready');
  assert.ok((await page.$$('.heatmap canvas')).length >= 1);
  assert.match(await page.textContent('#provenance'), /The Clear Tutorial for Attention Mechanism/);
  await shot(page, 'page-first-load');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('every preset loads and shows its first numbers', async () => {
  const page = await openPage(env.browser, `${env.url}#step=x`);
  await ready(page);
  assert.equal(presets.length, await page.$$eval('#preset option', (o) => o.length));
  for (const preset of presets) {
    await page.selectOption('#preset', preset.id);
    await page.waitForFunction((id) => document.querySelector('#app').dataset.state === 'ready'
      && decodeURIComponent(location.hash).includes(id) || id === 'sun-rises-causal', preset.id);
    await page.waitForFunction((title) => document.querySelector('#title').textContent === title, preset.title);
    // x at [0, 0] of batch element 0, as the core computed it
    const canvas = await heatmap(page, 'x');
    await canvas.focus();
    const shown = await focusedValue(page);
    const g = golden(preset.id);
    const xName = JSON.parse(readFileSync(join(root, 'web', 'scenarios', `${preset.id}.json`), 'utf8')).attention.x;
    assert.ok(Math.abs(shown - g.tensors[xName].data[0]) < 6e-5, `${preset.id}: showed ${shown}`);
    assert.equal(await page.getAttribute('#app', 'data-state'), 'ready', preset.id);
  }
  await shot(page, 'page-last-preset');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the displayed weights of karpathy-affinities equal the PyTorch trace', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=karpathy-affinities&step=weights&batch=2`);
  await ready(page);
  const canvas = await heatmap(page, 'weights');
  await canvas.focus();
  const expected = golden('karpathy-affinities').heads[0].weights.data.slice(2 * 64, 3 * 64);
  for (let row = 0; row < 8; row++) {
    for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowLeft');  // back to column 0
    for (let col = 0; col < 8; col++) {
      const shown = await focusedValue(page);
      assert.ok(Math.abs(shown - expected[row * 8 + col]) <= 5.1e-5, `weights[${row}, ${col}]: ${shown} vs ${expected[row * 8 + col]}`);
      await page.keyboard.press('ArrowRight');
    }
    await page.keyboard.press('ArrowDown');
  }
  await shot(page, 'page-karpathy-weights');
  await page.context().close();
});

test('stepping forward and back changes the step shown', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=x`);
  await ready(page);
  const title = () => page.textContent('#step-title');
  assert.match(await title(), /^x:/);
  await page.click('#forward');
  assert.match(await title(), /^q, k, v:/);
  await page.keyboard.press('ArrowRight');
  assert.match(await title(), /^scores:/);
  assert.match(page.url(), /step=scores/);
  await page.click('#back');
  assert.match(await title(), /^q, k, v:/);
  await page.click('#last');
  assert.match(await title(), /^out:/);
  assert.equal(await page.$eval('#forward', (b) => b.disabled), true);
  await page.click('.step-button[data-step="masked"]');
  assert.equal(await title(), 'masked: no talking to the future');
  await page.waitForTimeout(2200);  // let the −∞ cells appear
  await shot(page, 'page-step-masked');
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
  await page.waitForFunction(() => document.querySelector('#step-title').textContent.startsWith('weights'), null, { timeout: 30000 });
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('typing a sentence changes the tokens, rendered as text', async () => {
  const page = await openPage(env.browser, env.url);
  await ready(page);
  // the input's kind is in the settings drawer, folded by default
  assert.equal(await page.isVisible('#mode-sentence'), false);
  await page.click('#settings-toggle');
  assert.equal(await page.getAttribute('#settings-toggle', 'aria-expanded'), 'true');
  await page.check('#mode-sentence');
  await page.waitForFunction(() => document.querySelector('#tokens').textContent.includes('sun'));
  await page.fill('#sentence', 'the cat <b>sat</b> on the mat');
  await page.waitForFunction(() => document.querySelectorAll('#tokens li').length === 6
    && document.querySelector('#tokens').textContent.includes('mat'));
  const tokens = await page.$$eval('#tokens .token-text', (items) => items.map((i) => i.textContent));
  assert.deepEqual(tokens, ['the', 'cat', '<b>sat</b>', 'on', 'the', 'mat']);
  assert.equal(await page.$$eval('#tokens b', (b) => b.length), 0);  // never parsed as HTML
  assert.equal(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('sentence'), 'the cat <b>sat</b> on the mat');
  await page.fill('#heads', '3');
  await page.waitForFunction(() => document.querySelectorAll('#head option').length === 3);
  await shot(page, 'page-sentence');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a custom mask with a blocked row shows the core\'s error, and keeps the mask', async () => {
  const page = await openPage(env.browser, null);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto(`${env.url}#preset=sun-rises-causal&step=weights`);
  await ready(page);
  // the editor's module waits until a custom mask is asked for: a first visit does not carry it
  assert.equal(fetched.filter((p) => p.endsWith('mask-editor.js')).length, 0);
  await page.check('#mask-custom');
  await page.waitForSelector('.mask-cell');
  assert.equal(fetched.filter((p) => p.endsWith('mask-editor.js')).length, 1);
  // row 0 of the causal mask allows only position 0: hide it
  await page.click('.mask-cell[data-row="0"][data-col="0"]');
  await page.waitForSelector('#app[data-state="error"]');
  assert.equal(await page.textContent('#status'), 'attention.mask: row 0 allows no position');
  assert.equal(await page.isVisible('#status'), true);
  assert.equal(await page.getAttribute('.mask-cell[data-row="0"][data-col="0"]', 'aria-pressed'), 'false');
  await shot(page, 'page-mask-error');
  // fixing it recomputes and clears the error
  await page.click('.mask-cell[data-row="0"][data-col="3"]');
  await page.waitForSelector('#app[data-state="ready"]');
  assert.equal(await page.isVisible('#status'), false);
  assert.match(page.url(), /mask=000100\.110000\.111000\.111100\.111110\.111111/);
  await page.context().close();
});

test('a URL round-trip restores the exact view, and Back and Forward work', async () => {
  const page = await openPage(env.browser, env.url);
  await ready(page);
  await page.selectOption('#preset', 'bank-projected');
  await page.waitForFunction(() => location.hash.includes('bank-projected'));
  await page.selectOption('#batch', '1');
  await page.click('.step-button[data-step="weights"]');
  await page.check('#mask-causal');
  await page.waitForFunction(() => location.hash.includes('mask=causal'));
  const link = page.url();

  const copy = await openPage(env.browser, link);
  await ready(copy);
  assert.equal(await copy.$eval('#preset', (s) => s.value), 'bank-projected');
  assert.equal(await copy.$eval('#batch', (s) => s.value), '1');
  assert.equal(await copy.$eval('#mask-causal', (r) => r.checked), true);
  assert.match(await copy.textContent('#step-title'), /^weights:/);
  assert.match(await copy.textContent('#tokens'), /money/);
  await copy.context().close();

  await page.goBack();
  await page.waitForFunction(() => !location.hash.includes('mask=causal'));
  assert.equal(await page.$eval('#mask-none', (r) => r.checked), true);
  await page.goForward();
  await page.waitForFunction(() => location.hash.includes('mask=causal'));
  assert.equal(await page.$eval('#mask-causal', (r) => r.checked), true);
  await page.context().close();
});

test('bad values in the URL are reported and replaced, never trusted', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=karpathy-value&seed=abc&step=nowhere&batch=9&head=0`);
  assert.equal(await ready(page), 'ready');
  const notice = await page.textContent('#notice');
  assert.match(notice, /step must be one of x, qkv.*; kept weights/);
  assert.match(notice, /batch 9 is beyond this scenario's 4/);
  assert.match(await page.textContent('#step-title'), /^weights:/);
  const missing = await openPage(env.browser, `${env.url}#preset=no-such-preset`);
  assert.equal(await ready(missing), 'error');
  assert.match(await missing.textContent('#status'), /scenario: no preset "no-such-preset"; the presets are bank-module, /);
  assert.deepEqual(missing.failed, [], 'found out from the index, with no request that 404s');
  await page.context().close();
  await missing.context().close();
});

test('hovering a score explains it with the q·k terms', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises&step=scores`);
  await ready(page);
  const canvas = await heatmap(page, 'scores');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width - 10, box.y + box.height - 10);  // the last cell
  await page.waitForFunction(() => document.querySelector('#detail h3')?.textContent.startsWith('scores'));
  assert.match(await page.textContent('#detail h3'), /^scores \[5, 5\]/);
  assert.match(await page.textContent('#detail'), /q\[5\] · k\[5\]/);
  assert.match(await page.textContent('#detail'), /Σ q\[5\] × k\[5\] = /);
  // where the cell sits, its row's token and its column's apart
  assert.equal(await page.textContent('#detail .where'), 'row “east” · column “east”');
  await shot(page, 'page-hover-score');
  await page.context().close();
});

test('reduced motion shows each step whole at once', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal`, { reducedMotion: 'reduce' });
  await ready(page);
  await page.click('.step-button[data-step="weights"]');
  const canvas = await heatmap(page, 'weights');
  await canvas.focus();
  await page.keyboard.press('ArrowDown');
  assert.ok(Math.abs((await focusedValue(page)) - 0.0532) < 6e-5);
  await page.context().close();
});

test('axe-core finds no WCAG A or AA violation, light and dark, with all heads and both graph layouts', async () => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const hashes = ['', '#sentence=The%20sun%20rises&step=weights&mask=custom', '#preset=bank-raw&step=masked&mask=101.111.011',
    '#preset=sun-rises-multihead&step=out&graph=columns', '#train=induction'];
  for (const [hash, colorScheme] of hashes.flatMap((h) => [[h, 'light'], [h, 'dark']])) {
    const page = await openPage(env.browser, env.url + hash.replace('mask=custom', 'mask=100.110.111'), { colorScheme, bypassCSP: true });  // for axe's script: the page's <meta> policy refuses an inline one
    await ready(page);
    if (hash.startsWith('#train')) await page.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready');
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
    const violations = result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    assert.deepEqual(violations, [], `on ${hash || 'the default view'}, ${colorScheme}`);
    await page.context().close();
  }
});

// The player's keys: tests/browser/keys.test.mjs.

test('the custom mask editor: names that contain what they show, a landmark, focus kept on toggle', async () => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  for (const colorScheme of ['light', 'dark']) {
    const page = await openPage(env.browser, `${env.url}#preset=bank-raw&step=masked&mask=101.111.011`, { colorScheme, bypassCSP: true });  // for axe's script
    assert.equal(await ready(page), 'ready');
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(() => window.axe.run(document, {
      runOnly: { type: 'rule', values: ['label-content-name-mismatch', 'region', 'color-contrast', 'button-name'] } }));
    assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.length}`), [], colorScheme);
    // toggling a cell recomputes and rebuilds the editor; focus stays on that cell
    await page.click('.mask-cell[data-row="0"][data-col="1"]');
    await page.waitForFunction(() => location.hash.includes('mask=111.111.011'));
    await ready(page);
    await page.waitForFunction(() => document.activeElement?.matches('.mask-cell[data-row="0"][data-col="1"]'));
    await page.context().close();
  }
});

test('the custom mask editor is one tab stop, arrow keys inside; its columns evenly spaced', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=masked&mask=100000.110000.111000.111100.111110.111111`);
  assert.equal(await ready(page), 'ready');
  assert.deepEqual(await page.$$eval('.mask-cell', (b) => b.filter((x) => x.tabIndex === 0).length), 1);
  await page.focus('.mask-cell[tabindex="0"]');
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'End', 'ArrowUp']) await page.keyboard.press(key);
  assert.equal(await page.evaluate(() => `${document.activeElement.dataset.row}.${document.activeElement.dataset.col}`), '0.5');
  assert.deepEqual(await page.$$eval('.mask-cell', (b) => b.filter((x) => x.tabIndex === 0).map((x) => `${x.dataset.row}.${x.dataset.col}`)), ['0.5']);
  assert.match(await page.textContent('#step-title'), /^masked/, 'the arrows stay in the grid, not the player');
  // Tab leaves the grid at once: the next stop is past it
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('.mask-editor')), null);
  // Space toggles the cell and the focus comes back to it
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => location.hash.includes('mask=100001.'));
  await page.waitForFunction(() => document.activeElement?.matches('.mask-cell[data-row="0"][data-col="5"]'));
  const lefts = await page.$$eval('.mask-editor tbody tr:first-child .mask-cell', (b) => b.map((x) => Math.round(x.getBoundingClientRect().left)));
  const steps = lefts.slice(1).map((x, i) => x - lefts[i]);
  assert.ok(Math.max(...steps) - Math.min(...steps) <= 1, `columns at ${lefts}`);
  await page.context().close();
});

test('on a phone the sticky player never hides what a scroll or a focus brings into view', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=masked`, { viewport: { width: 390, height: 844 } });
  assert.equal(await ready(page), 'ready');
  for (const [selector, how] of [['#graph-heading', 'scroll'], ['.stage figure[data-matrix="masked"] canvas', 'focus'], ['figure[data-view="graph"] canvas', 'focus']]) {
    const { top, player } = await page.evaluate(async ([sel, way]) => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      await new Promise((r) => setTimeout(r, 50));
      const target = document.querySelector(sel);
      if (way === 'scroll') target.scrollIntoView();
      else target.focus();
      await new Promise((r) => setTimeout(r, 100));
      return { top: target.getBoundingClientRect().top, player: document.querySelector('.player').getBoundingClientRect().bottom };
    }, [selector, how]);
    assert.ok(top >= player, `${selector} (${how}) at ${Math.round(top)}, under the player's bottom ${Math.round(player)}`);
  }
  // the preset select fits its bar
  const { select, bar } = await page.evaluate(() => ({
    select: document.getElementById('preset').getBoundingClientRect().right, bar: document.querySelector('.settings-bar').getBoundingClientRect().right }));
  assert.ok(select <= bar, `the preset select ends at ${select}, its bar at ${bar}`);
  await page.context().close();
});

test('the focus ring has at least 3:1 contrast against the page, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await openPage(env.browser, env.url, { colorScheme });
    assert.equal(await ready(page), 'ready');
    await page.focus('#play');
    await page.keyboard.press('Tab');
    const [ring, background] = await page.evaluate(() =>
      [getComputedStyle(document.activeElement).outlineColor, getComputedStyle(document.body).backgroundColor]);
    const ratio = contrast(ring, background);
    assert.ok(ratio >= 3, `${colorScheme}: ${ratio.toFixed(2)}:1`);
    await page.context().close();
  }
});

test('the temperature slider spans what a link accepts, 0.05 to 20, with 1 in the middle', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=bank-raw&temperature=20`);
  assert.equal(await ready(page), 'ready');
  assert.equal(await page.inputValue('#temperature'), '1000');
  assert.equal(await page.textContent('#temperature-value'), '20.00');
  await page.evaluate(() => { location.hash = '#preset=bank-raw&temperature=0.05'; });
  await page.waitForFunction(() => document.getElementById('temperature').value === '0');
  await page.$eval('#temperature', (input) => { input.value = '500'; input.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction(() => /temperature=1(&|$)/.test(location.hash));
  assert.equal(await page.textContent('#temperature-value'), '1.00');
  await page.context().close();
});

test('an invalid number says what it takes; the Playground link keeps the learner\'s sentence', async () => {
  const page = await openPage(env.browser, `${env.url}#sentence=I%20like%20tea`);
  assert.equal(await ready(page), 'ready');
  assert.equal(await page.isVisible('#sentence'), true);  // the sentence is in the bar; its sizes in the drawer
  await page.click('#settings-toggle');
  await page.fill('#embed', '500');
  assert.equal(await page.textContent('#embed-error'), 'a whole number from 1 to 64');
  assert.equal(await page.isVisible('#embed-error'), true);
  await page.fill('#embed', '4');
  assert.equal(await page.isVisible('#embed-error'), false);
  await page.click('#lessons-nav a[href="#lesson=qkv"]');
  await page.waitForFunction(() => document.getElementById('app').dataset.view === 'lesson');
  await page.click('#lessons-nav a >> text=Playground');
  await page.waitForFunction(() => document.getElementById('app').dataset.view === 'playground');
  assert.equal(await ready(page), 'ready');
  assert.match(page.url(), /sentence=I(%20|\+)like(%20|\+)tea/);
  assert.match(page.url(), /embed=4/);
  await page.context().close();
});

test('public hooks: data-matrix on every heatmap, data-view on the graph', async () => {
  const expected = {
    x: ['x'], qkv: ['x', 'q', 'k', 'v', 'W_query', 'W_key', 'W_value'], scores: ['q', 'k', 'scores'], scaled: ['scores', 'scaled'],
    masked: ['mask', 'masked'], weights: ['masked', 'weights'], out: ['weights-row', 'v', 'products', 'out', 'layer-out'],
  };
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-multihead`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  for (const [step, names] of Object.entries(expected)) {
    await page.click(`.step-button[data-step="${step}"]`);
    await page.waitForFunction((s) => document.querySelector('.step-button.current')?.dataset.step === s, step);
    assert.deepEqual(await page.$$eval('.stage figure.heatmap', (f) => f.map((x) => x.dataset.matrix)), names, step);
  }
  assert.equal(await page.$$eval('figure[data-view="graph"]', (f) => f.length), 1);
  assert.ok(await page.getAttribute('figure[data-view="graph"]', 'data-edges'));
  await page.context().close();
});

test('step lines say what this scenario does: its sizes, x\'s source, x or the context', async () => {
  const page = await openPage(env.browser, `${env.url}#sentence=The%20sun%20rises%20in%20the%20east&step=x`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  assert.match(await page.textContent('#pytorch-line'), /^x = nn\.Embedding\(50000, 3\)\(idx\)/);
  await page.click('.step-button[data-step="qkv"]');
  assert.equal(await page.textContent('#formula'), 'q = x · W_query    k = x · W_key    v = x · W_value');
  assert.ok((await page.$$eval('.matrix-name', (n) => n.map((x) => x.textContent))).includes('k = x · W_key'));
  await page.click('.step-button[data-step="scores"]');
  assert.match(await page.textContent('#pytorch-line'), /# \(1, 6, 2\) @ \(1, 2, 6\) = \(1, 6, 6\)$/);
  await page.evaluate(() => { location.hash = '#preset=karpathy-value&step=x'; });
  await page.waitForFunction(() => document.getElementById('pytorch-line').textContent === 'x = torch.randn(4, 8, 32)');
  assert.equal(await page.$eval('.matrix-name', (n) => n.textContent), 'x');
  await page.evaluate(() => { location.hash = '#preset=sun-rises-cross&step=qkv'; });
  await page.waitForFunction(() => document.getElementById('formula').textContent.includes('k = context · W_key'));
  await page.context().close();
});

test('an encoder\'s masked and weights steps say that nothing is hidden, not that the future is', async () => {
  // sun-rises has no mask (an encoder, as a BERT head opened from the Model view): the causal words were wrong there
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises&step=masked`);
  await ready(page);
  await page.waitForFunction(() => document.getElementById('step-title').textContent.startsWith('masked'));
  assert.equal(await page.textContent('#step-title'), 'masked: nothing hidden, every token sees every token');
  assert.match(await page.textContent('#step-text'), /^This scenario has no mask \(an encoder, as BERT\)/);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('step-title').textContent.startsWith('weights'));
  assert.doesNotMatch(await page.textContent('#step-text'), /−∞/);
  await shot(page, 'page-step-masked-encoder');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
