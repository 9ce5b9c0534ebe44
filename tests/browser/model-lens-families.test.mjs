// The Model view's lenses (lens-v1.md, web/lens/) on the families other than
// GPT-2 (lens-v1.md "Families other than GPT-2"), each checked against the
// core's own JSON for the same tokens, computed here in Node by the site's
// wasm. A Llama whose 4 query heads share 2 key/value heads (llama-gqa, ids
// typed as numbers): every lens is the core's, and ablating one query head of
// a group is that head alone (its partner, which reads the same keys and
// values, ablated instead gives other numbers). A BERT with its masked-LM
// head (bert-mlm, a WordPiece tokenizer.json of its 60 words): head scores, ablation at the
// [MASK] (or at=), and the logit lens and attribution refused in the core's
// one line, never a blank or broken panel. Screenshots of both at 1280 × 720
// and 390 × 844, light and dark.
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
import { folderRoute, modelsV2, openPage, root, screenshotDir, siteDir, useBrowser } from './browser.mjs';

const made = mkdtempSync(join(tmpdir(), 'model-lens-families-'));
const env = useBrowser({ csp: true, route: folderRoute({ '/models-v2/': modelsV2, '/made/': made }) });
const wasm = join(siteDir, 'wasm');
const node = {};
const typed = [1, 7, 3, 9, 2, 11, 1, 7, 3, 9, 2, 11, 5, 8];
const llamaHash = `#model=models-v2/llama-gqa/&text=${encodeURIComponent(typed.join(', '))}`;
const sentence = 'the cat sat on the [MASK].';
const bertHash = `#model=made/bert-words/&text=${encodeURIComponent(sentence)}`;
// the fixture's WordPiece tokenizer.json grown to the BERT's 60 tokens (as model-bert.test.mjs does), so every guess is a word
const fixture = JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'tokenizers', 'bert-wordpiece.json'), 'utf8'));
['sun', 'rises', 'in', 'east', 'bank', 'river', 'money', 'is', 'was', 'it', 'he', 'she', 'they', 'big', 'small', 'red', 'blue', 'ran', 'over', 'under',
  'bed', 'floor', 'chair', 'table', 'house', 'tree', 'bird', 'fish', 'ate', 'saw', 'and', 'to', 'of', 'day', 'night', '##s', '##ly', 'cold', 'warm',
  'home', 'book', 'read', 'sofa'].forEach((w, n) => { fixture.model.vocab[w] = 17 + n; });
const tokenizerText = JSON.stringify(fixture);
const tokenizer = tokenizerOf(tokenizerText, library);

before(async () => {
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  const folder = (name) => openFolder({ configText: readFileSync(join(modelsV2, name, 'config.json'), 'utf8'), indexText: '',
    files: [{ name: 'model.safetensors', source: new Blob([readFileSync(join(modelsV2, name, 'model.safetensors'))]) }] }, { engine, name });
  node.llama = await folder('llama-gqa');
  node.bert = await folder('bert-mlm');
  // the BERT beside a WordPiece tokenizer.json whose ids fit its 60 tokens
  mkdirSync(join(made, 'bert-words'), { recursive: true });
  for (const f of ['config.json', 'model.safetensors']) copyFileSync(join(modelsV2, 'bert-mlm', f), join(made, 'bert-words', f));
  writeFileSync(join(made, 'bert-words', 'tokenizer.json'), tokenizerText);
});

// The Model view on a link, once the lens panel has answered (or said why not).
async function lensPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForSelector('.lens-panel[data-state="ready"], .lens-panel[data-state="idle"], .lens-panel[data-state="error"]', { timeout: 30000 });
  return page;
}
const settled = (page) => page.waitForSelector('.lens-panel:not([data-state="busy"])');
const tokensOf = (page) => page.$eval('.model-view', (v) => v.dataset.tokens.split(',').map(Number));
const status = (page) => page.textContent('.lens-status');
const state = (page) => page.getAttribute('.lens-panel', 'data-state');
const roles = ['previous_token', 'first_token', 'duplicate_token', 'induction'];
const shownScores = (page) => page.$$eval('.lens-scores-table tbody tr', (rows) => rows.map((tr) => [tr.dataset.head, ...[...tr.querySelectorAll('.lens-score')].map((td) => td.dataset.value)]));
const coreScores = (json) => json.heads.map((h) => [`${h.layer}.${h.head}`, ...roles.map((k) => String(h[k]))]);
const sideBars = (page, side) => page.$$eval(`.lens-ablate-bars [data-side="${side}"] li`, (items) => items.map((li) => [li.querySelector('.next-token-text').textContent, Number(li.dataset.p)]));
const parts = (page) => page.$$eval('.lens-waterfall .lens-part', (p) => p.map((x) => [x.dataset.name, Number(x.dataset.value)]));
// the page's label of an id: a Llama folder without tokenizer.json shows <id>, the BERT its word
const llamaLabel = (id) => tokenText(`<${id}>`);
const bertLabel = (id) => tokenText(tokenizer.label(id));
const bars = (top, label) => top.map(([id, p]) => [label(id), p]);

test('Llama (grouped-query): head scores, ablation of one query head of a group, the logit lens and attribution are the core’s', async () => {
  const page = await lensPage(`${llamaHash}&lens=scores`);
  assert.equal(await state(page), 'ready', await status(page));
  assert.deepEqual(await tokensOf(page), typed);
  const scores = node.llama.lens({ what: 'scores', tokens: typed });
  assert.equal(scores.heads.length, 2 * 4, 'every query head, not the key/value heads');
  assert.deepEqual(await shownScores(page), coreScores(scores));

  // ablate 1.3: query head 3 alone (kv 1, which head 2 reads too)
  await page.click('.lens-scores-table tr[data-head="1.3"] .lens-ablate-head');
  await settled(page);
  assert.equal(await state(page), 'ready', await status(page));
  const three = node.llama.lens({ what: 'ablate', tokens: typed, heads: [[1, 3]], mode: 'zero' });
  assert.deepEqual(await sideBars(page, 'before'), bars(three.before.top, llamaLabel));
  assert.deepEqual(await sideBars(page, 'after'), bars(three.after.top, llamaLabel));
  assert.equal(await page.getAttribute('.lens-loss', 'data-after'), String(three.after.loss));
  assert.notEqual(three.after.loss, three.before.loss);
  // its partner in the group instead: other numbers, so the shared key/value head was not switched off with it
  await page.click('.lens-ablate-toggle[data-head="1.3"]');
  await page.click('.lens-ablate-toggle[data-head="1.2"]');
  await settled(page);
  const two = node.llama.lens({ what: 'ablate', tokens: typed, heads: [[1, 2]], mode: 'zero' });
  assert.deepEqual(await sideBars(page, 'after'), bars(two.after.top, llamaLabel));
  assert.equal(await page.getAttribute('.lens-loss', 'data-after'), String(two.after.loss));
  assert.notEqual(two.after.loss, three.after.loss);
  // mean: the core's too
  await page.check('.lens-mode input[value="mean"]');
  await settled(page);
  const mean = node.llama.lens({ what: 'ablate', tokens: typed, heads: [[1, 2]], mode: 'mean' });
  assert.deepEqual(await sideBars(page, 'after'), bars(mean.after.top, llamaLabel));
  assert.equal(await page.getAttribute('.lens-loss', 'data-after'), String(mean.after.loss));

  // the logit lens: each cell the core's top token and final-choice probability
  await page.click('.lens-tab[data-lens="logit-lens"]');
  await page.waitForSelector('.lens-panel[data-lens="logit-lens"][data-state="ready"]');
  const grid = node.llama.lens({ what: 'logit-lens', tokens: typed });
  assert.equal(grid.layers.length, 3);
  const cells = await page.$$eval('.lens-cell', (c) => c.map((x) => [Number(x.dataset.row), Number(x.dataset.position), Number(x.dataset.top), Number(x.dataset.final), x.querySelector('.lens-cell-token').textContent, x.querySelector('.lens-cell-p').textContent]));
  assert.deepEqual(cells, grid.layers.flatMap((row, r) => row.map(({ top, final }, t) => [r, t, top[0][0], final, llamaLabel(top[0][0]), percent(top[0][1])])));

  // attribution through RMSNorm: the parts are the core's and sum to its logit
  await page.click('.lens-tab[data-lens="attribution"]');
  await page.waitForSelector('.lens-panel[data-lens="attribution"][data-state="ready"]');
  const attribution = node.llama.lens({ what: 'attribution', tokens: typed });
  assert.deepEqual(await parts(page), attribution.parts.map(({ name, value }) => [name, value]));
  assert.ok(attribution.parts.some(({ name }) => name === '1.3'), 'a part for each query head');
  assert.equal(Number(await page.getAttribute('.lens-total', 'data-logit')), attribution.logit);
  assert.ok(Math.abs(attribution.sum - attribution.logit) < 1e-3);
  // another position
  await page.selectOption('.lens-attribution-controls select >> nth=0', '5');
  await settled(page);
  const at5 = node.llama.lens({ what: 'attribution', tokens: typed, position: 5 });
  assert.deepEqual(await parts(page), at5.parts.map(({ name, value }) => [name, value]));
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), [], 'the folder has no tokenizer.json: its 404 only');
  await page.context().close();
});

test('BERT: head scores are the core’s; ablation shows the guesses at the [MASK], or at=; the logit lens and attribution are refused in the core’s one line', async () => {
  const page = await lensPage(`${bertHash}&lens=scores`);
  assert.equal(await state(page), 'ready', await status(page));
  const tokens = await tokensOf(page);
  assert.deepEqual(tokens, tokenizer.encode(sentence).ids);
  const mask = tokens.indexOf(4);
  assert.equal(mask, 6, '[CLS] the cat sat on the [MASK] . [SEP]');
  assert.deepEqual(await shownScores(page), coreScores(node.bert.lens({ what: 'scores', tokens })));

  // ablation at the [MASK]: the masked-LM head's guesses there, no loss
  await page.click('.lens-scores-table tr[data-head="1.0"] .lens-ablate-head');
  await settled(page);
  assert.equal(await state(page), 'ready', await status(page));
  const atMask = node.bert.lens({ what: 'ablate', tokens, heads: [[1, 0]], mode: 'zero', position: mask });
  assert.deepEqual(await sideBars(page, 'before'), bars(atMask.before.top, bertLabel));
  assert.deepEqual(await sideBars(page, 'after'), bars(atMask.after.top, bertLabel));
  assert.equal(atMask.before.loss, null);
  assert.match(await page.textContent('.lens-loss'), /an encoder predicts no next token/);
  assert.match(await page.textContent('.lens-ablate-bars [data-side="before"]'), /position 6, "\[MASK\]"/);
  // the sentence says what an encoder's ablation shows: the guesses at the [MASK], no loss, not the next token's
  assert.match(await page.textContent('.lens-about'), /\[MASK\]/);
  assert.doesNotMatch(await page.textContent('.lens-about'), /after the last token|its loss on this text/);
  // at= another position: the guesses there
  const other = await lensPage(`${bertHash}&lens=ablate&ablate=0.1&at=3`);
  assert.equal(await state(other), 'ready', await status(other));
  const at3 = node.bert.lens({ what: 'ablate', tokens, heads: [[0, 1]], mode: 'zero', position: 3 });
  assert.notDeepEqual(at3.before.top, atMask.before.top);
  assert.deepEqual(await sideBars(other, 'after'), bars(at3.after.top, bertLabel));
  assert.match(await other.textContent('.lens-ablate-bars [data-side="before"]'), /position 3, "sat"/);

  // the logit lens and attribution: the core's refusal, one line, nothing else drawn
  for (const lens of ['logit-lens', 'attribution']) {
    await page.click(`.lens-tab[data-lens="${lens}"]`);
    await page.waitForSelector(`.lens-panel[data-lens="${lens}"]:not([data-state="busy"])`);
    assert.equal(await state(page), 'error', lens);
    let refusal = '';
    try {
      node.bert.lens({ what: lens, tokens });
    } catch (error) {
      refusal = error.message;
    }
    assert.match(refusal, /\S/, `the core refuses ${lens} for BERT`);
    assert.equal(await status(page), refusal);
    assert.equal(refusal.split('\n').length, 1);
    assert.equal(await page.isVisible('.lens-status'), true);
    assert.equal(await page.$$eval(`.lens-${lens} .lens-cell, .lens-${lens} .lens-part`, (x) => x.length), 0);
    // nothing of the lens left standing round the refusal: no colour key without a grid, no pickers for a chart refused, no head to replay
    assert.equal(await page.isVisible(`.lens-body.lens-${lens}`), false, `${lens}: its body is hidden`);
    assert.equal(await page.isVisible('.lens-replay'), false, `${lens}: no replay`);
  }
  assert.deepEqual([...page.problems, ...other.problems], []);
  for (const p of [page, other]) await p.context().close();
});

test('screenshots: the Llama and BERT lenses at 1280 × 720 and 390 × 844, light and dark', async () => {
  const views = [['llama', llamaHash, [['scores', 'lens=scores'], ['ablate', 'lens=ablate&ablate=1.3'], ['logit-lens', 'lens=logit-lens'], ['attribution', 'lens=attribution']]],
    ['bert', bertHash, [['scores', 'lens=scores'], ['ablate', 'lens=ablate&ablate=1.0'], ['logit-lens', 'lens=logit-lens'], ['attribution', 'lens=attribution']]]];
  for (const [width, height] of [[1280, 720], [390, 844]]) {
    for (const colorScheme of ['light', 'dark']) {
      for (const [family, hash, lenses] of views) {
        const page = await lensPage(`${hash}&${lenses[0][1]}`, { viewport: { width, height }, colorScheme });
        for (const [name, setting] of lenses) {
          await page.evaluate((h) => { window.location.hash = h; }, `${hash.slice(1)}&${setting}`);
          await page.waitForSelector(`.lens-panel[data-lens="${name}"][data-state="ready"], .lens-panel[data-lens="${name}"][data-state="error"]`, { timeout: 30000 });
          await page.locator('.lens-section').screenshot({ path: join(screenshotDir, `model-lens-${family}-${name}-${width}-${colorScheme}.png`) });
        }
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${family} ${width} ${colorScheme}: the page scrolls sideways`);
        await page.context().close();
      }
    }
  }
});
