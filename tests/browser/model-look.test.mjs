// The Model view says where to look (issue 28): a token hovered, focused or
// tapped lights its row in every head, the large head and the graph, whose
// labels stay on their nodes; the temperature is a slider whose bars are the
// core's distribution Generate samples from, with the model's own outlined;
// a refused temperature's line sits under the field; a text the model cannot
// read leaves an empty state that says why (a new model) or the last text it
// read, named (while typing); newlines are ↵ in the chips and stay in the
// field and the link; notes and errors each have one style, readable light
// and dark; axe finds nothing. Screenshots of each state, 1280 × 720 and
// 390 × 844, light and dark.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModelEngine, openModel } from '../../web/engine/model.js';
import { tokenText } from '../../web/views/format.js';
import { percent } from '../../web/views/next-tokens.js';
import { gptFile } from './gpt-file.mjs';
import { contrast, openPage, root, shot, useBrowser } from './browser.mjs';

const env = useBrowser({ csp: true });
const text = 'To be, or not to be';
const node = {};
const wasm = join(root, 'build', 'wasm');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

before(async () => {
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  node.model = await openModel(new Blob([readFileSync(join(root, 'web', 'models', 'text-gpt.safetensors'))]), { engine, name: 'text-gpt' });
  node.vocabulary = node.model.info.vocabulary;
});

async function modelPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  return page;
}

async function axe(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

// What the views light for the token in focus.
const lit = (page) => page.evaluate(() => {
  const view = document.querySelector('.model-view');
  const grid = view.querySelector('.head-grid');
  const thumb = view.querySelector('.model-thumb');
  const after = getComputedStyle(thumb, '::after');
  return {
    grid: grid.dataset.row ?? null,
    outlined: after.content !== 'none' && after.display !== 'none' ? Math.round(parseFloat(after.top)) : null,
    head: view.querySelector('figure[data-matrix="model-head"]').dataset.highlightRow ?? null,
    graph: view.querySelector('figure[data-view="graph"]').dataset.focusNode ?? null,
    chip: view.querySelector('.token-chip.active')?.dataset.position ?? null,
    bars: view.querySelector('.next-tokens').dataset.position,
  };
});

// The bars as shown: [text, percent, p, own].
const bars = (page) => page.$$eval('.next-token-bars li', (items) => items.map((li) => [li.querySelector('.next-token-text').textContent, li.querySelector('.next-token-p').textContent, Number(li.dataset.p), Number(li.dataset.own)]));
// The core's: after position `at` at temperature t.
function expected(tokens, at, t) {
  node.model.run(tokens);
  const { k, ids, probabilities, own } = node.model.temper(t);
  return Array.from({ length: 10 }, (_, n) => [tokenText(node.vocabulary[ids[at * k + n]]), percent(probabilities[at * k + n]), probabilities[at * k + n], own[at * k + n]]);
}

test('a token hovered, focused or tapped lights its row in every head, the large head and the graph; leaving it lights none', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&layer=1&head=2`, { viewport: { width: 1280, height: 720 }, hasTouch: true });
  assert.deepEqual(await lit(page), { grid: null, outlined: null, head: null, graph: null, chip: null, bars: '18' });
  const key = () => page.textContent('.next-tokens-key');
  assert.match(await key(), /^What Generate draws from at temperature 0\.8/);
  await page.hover('.token-chip[data-position="3"]');
  const three = await lit(page);
  // a token that is not the last: its bars are what the model would draw there, not what Generate draws
  assert.match(await key(), /^What the model would draw after this token \(Generate continues after the last one\) at temperature 0\.8/);
  assert.deepEqual({ ...three, outlined: three.outlined !== null }, { grid: '3', outlined: true, head: '3', graph: '0:3', chip: '3', bars: '3' });
  // the outline sits on row 3 of 19 in each thumbnail (96 px, 1 px padding and border 2 px)
  const size = await page.$eval('.model-thumb', (b) => b.clientHeight);
  assert.ok(Math.abs(three.outlined - (1 + ((size - 2) * 3) / 19)) <= 1, `outline at ${three.outlined} px of ${size}`);
  await page.mouse.move(5, 5);
  assert.deepEqual(await lit(page), { grid: null, outlined: null, head: null, graph: null, chip: null, bars: '18' });
  // the keyboard: a chip focused, then the arrow key to the next (the chips are one Tab stop)
  await page.focus('.token-chip[data-position="0"]');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual({ ...(await lit(page)), outlined: null }, { grid: '1', outlined: null, head: '1', graph: '0:1', chip: '1', bars: '1' });
  await shot(page, 'model-look-hover-1280');
  // a finger: a tap on a chip
  await page.tap('.token-chip[data-position="7"]');
  assert.deepEqual({ ...(await lit(page)), outlined: null }, { grid: '7', outlined: null, head: '7', graph: '0:7', chip: '7', bars: '7' });
  // a pointer that crosses the chips and leaves gives the focus back to the tapped chip, not to none
  // (Chromium's own mousemove after a layout change did that in CI: the tapped token went dark)
  await page.hover('.token-chip[data-position="2"]');
  assert.equal((await lit(page)).chip, '2');
  await page.mouse.move(5, 5);
  assert.deepEqual({ ...(await lit(page)), outlined: null }, { grid: '7', outlined: null, head: '7', graph: '0:7', chip: '7', bars: '7' });
  // and from the graph: its node under the pointer lights the chip, the rows and the guesses
  await page.locator('.token-chip').first().blur();
  await page.mouse.move(5, 5);
  const at = await page.evaluate(() => {
    const figure = document.querySelector('.model-view figure[data-view="graph"]');
    const canvas = figure.querySelector('canvas');
    const box = canvas.getBoundingClientRect();
    // the layout's own node position, found by scanning for node 12
    for (let y = 0; y < box.height; y += 3)
      for (let x = 0; x < box.width; x += 3) {
        canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: box.left + x, clientY: box.top + y, bubbles: true }));
        if (figure.dataset.focusNode === '0:12') return [box.left + x, box.top + y];
      }
    return null;
  });
  assert.ok(at, 'node 12 found under the pointer');
  assert.deepEqual({ ...(await lit(page)), outlined: null }, { grid: '12', outlined: null, head: '12', graph: '0:12', chip: '12', bars: '12' });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the graph\'s labels sit on their nodes at 1280 and 390, on a short text and a long one', async () => {
  for (const [width, height] of [[1280, 720], [390, 844]])
    for (const typed of ['To be, or not to be', 'To be, or not to be, that is the question']) {
      const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(typed)}`, { viewport: { width, height } });
      const figure = await page.$eval('.model-view figure[data-view="graph"]', (f) => ({ mode: f.dataset.edgeMode, numbers: Number(f.dataset.edgeNumbers), drift: Number(f.dataset.edgeNumberDrift), query: f.dataset.query }));
      // one query's edges, numbered: each number stands over the token it comes from, not out on its arc
      assert.equal(figure.mode, 'one');
      assert.ok(figure.numbers >= (width < 500 ? 6 : 12), `${width} px, ${JSON.stringify(typed)}: ${figure.numbers} numbers printed`);
      assert.ok(figure.drift <= 12, `${width} px, ${JSON.stringify(typed)}: a number sits ${figure.drift} px across from its token`);
      await shot(page, `model-look-graph-${width}-${typed.length}`);
      await page.context().close();
    }
});

test('temperature: a slider with its value; the bars are the core\'s distribution Generate samples from, the model\'s own outlined; a refused value is one line under the field', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}`, { viewport: { width: 1280, height: 720 } });
  const tokens = node.model.encode(text);
  const slider = '.model-temperature input[type="range"]';
  assert.equal(await page.textContent('.model-temperature output'), '0.8');
  assert.equal(await page.getAttribute('.next-tokens', 'data-temperature'), '0.8');
  assert.deepEqual(await bars(page), expected(tokens, 18, 0.8));
  // Home: the lowest stop; the bars follow without a keystroke in the text
  await page.focus(slider);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('.next-tokens').dataset.temperature === '0.05');
  assert.equal(await page.textContent('.model-temperature output'), '0.05');
  const cold = await bars(page);
  assert.deepEqual(cold, expected(tokens, 18, 0.05));
  assert.ok(cold[0][2] > cold[0][3], 'cold: the likeliest token above its own probability');
  await page.hover('.token-chip[data-position="4"]');
  assert.deepEqual(await bars(page), expected(tokens, 4, 0.05), 'a hovered token\'s guesses at that temperature');
  await page.mouse.move(5, 5);
  await shot(page, 'model-look-cold-1280');
  await page.focus(slider);
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('.next-tokens').dataset.temperature === '5');
  const hot = await bars(page);
  assert.deepEqual(hot, expected(tokens, 18, 5));
  assert.ok(hot[0][2] < hot[0][3], 'hot: the likeliest token below its own probability');
  // the outline is drawn at the own probability, the fill at the tempered one
  const widths = await page.$eval('.next-token-bars li', (li) => [li.querySelector('.next-token-fill').style.width, li.querySelector('.next-token-own').style.width].map(parseFloat));
  assert.deepEqual(widths, [Number((hot[0][2] * 100).toFixed(2)), Number((hot[0][3] * 100).toFixed(2))]);
  await shot(page, 'model-look-hot-1280');
  // a keystroke re-runs at the slider's temperature
  await page.focus('.model-text-field textarea');
  await page.keyboard.press('End');
  await page.keyboard.type('!');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 20);
  assert.deepEqual(await bars(page), expected(node.model.encode(`${text}!`), 19, 5));
  // a temperature from anywhere else outside the range: refused in one line under the field, the last kept
  const refused = await page.evaluate(async () => {
    const { TemperatureField } = await import('./model/temperature.js');
    const box = document.createElement('div');
    const field = new TemperatureField(box, { value: 0.8, onChange: () => {} });
    const taken = field.set(9);
    const error = field.box.querySelector('.field-error');
    return { taken, value: field.value, line: error.textContent, hidden: error.hidden, under: error.previousElementSibling.contains(field.slider) };
  });
  assert.deepEqual(refused, { taken: false, value: 0.8, line: 'Temperature: expected a number from 0.05 to 5, got "9"; kept 0.8', hidden: false, under: true });
  // nothing at the top of the page
  assert.equal(await page.isHidden('.model-status'), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a new model that cannot read the text: an empty state that says why, none of the last model\'s tokens or guesses', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'model-look-'));
  const small = join(dir, 'abc.safetensors');
  writeFileSync(small, gptFile({ embed: 8, heads: 2, layers: 1, length: 16, vocabulary: ['a', 'b', 'c', ' '] }));
  for (const colorScheme of ['light', 'dark']) {
    const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent('To be')}`, { viewport: { width: 1280, height: 720 }, colorScheme, bypassCSP: true });  // for axe's script
    assert.equal(await page.$$eval('.token-chip', (c) => c.length), 5);
    await page.setInputFiles('.model-source input[type="file"]', small);
    await page.waitForFunction(() => document.querySelector('.model-view').dataset.shows === 'empty');
    assert.equal(await page.textContent('.model-name'), 'Model: "abc.safetensors"');
    assert.equal(await page.isVisible('.model-empty'), true);
    assert.equal(await page.textContent('.model-empty'), 'Nothing to show yet: "abc.safetensors" cannot read this text (character "T" at position 0 is not in the vocabulary). Change the text, or open another model.');
    assert.equal(await page.isVisible('.token-chip'), false, 'no chip of the last model');
    assert.equal(await page.isVisible('.next-token-bars li'), false, 'no guess of the last model');
    assert.equal(await page.isVisible('.model-stale'), false);
    assert.equal(await page.getAttribute('.model-view', 'data-tokens'), null);
    assert.equal(await page.textContent('.model-text-error'), 'text: character "T" at position 0 is not in the vocabulary');
    await shot(page, `model-look-empty-1280-${colorScheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, `model-look-empty-390-${colorScheme}`);
    assert.deepEqual(await axe(page), [], colorScheme);
    // a text it reads: the views come back
    await page.fill('.model-text-field textarea', 'abc ab');
    await page.waitForFunction(() => document.querySelector('.model-view').dataset.shows === 'text');
    assert.equal(await page.isVisible('.model-empty'), false);
    assert.equal(await page.$$eval('.token-chip', (c) => c.length), 6);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
  // a link whose text the model cannot read: the same empty state from the start
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent('café')}`);
  assert.equal(await page.getAttribute('.model-view', 'data-shows'), 'empty');
  assert.match(await page.textContent('.model-empty'), /^Nothing to show yet: text-gpt cannot read this text \(character "é" at position 3 is not in the vocabulary\)/);
  await page.context().close();
});

test('typing what the model cannot read keeps the last text it read, named; newlines are ↵ chips and stay in the field and the link', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent('To be')}`, { viewport: { width: 1280, height: 720 }, colorScheme, bypassCSP: true });  // for axe's script
    await page.focus('.model-text-field textarea');
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 6);
    await page.keyboard.type('é');
    await page.waitForFunction(() => document.querySelector('.model-view').dataset.shows === 'stale');
    assert.equal(await page.textContent('.model-stale'), 'Showing the last text the model could read: "To be "');
    assert.equal(await page.textContent('.model-text-error'), 'text: character "é" at position 6 is not in the vocabulary');
    assert.equal(await page.$$eval('.token-chip', (c) => c.length), 6, 'the chips of "To be "');
    assert.equal(await page.inputValue('.model-text-field textarea'), 'To be é');
    await shot(page, `model-look-stale-1280-${colorScheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, `model-look-stale-390-${colorScheme}`);
    assert.deepEqual(await axe(page), [], colorScheme);
    // notes look like notes, errors like errors; both readable
    const styles = await page.evaluate(() => {
      const of = (selector) => {
        const s = getComputedStyle(document.querySelector(selector));
        return { color: s.color, italic: s.fontStyle === 'italic', bold: Number(s.fontWeight) >= 600 };
      };
      return { background: getComputedStyle(document.body).backgroundColor, error: of('.model-text-error'), stale: of('.model-stale'), note: of('.model-next-panel .note') };
    });
    assert.equal(styles.stale.color, styles.note.color, 'the stale line is a note');
    assert.equal(styles.stale.italic, true);
    assert.notEqual(styles.error.color, styles.note.color, 'an error is not a note');
    assert.equal(styles.error.italic, false);
    for (const kind of ['error', 'stale']) assert.ok(contrast(styles[kind].color, styles.background) >= 4.5, `${kind} ${colorScheme}: ${contrast(styles[kind].color, styles.background).toFixed(2)}`);
    await page.context().close();
  }
  // a newline: a chip of its own (↵), kept in the field and in the link
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent('To be')}`);
  await page.fill('.model-text-field textarea', 'To be\nor not');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 12);
  const tokens = node.model.encode('To be\nor not');
  assert.deepEqual(await page.$$eval('.token-chip', (c) => c.map((x) => x.textContent)), tokens.map((t) => tokenText(node.vocabulary[t])));
  assert.equal(await page.textContent('.token-chip[data-position="5"]'), '↵');
  await page.waitForFunction(() => new URLSearchParams(window.location.hash.slice(1)).get('text') === 'To be\nor not');
  const link = await page.evaluate(() => window.location.href);
  await page.context().close();
  const again = await modelPage(link.slice(env.url.length));
  assert.equal(await again.inputValue('.model-text-field textarea'), 'To be\nor not');
  assert.equal(await again.getAttribute('.model-view', 'data-tokens'), tokens.join(','));
  await again.context().close();
});

test('the Model view, light and dark, 1280 × 720 and 390 × 844, a token hovered, cold and hot: no axe violation', async () => {
  for (const colorScheme of ['light', 'dark'])
    for (const [width, height] of [[1280, 720], [390, 844]]) {
      const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&layer=1&head=2`, { viewport: { width, height }, colorScheme, bypassCSP: true });  // for axe's script
      await page.hover('.token-chip[data-position="9"]');
      await shot(page, `model-look-hover-${width}-${colorScheme}`);
      for (const [key, name] of [['Home', 'cold'], ['End', 'hot']]) {
        await page.focus('.model-temperature input');
        await page.keyboard.press(key);
        await page.waitForFunction((t) => document.querySelector('.next-tokens').dataset.temperature === t, key === 'Home' ? '0.05' : '5');
        await page.hover('.token-chip[data-position="9"]');
        await shot(page, `model-look-${name}-${width}-${colorScheme}`);
      }
      assert.deepEqual(await axe(page), [], `${width}, ${colorScheme}`);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
});
