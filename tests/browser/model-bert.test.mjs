// The Model view as the family shapes it, on the shared folders
// (models-v2.md): BERT with its masked-LM head fills in [MASK] (the text
// field asks for one, a starter sentence when the folder opens; the bars are
// the core's guesses at the first [MASK], through Node's wasm; no Generate,
// and a line saying why); every head drawn whole (no triangle: read back
// from the thumbnails' pixels), the graph's edges both ways; any head
// replayed in the playground with no mask. A BERT without its head shows its
// attention and one line. A Llama whose 4 query heads share 2 key/value
// heads: bracketed "kv 0", "kv 1", each thumbnail marked, the sentence.
// Screenshots of the three at 1280 × 720 and 390 × 844, light and dark.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import * as library from '@huggingface/tokenizers';

import { tokenizerOf } from '../../web/engine/hf-tokenizer.js';
import { loadModelEngine } from '../../web/engine/model.js';
import { openFolder } from '../../web/engine/model-folder.js';
import { tokenText } from '../../web/views/format.js';
import { percent } from '../../web/views/next-tokens.js';
import { folderRoute, modelsV2, openPage, root, screenshotDir, useBrowser, violations } from './browser.mjs';

const made = mkdtempSync(join(tmpdir(), 'model-bert-'));
const env = useBrowser({ csp: true, route: folderRoute({ '/models-v2/': modelsV2, '/made/': made }) });
const wasm = join(root, 'build', 'wasm');
const starter = 'the cat sat on the [MASK].';

// The fixture's WordPiece tokenizer.json with its vocabulary grown to the
// BERT's 60 tokens, so that every guess is a word.
const words = ['sun', 'rises', 'in', 'east', 'bank', 'river', 'money', 'is', 'was', 'it', 'he', 'she', 'they', 'big', 'small',
  'red', 'blue', 'ran', 'over', 'under', 'bed', 'floor', 'chair', 'table', 'house', 'tree', 'bird', 'fish', 'ate', 'saw', 'and',
  'to', 'of', 'day', 'night', '##s', '##ly', 'cold', 'warm', 'home', 'book', 'read', 'sofa'];
const fixture = JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'tokenizers', 'bert-wordpiece.json'), 'utf8'));
words.forEach((w, n) => { fixture.model.vocab[w] = 17 + n; });
const tokenizerText = JSON.stringify(fixture);
const tokenizer = tokenizerOf(tokenizerText, library);
const node = {};

before(async () => {
  assert.equal(Object.keys(fixture.model.vocab).length, 60);
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  for (const [dir, source] of [['bert-words', 'bert-mlm'], ['bert-headless', 'bert-base-model-f16']]) {
    mkdirSync(join(made, dir), { recursive: true });
    for (const f of ['config.json', 'model.safetensors']) copyFileSync(join(modelsV2, source, f), join(made, dir, f));
    writeFileSync(join(made, dir, 'tokenizer.json'), tokenizerText);
  }
  const folder = (name) => openFolder({ configText: readFileSync(join(modelsV2, name, 'config.json'), 'utf8'), indexText: '',
    files: [{ name: 'model.safetensors', source: new Blob([readFileSync(join(modelsV2, name, 'model.safetensors'))]) }] }, { engine, name });
  node.bert = await folder('bert-mlm');
  node.llama = await folder('llama-gqa');
});

// The "Try:" lines a folder's model gets (model/try-list.js): the family's,
// and the clearest previous-token head by the core's scores when it has them.
const headLine = 'Click a head to see it large; open it in the playground to replay it step by step.';
function expectedTry(engine, tokens, first) {
  engine.run(tokens);
  let scores = [];
  try {
    scores = engine.headScores();
  } catch {
    scores = [];  // no scores: no head named
  }
  const best = scores.reduce((b, s) => (!b || s.previous > b.previous ? s : b), null);
  return [first, ...(best ? [`Look at layer ${best.layer}, head ${best.head} first: of all the heads, it looks most at the token just before (${best.previous.toFixed(2)} of each token’s attention, on this text).`] : []), headLine, 'What does each head do? Open the lenses'];
}
const tryShown = (page, want) => page.waitForFunction((w) => JSON.stringify([...document.querySelectorAll('.model-try:not([hidden]) li')].map((li) => li.textContent)) === w, JSON.stringify(want), { timeout: 30000 })
  .catch(async () => assert.deepEqual(await page.$$eval('.model-try li', (l) => l.map((e) => e.textContent)), want));

async function modelPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state) && document.querySelector('.model-view').dataset.tokens, null, { timeout: 30000 });
  return page;
}
const tokensShown = (page, want) => page.waitForFunction((t) => document.querySelector('.model-view').dataset.tokens === t, want.join(','), { timeout: 60000 });
const bars = (page) => page.$$eval('.next-token-bars li', (items) => items.map((li) => [li.querySelector('.next-token-text').textContent, li.querySelector('.next-token-p').textContent]));
// the core's ten guesses at a position, as the bars show them
const expectedBars = (tokens, position) => {
  node.bert.run(tokens);
  return node.bert.guessesAt(position).top.map(([id, p]) => [tokenText(tokenizer.label(id)), percent(p)]);
};
// every thumbnail's pixels: how many are the faint masked grey (alpha 40) and how many painted
const thumbPixels = (page) => page.$$eval('.model-thumb canvas', (canvases) => canvases.map((c) => {
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let faint = 0;
  for (let n = 3; n < data.length; n += 4) if (data[n] === 40) faint++;
  return { faint, cells: c.width * c.height };
}));
const graph = (page) => page.$eval('.model-graph .graph', (g) => ({ edges: g.dataset.edges, key: g.querySelector('.graph-key, p')?.textContent ?? '' }));

test('BERT fills in [MASK]: the starter sentence, the core\'s guesses at the [MASK], no Generate, every head whole, the graph both ways, a head in the playground', async () => {
  const page = await modelPage('#model=made/bert-words/');
  assert.equal(await page.isHidden('.model-status'), true, await page.textContent('.model-status'));
  assert.equal(await page.inputValue('.model-text-field textarea'), starter, 'a masked-LM opens on a sentence with a [MASK]');
  assert.equal(await page.textContent('.model-text-field label'), 'Type a sentence with [MASK]');
  assert.equal(await page.getAttribute('.model-view', 'data-mode'), 'fill');
  assert.equal(await page.textContent('#lesson-title'), 'A real BERT: every head of every layer');
  assert.match(await page.textContent('.model-family'), /^BERT is an encoder: it reads the whole sentence at once, both ways/);
  const tokens = tokenizer.encode(starter).ids;
  assert.deepEqual(tokens, [2, 5, 6, 7, 8, 5, 4, 13, 3], '[CLS] the cat sat on the [MASK] . [SEP]');
  await tokensShown(page, tokens);
  // what to try, under the family sentence
  await tryShown(page, expectedTry(node.bert, tokens, 'Move [MASK] to another word: the bars show what BERT would put there.'));
  assert.equal(await page.$eval('.model-try', (t) => t.previousElementSibling.className), 'model-family');
  assert.equal(await page.textContent('.model-graph figcaption'), 'Communication graph: who listens to whom', 'one sentence: no pools, no batch');
  // the panel: the [MASK]'s guesses, the core's numbers
  assert.equal(await page.textContent('.next-tokens h3'), 'Fill in [MASK] (token 6)');
  assert.deepEqual(await bars(page), expectedBars(tokens, 6));
  assert.equal(await page.getAttribute('.token-chip.active', 'data-position'), '6', 'the [MASK]\'s chip is lit');
  assert.equal(await page.getAttribute('.head-grid', 'data-row'), '6', 'and its row in every head');
  assert.equal(await page.isHidden('.model-generate'), true, 'no Generate');
  assert.match(await page.textContent('.model-encoder-note'), /^No Generate: an encoder does not write text\./);
  // every head whole: no pixel left faint, in all 2 × 4 thumbnails
  assert.equal(await page.getAttribute('.head-grid', 'data-causal'), '0');
  const pixels = await thumbPixels(page);
  assert.equal(pixels.length, 8);
  for (const p of pixels) assert.deepEqual(p, { faint: 0, cells: 81 });
  assert.match(await page.textContent('.head-grid-caption'), /^Every token attends to every token, before and after it/);
  // the graph: T² edges, the future's below the tokens
  const g = await graph(page);
  assert.equal(g.edges, String(9 * 9));
  assert.match(await page.textContent('.model-graph'), /edges from the future below/);
  // another sentence: the guesses at its [MASK]
  const second = 'the dog [MASK] on the mat.';
  await page.fill('.model-text-field textarea', second);
  const ids = tokenizer.encode(second).ids;
  await tokensShown(page, ids);
  assert.equal(await page.textContent('.next-tokens h3'), 'Fill in [MASK] (token 3)');
  assert.deepEqual(await bars(page), expectedBars(ids, 3));
  // a token that is not hidden, pointed at: its own guesses, and why they are no test
  await page.hover('.token-chip[data-position="2"]');
  await page.waitForFunction(() => document.querySelector('.next-tokens').dataset.position === '2');
  assert.equal(await page.textContent('.next-tokens h3'), 'BERT’s guesses at token 2, "dog"');
  assert.deepEqual(await bars(page), expectedBars(ids, 2));
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => document.querySelector('.next-tokens').dataset.position === '3');
  // no [MASK]: one line, no bars
  await page.fill('.model-text-field textarea', 'the dog sat on the mat.');
  await tokensShown(page, tokenizer.encode('the dog sat on the mat.').ids);
  assert.equal(await page.textContent('.next-tokens h3'), 'Fill in [MASK]');
  assert.match(await page.textContent('.next-tokens-key'), /^No \[MASK\] in the text: write \[MASK\] where BERT should guess a word/);
  assert.deepEqual(await bars(page), []);
  // layer 1, head 2 in the playground: its scenario has no mask
  await page.fill('.model-text-field textarea', starter);
  await tokensShown(page, tokens);
  await page.click('.model-thumb[data-layer="1"][data-head="2"]');
  await page.click('.model-open-head');
  await page.waitForFunction(() => document.querySelector('#app').dataset.view === 'playground' && document.querySelector('#app').dataset.state === 'ready', null, { timeout: 30000 });
  assert.equal(await page.isChecked('#mask-none'), true, 'the head\'s scenario has no mask');
  assert.equal(await page.$eval('.graph', (g) => g.dataset.edges), String(9 * 9));
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

test('a BERT without its masked-LM head: its attention, whole, and one line that it has no head to predict with', async () => {
  const page = await modelPage(`#model=made/bert-headless/&text=${encodeURIComponent('the cat sat on the mat.')}`);
  assert.equal(await page.isHidden('.model-status'), true, await page.textContent('.model-status'));
  await tokensShown(page, tokenizer.encode('the cat sat on the mat.').ids);
  assert.equal(await page.getAttribute('.model-view', 'data-mode'), 'none');
  assert.equal(await page.textContent('.model-text-field label'), 'Text');
  assert.equal(await page.isHidden('.next-tokens'), true);
  assert.equal(await page.isHidden('.model-generate'), true);
  assert.match(await page.textContent('.model-encoder-note'), /^This BERT has no masked-LM head to predict with/);
  assert.equal(await page.$$eval('.model-thumb', (b) => b.length), 2 * 3);
  for (const p of await thumbPixels(page)) assert.deepEqual(p, { faint: 0, cells: 81 });  // [CLS] the cat sat on the mat . [SEP]
  assert.equal((await graph(page)).edges, String(9 * 9));
  // "One query" on a middle token ("on", 4), its edges from both sides, not on [SEP] (edges from the past only)
  assert.equal(await page.getAttribute('.model-graph .graph', 'data-query'), '4');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a Llama whose 4 query heads share 2 key/value heads: bracketed kv 0 and kv 1, each head marked, the sentence; causal, next-token bars and Generate', async () => {
  const typed = [1, 7, 3, 9, 2, 11];
  const page = await modelPage(`#model=models-v2/llama-gqa/&text=${encodeURIComponent(typed.join(', '))}`);
  await tokensShown(page, typed);
  assert.equal(await page.getAttribute('.model-view', 'data-mode'), 'next');
  assert.deepEqual(await page.$$eval('.head-grid-kv', (b) => b.map((e) => e.textContent)), ['kv 0', 'kv 1']);
  assert.deepEqual(await page.$$eval('.model-thumb', (b) => b.map((e) => e.dataset.kv)), ['0', '0', '1', '1', '0', '0', '1', '1']);
  assert.equal(await page.textContent('.head-grid-caption'), '4 query heads share 2 key/value heads: heads 0–1 read kv 0, heads 2–3 read kv 1. Heads in a group read the same keys and values and differ only in their queries, so each still has a pattern of its own.');
  assert.equal(await page.getAttribute('.head-grid', 'data-causal'), '1');
  // the upper triangle left faint: 6 · 5 / 2 cells in each thumbnail
  for (const p of await thumbPixels(page)) assert.deepEqual(p, { faint: 15, cells: 36 });
  assert.equal((await graph(page)).edges, String(6 * 7 / 2));
  assert.equal(await page.isHidden('.model-generate'), false);
  assert.match(await page.textContent('.next-tokens h3'), /^Next token after the last token/);
  assert.equal(await page.textContent('#lesson-title'), 'A real Llama: every head of every layer');
  await tryShown(page, expectedTry(node.llama, typed, 'Point at a token: every head lights its row, the bars show what the model guesses next.'));
  assert.equal(await page.$eval('.model-try', (t) => t.previousElementSibling.className), 'model-family');
  assert.equal(await page.textContent('.model-graph figcaption'), 'Communication graph: who listens to whom');
  // dismissed, it stays away on the next visit
  await page.click('.model-try-close');
  assert.ok(await page.isHidden('.model-try'));
  await page.reload();
  await page.waitForFunction((t) => document.querySelector('.model-view')?.dataset.tokens === t, typed.join(','), { timeout: 60000 });
  await page.waitForTimeout(300);
  assert.ok(await page.isHidden('.model-try'), 'a dismissal is remembered');
  await page.context().close();
});

test('an author\'s figure of a folder\'s model has no "Try:" lines; the shipped model on the page has "Start here" instead', async () => {
  const frame = await openPage(env.browser, `${env.url}embed.html#view=model&model=models-v2/llama-gqa/&text=${encodeURIComponent('1, 7, 3')}`);
  await frame.waitForFunction(() => document.querySelector('attention-playground')?.shadowRoot?.querySelector('.model-view')?.dataset.tokens, null, { timeout: 30000 });
  await frame.waitForTimeout(300);
  assert.equal(await frame.$eval('attention-playground', (e) => e.shadowRoot.querySelector('.model-try')), null);
  await frame.context().close();
  const page = await modelPage('#model=text-gpt');
  await page.waitForSelector('.start-here:not([hidden])', { timeout: 30000 });
  assert.ok(await page.isHidden('.model-try'));
  await page.context().close();
});

test('screenshots: BERT filling in, a BERT without its head, a Llama with grouped heads, at 1280 × 720 and 390 × 844, light and dark', async () => {
  const states = [['model-bert-fill', '#model=made/bert-words/'], ['model-bert-headless', `#model=made/bert-headless/&text=${encodeURIComponent('the cat sat on the mat.')}`],
    ['model-llama-gqa', `#model=models-v2/llama-gqa/&text=${encodeURIComponent('1, 7, 3, 9, 2, 11')}`]];
  for (const colorScheme of ['light', 'dark']) {
    for (const [width, height] of [[1280, 720], [390, 844]]) {
      for (const [name, hash] of states) {
        const page = await modelPage(hash, { viewport: { width, height }, colorScheme });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.equal(overflow, 0, `${name}: no sideways scroll at ${width}`);
        await page.evaluate(() => document.querySelector('.model-name').scrollIntoView());
        await page.screenshot({ path: join(screenshotDir, `${name}-${width}-${colorScheme}.png`), fullPage: true });
        await page.context().close();
      }
    }
  }
});
