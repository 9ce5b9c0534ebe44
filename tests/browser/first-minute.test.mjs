// The playground's first minute (issue 28): a bare link opens on attention
// (the weights, one query in focus, a sentence saying where to look), the
// learner's own sentence is on the first screen, the words of the first
// screen explain themselves on hover and focus, and every change of view
// lands at the new view's top or at the control the action was about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { openPage, ready, shot, useBrowser } from './browser.mjs';

const env = useBrowser();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const viewports = [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }];

test('a bare link opens on the weights with their numbers, one query in focus in the graph and its row, and a sentence that says where to look', async () => {
  for (const viewport of viewports) {
    const at = `${viewport.width} × ${viewport.height}`;
    const page = await openPage(env.browser, env.url, { viewport });
    assert.equal(await ready(page), 'ready');
    const seen = await page.evaluate(() => {
      const graph = document.querySelector('figure[data-view="graph"]');
      return {
        step: document.querySelector('.step-button.current').dataset.step,
        matrices: [...document.querySelectorAll('.stage figure.heatmap')].map((f) => f.dataset.matrix),
        numbers: document.querySelector('.stage figure[data-matrix="weights"]').dataset.numbers ?? null,
        mode: graph.dataset.edgeMode,
        node: graph.dataset.focusNode,
        prompt: document.getElementById('prompt').textContent,
        detail: document.getElementById('detail').textContent,
        hash: location.hash,
      };
    });
    assert.equal(seen.step, 'weights', at);
    assert.ok(seen.numbers && seen.numbers !== '0', `${at}: the weights print their numbers (${seen.numbers} decimals)`);
    assert.deepEqual(seen.matrices.toSorted(), ['masked', 'weights'], `${at}: the weights beside the masked scores`);
    assert.equal(seen.mode, 'one', `${at}: the graph shows one query's edges`);
    assert.equal(seen.node, '0:2', `${at}: the query in focus is ‘rises’`);
    assert.equal(seen.prompt, 'Row ‘rises’ is a query: how much ‘rises’ listens to each word up to itself, its weights summing to 1. ← shows how they were computed, Home goes back to the inputs.', at);
    assert.match(seen.detail, /rises/, `${at}: the detail panel tells the query's row`);
    assert.equal(seen.hash, '', `${at}: opening writes no link`);
    // on the first screen: the sentence and the weights, whole beside the graph where they sit side by side;
    // on a phone the weights start there (the graph follows the matrices)
    const edges = await page.evaluate(() => Object.fromEntries(['#prompt', '.stage figure[data-matrix="weights"] canvas', 'figure[data-view="graph"] canvas']
      .map((s) => [s, document.querySelector(s).getBoundingClientRect()]).map(([s, box]) => [s, [Math.round(box.top), Math.round(box.bottom)]])));
    const wide = viewport.width > 1100;
    assert.ok(edges['#prompt'][1] <= viewport.height, `${at}: the sentence ${JSON.stringify(edges)}`);
    assert.ok(edges['.stage figure[data-matrix="weights"] canvas'][wide ? 1 : 0] <= viewport.height, `${at}: the weights ${JSON.stringify(edges)}`);
    if (wide) assert.ok(edges['figure[data-view="graph"] canvas'][1] <= viewport.height, `${at}: the graph ${JSON.stringify(edges)}`);
    // the numbers printed: the cell shows them (its detail says the same number)
    await page.focus('.stage figure[data-matrix="weights"] canvas');
    assert.match(await page.textContent('#detail h3'), /^weights \[0, 0\] = 1$/);
    // the landing lasts until the player moves: then the graph is its own again
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('.step-button.current').dataset.step === 'masked');
    assert.match(await page.textContent('#prompt'), /^Step 5 of 7/);
    assert.equal(await page.getAttribute('figure[data-view="graph"]', 'data-edge-mode'), 'all');
    await page.context().close();
  }
  // a link with step= opens on that step, as it says
  const linked = await openPage(env.browser, `${env.url}#step=x`, { viewport: viewports[0] });
  assert.equal(await ready(linked), 'ready');
  assert.equal(await linked.$eval('.step-button.current', (b) => b.dataset.step), 'x');
  assert.match(await linked.textContent('#prompt'), /Press → to step, Space to play/);
  await linked.context().close();
});

test('the first screen, light and dark, at 1280 × 720, 1920 × 1080 and 390 × 844 (screenshots)', async () => {
  for (const viewport of viewports) {
    for (const colorScheme of ['light', 'dark']) {
      const page = await openPage(env.browser, env.url, { viewport, colorScheme });
      assert.equal(await ready(page), 'ready');
      await page.waitForTimeout(300);
      await shot(page, `first-minute-${viewport.width}-${colorScheme}`);
      await page.context().close();
    }
  }
});

test('the learner\'s own sentence is on the first screen: typed there, it becomes the tokens; a preset brings the preset back', async () => {
  for (const viewport of [viewports[0], viewports[2]]) {
    const at = `${viewport.width} × ${viewport.height}`;
    const page = await openPage(env.browser, env.url, { viewport });
    assert.equal(await ready(page), 'ready');
    assert.equal(await page.isVisible('#settings-drawer'), false);
    assert.equal(await page.isVisible('#sentence'), true, `${at}: the sentence field without opening More`);
    const box = await page.$eval('#sentence', (i) => i.getBoundingClientRect().bottom);
    assert.ok(box <= viewport.height, `${at}: the field is on the first screen (${box})`);
    await page.fill('#sentence', 'the cat sat on the mat');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('sentence') === 'the cat sat on the mat');
    await page.waitForFunction(() => document.getElementById('tokens').textContent.includes('cat'));
    assert.equal(await page.$eval('#preset', (s) => s.selectedOptions[0]?.textContent), 'Your own sentence', `${at}: no preset is shown as chosen`);
    await page.selectOption('#preset', 'bank-raw');
    await page.waitForFunction(() => location.hash.includes('preset=bank-raw') && !location.hash.includes('sentence='));
    // the link changes first; the preset is then fetched and computed (the page stays ready meanwhile)
    await page.waitForFunction(() => /bank/.test(document.getElementById('tokens').textContent), null, { timeout: 30000 });
    assert.equal(await ready(page), 'ready');
    assert.equal(await page.$eval('#sentence', (i) => i.value), '');
    await page.context().close();
  }
});

test('the words of the first screen (query, key, value, scores, softmax, mask) explain themselves on hover and on focus; axe-clean', async () => {
  const page = await openPage(env.browser, env.url, { viewport: viewports[0], bypassCSP: true });  // for axe's script: the page's <meta> policy refuses an inline one
  assert.equal(await ready(page), 'ready');
  const terms = ['query', 'key', 'value', 'scores', 'softmax', 'mask'];
  // each word's line is the description of something on the first screen
  const described = await page.evaluate((names) => Object.fromEntries(names.map((name) => {
    const line = document.getElementById(`term-${name}`);
    const users = [...document.querySelectorAll(`[aria-describedby~="term-${name}"]`)].filter((e) => e.getClientRects().length
      && e.getBoundingClientRect().bottom <= window.innerHeight);
    return [name, { line: line?.textContent ?? null, users: users.length, focusable: users.some((e) => e.tabIndex >= 0) }];
  })), terms);
  for (const name of terms) {
    assert.ok(described[name].line?.startsWith(`${name}: `), `${name}: ${described[name].line}`);
    assert.ok(described[name].users >= 1 && described[name].focusable, `${name} on the first screen, focusable: ${JSON.stringify(described[name])}`);
  }
  // hover shows the line beside the word; leaving hides it
  // (the line's module loads on the first hover: waited for, not assumed)
  const tip = '.term-tip';
  const shown = (on) => page.waitForSelector(tip, { state: on ? 'visible' : 'hidden', timeout: 5000 });
  await page.hover('#prompt .term');
  await shown(true);
  assert.equal(await page.textContent(tip), described.query.line);
  await page.mouse.move(1, 1);
  await shown(false);
  // keyboard focus shows it too, and Escape hides it
  await page.focus('.step-button[data-step="qkv"]');
  await shown(true);
  assert.match(await page.textContent(tip), /^query: .*key: .*value: /);
  await page.keyboard.press('Escape');
  await shown(false);
  await page.focus('#mask-legend .term');
  assert.equal(await page.textContent(tip), described.mask.line);
  await shot(page, 'first-minute-term-focus');
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await page.hover('#step-title .term');
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(() => window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }));
    assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), [], colorScheme);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// Where the page is scrolled to, and whether `selector` is inside the viewport.
const inView = (page, selector) => page.$eval(selector, (e) => {
  const box = e.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
});

test('every change of view lands at its top, or at what the action was about', async () => {
  for (const viewport of [viewports[0], viewports[2]]) {
    const at = `${viewport.width} × ${viewport.height}`;
    const page = await openPage(env.browser, `${env.url}#lesson=qkv`, { viewport });
    assert.equal(await ready(page), 'ready');
    const scrolled = async () => {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      assert.ok(await page.evaluate(() => window.scrollY) > 100, `${at}: the view scrolls`);
    };
    const top = async (what) => {
      await page.waitForFunction(() => window.scrollY === 0, null, { timeout: 5000 }).catch(() => {});
      assert.equal(await page.evaluate(() => window.scrollY), 0, `${at}: ${what} lands at the top`);
    };
    // the nav
    await scrolled();
    await page.click('#lessons-nav a[href="#lesson=multihead"]');
    await page.waitForFunction(() => document.getElementById('lesson-body').dataset.lesson === 'multihead');
    await ready(page);
    await top('the nav');
    // a lesson's "Open in the playground"
    await scrolled();
    await page.click('#lesson-open');
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'playground');
    await ready(page);
    await top('"Open in the playground"');
    // Back, Forward
    await scrolled();
    await page.goBack();
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'lesson');
    await ready(page);
    await top('Back');
    await scrolled();
    await page.goForward();
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'playground');
    await ready(page);
    await top('Forward');

    // the lecture's "Train this rung live": the Train button in view
    await page.click('#lessons-nav a[href="#lesson=lecture"]');
    await page.waitForSelector('button[data-train="text-gpt"]');
    await page.click('button[data-train="text-gpt"]');
    await page.waitForSelector('#train-play');
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'train');
    await page.waitForTimeout(500);
    assert.ok(await inView(page, '#train-play'), `${at}: the Train button in view`);
    await shot(page, `first-minute-train-landing-${viewport.width}`);
    await page.context().close();
  }
});

test('"Open head in the playground" lands on the player and the head\'s matrices', async () => {
  for (const viewport of [viewports[0], viewports[2]]) {
    const at = `${viewport.width} × ${viewport.height}`;
    const page = await openPage(env.browser, `${env.url}#model=text-gpt&text=To%20be%2C%20or%20not%20to%20be&layer=1&head=2`, { viewport });
    const button = await page.waitForSelector('.model-open-head', { state: 'visible', timeout: 30000 });
    await page.waitForFunction(() => document.querySelector('#app').dataset.state === 'ready');
    await button.scrollIntoViewIfNeeded();
    await button.click();
    await page.waitForFunction(() => document.getElementById('app').dataset.view === 'playground');
    await ready(page);
    await page.waitForTimeout(300);
    const seen = await page.evaluate(() => {
      const box = (s) => document.querySelector(s).getBoundingClientRect();
      const matrix = box('.stage figure.heatmap');
      return { player: [box('#player').top, box('#player').bottom], title: box('#step-title').top, matrixTop: matrix.top, height: window.innerHeight };
    });
    assert.ok(seen.player[0] >= 0 && seen.player[1] <= seen.height, `${at}: the player in view ${JSON.stringify(seen)}`);
    assert.ok(seen.title >= seen.player[1] - 1, `${at}: the step's title under the player, not behind it ${JSON.stringify(seen)}`);
    assert.ok(seen.matrixTop >= seen.player[1] - 1 && seen.matrixTop < seen.height - 40, `${at}: the head's matrices start in view ${JSON.stringify(seen)}`);
    await shot(page, `first-minute-open-head-${viewport.width}`);
    await page.context().close();
  }
});
