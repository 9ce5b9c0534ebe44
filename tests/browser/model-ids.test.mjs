// A model folder without tokenizer.json reads token ids typed as numbers
// (model/ids-start.js): it opens on a starter of ids valid for the model
// (below its vocabulary, within its context) with one line saying why ids
// and how to type them, never on an error, whether picked, linked, or
// opened over words typed for another model. A BERT folder that names
// [MASK]'s id (vocab.txt, tokenizer_config.json) hides a word behind it: the
// bars are the core's guesses there, and the hints say which number to type.
// "Start here" describes the model open, however it opened, even one that
// cannot read the text. Screenshots at 1280 × 720 light and 390 × 844 dark.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModelEngine } from '../../web/engine/model.js';
import { openFolder } from '../../web/engine/model-folder.js';
import { tokenText } from '../../web/views/format.js';
import { percent } from '../../web/views/next-tokens.js';
import { folderRoute, modelsV2, openPage, root, screenshotDir, useBrowser, violations } from './browser.mjs';

const made = mkdtempSync(join(tmpdir(), 'model-ids-'));
const env = useBrowser({ csp: true, route: folderRoute({ '/made/': made, '/models-v2/': modelsV2 }) });
const wasm = join(root, 'build', 'wasm');
const node = {};

// Copies of the shared folders (none has tokenizer.json), some with the files
// a BERT names its special tokens in: vocab.txt ([MASK] on line 4, as the
// WordPiece fixture's), tokenizer_config.json ([MASK] as 7).
const vocabTxt = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', ...Array.from({ length: 55 }, (_, n) => `word${n}`)].join('\n');
const tokenizerConfig = JSON.stringify({ added_tokens_decoder: { 0: { content: '[PAD]' }, 7: { content: '[MASK]' } }, mask_token: '[MASK]' });
function folder(name, source, extra = {}) {
  mkdirSync(join(made, name), { recursive: true });
  for (const f of ['config.json', 'model.safetensors']) copyFileSync(join(modelsV2, source, f), join(made, name, f));
  for (const [f, text] of Object.entries(extra)) writeFileSync(join(made, name, f), text);
}

before(async () => {
  folder('llama-ids', 'llama-gqa');
  folder('bert-vocab', 'bert-mlm', { 'vocab.txt': vocabTxt });
  folder('bert-config', 'bert-mlm', { 'tokenizer_config.json': tokenizerConfig });
  folder('bert-bare', 'bert-mlm');
  folder('qwen-words', 'qwen2-bias-bf16', { 'tokenizer.json': JSON.stringify({ version: '1.0', model: { type: 'BPE', vocab: { a: 0 }, merges: [] } }) });
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  node.bert = await openFolder({ configText: readFileSync(join(modelsV2, 'bert-mlm', 'config.json'), 'utf8'), indexText: '',
    files: [{ name: 'model.safetensors', source: new Blob([readFileSync(join(modelsV2, 'bert-mlm', 'model.safetensors'))]) }] }, { engine, name: 'bert-mlm' });
});

async function modelPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  return page;
}
const named = (page, name) => page.waitForFunction((n) => document.querySelector('.model-name').textContent === n, `Model: ${name}`, { timeout: 60000 });
const tokensOf = async (page) => {
  await page.waitForFunction(() => document.querySelector('.model-view').dataset.tokens, null, { timeout: 60000 });
  return (await page.getAttribute('.model-view', 'data-tokens')).split(',').map(Number);
};
const tokensShown = (page, want) => page.waitForFunction((t) => document.querySelector('.model-view').dataset.tokens === t, want.join(','), { timeout: 60000 });
const chips = (page) => page.$$eval('.token-chip', (c) => c.map((e) => e.textContent));
const bars = (page) => page.$$eval('.next-token-bars li', (items) => items.map((li) => [li.querySelector('.next-token-text').textContent, li.querySelector('.next-token-p').textContent]));
const guide = (page) => page.evaluate(() => {
  const shown = (s) => { const e = document.querySelector(s); return !!e && !e.hidden; };
  return { startHere: shown('.start-here'), other: shown('.model-try'), what: document.querySelector('.model-try-what')?.textContent ?? '',
    title: document.querySelector('.model-try-title strong')?.textContent ?? '' };
});

// A valid start: ids below the vocabulary and within the context, as typed in the field, no error.
async function validStart(page, { vocab, length }) {
  await page.waitForFunction(() => document.querySelector('.model-view').dataset.tokens || !document.querySelector('.model-text-error').hidden, null, { timeout: 60000 });
  assert.equal(await page.isHidden('.model-text-error'), true, await page.textContent('.model-text-error'));
  const ids = await tokensOf(page);
  assert.ok(ids.length >= 2 && ids.length <= length, `${ids.length} ids, within ${length}`);
  for (const id of ids) assert.ok(Number.isSafeInteger(id) && id >= 0 && id < vocab, `${id} below ${vocab}`);
  assert.equal(await page.inputValue('.model-text-field textarea'), ids.join(', '));
  assert.equal(await page.textContent('.model-text-field label'), 'Token ids');
  assert.equal(await page.isHidden('.model-empty'), true);
  return ids;
}
const note = (vocab, length, mask = '') => `No tokenizer.json in this folder, so the model reads token ids, not words: type whole numbers from 0 to ${vocab - 1}, separated by commas or spaces (it reads ${length} at most).${mask}`;

test('a folder without tokenizer.json opens on ids valid for the model, with a note why, never on an error: picked over the default text, linked, and over a sentence typed', async () => {
  const page = await modelPage('#model=text-gpt');
  await page.waitForSelector('.start-here:not([hidden])', { timeout: 30000 });
  assert.equal(await page.inputValue('.model-text-field textarea'), 'To be, or not to be');
  // picked with the folder picker, over the default text (words)
  await page.setInputFiles('.model-source input[webkitdirectory]', join(made, 'llama-ids'));
  await named(page, '"llama-ids/"');
  const ids = await validStart(page, { vocab: 64, length: 32 });
  assert.deepEqual(ids, [12, 25, 38, 51, 12, 25, 38, 51], 'four ids spread over the vocabulary, then again');
  assert.equal(await page.textContent('.model-ids-note'), note(64, 32));
  assert.equal(await page.getAttribute('.model-text-field textarea', 'aria-describedby').then((d) => d.split(' ')[0]), await page.$eval('.model-ids-note', (n) => n.id));
  assert.equal((await page.$$eval('.model-thumb', (t) => t.length)), 2 * 4);
  assert.match(await page.evaluate(() => location.hash), /text=12%2C(%20|\+)25/, 'the link carries the starter');
  // words typed: one line naming the entry, the note still saying how
  await page.fill('.model-text-field textarea', 'the cat');
  await page.waitForSelector('.model-text-error:not([hidden])');
  assert.equal(await page.textContent('.model-text-error'), 'text: entry 1 of 2, "the", is not a whole number');
  // linked straight, with no text: the default text becomes this model's starter
  await page.evaluate(() => { window.location.hash = '#model=models-v2/qwen2-bias-bf16/'; });
  await named(page, '"models-v2/qwen2-bias-bf16/"');
  assert.deepEqual(await validStart(page, { vocab: 80, length: 48 }), [16, 32, 48, 64, 16, 32, 48, 64]);
  // a sentence typed for text-gpt, then a folder linked: ids again
  await page.evaluate(() => { window.location.hash = '#model=text-gpt&text=I%20love%20my%20cat'; });
  await named(page, 'text-gpt');
  await tokensOf(page);
  await page.evaluate(() => { window.location.hash = '#model=made/llama-ids/&text=I%20love%20my%20cat'; });
  await named(page, '"made/llama-ids/"');
  await validStart(page, { vocab: 64, length: 32 });
  // ids a link gives are kept
  await page.evaluate(() => { window.location.hash = '#model=made/llama-ids/&text=1%2C%207%2C%203'; });
  await tokensShown(page, [1, 7, 3]);
  // back to the shipped model: its words, not the ids
  await page.evaluate(() => { window.location.hash = '#model=made/bert-bare/'; });
  await named(page, '"made/bert-bare/"');
  await validStart(page, { vocab: 60, length: 32 });
  await page.evaluate(() => { window.location.hash = '#model=text-gpt'; });
  await named(page, 'text-gpt');
  await page.waitForFunction(() => document.querySelector('.model-text-field textarea').value === 'To be, or not to be');
  assert.equal(await page.isHidden('.model-ids-note'), true);
  assert.equal(await page.textContent('.model-text-field label'), 'Text');
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

// BERT's guesses at a position, as the bars show them: typed ids are <id>, the special ids by name.
function expectedBars(tokens, position, names) {
  node.bert.run(tokens);
  return node.bert.guessesAt(position).top.map(([id, p]) => [tokenText(names[id] ?? `<${id}>`), percent(p)]);
}

test('BERT\'s fill-in in ids: [MASK]\'s id from vocab.txt or tokenizer_config.json, the core\'s guesses there, and hints that say which number to type', async () => {
  const page = await modelPage('#model=made/bert-vocab/');
  await named(page, '"made/bert-vocab/"');
  const names = { 2: '[CLS]', 3: '[SEP]', 4: '[MASK]' };
  const ids = await validStart(page, { vocab: 60, length: 32 });
  assert.deepEqual(ids, [2, 12, 24, 4, 36, 3], '[CLS], a word, a word, [MASK], a word, [SEP]');
  assert.equal(await page.getAttribute('.model-view', 'data-mode'), 'fill');
  assert.equal(await page.textContent('.model-ids-note'), note(60, 32, ' 4 is [MASK]: type it where BERT should guess a word.'));
  assert.deepEqual(await chips(page), ['[CLS]', '<12>', '<24>', '[MASK]', '<36>', '[SEP]']);
  assert.equal(await page.textContent('.next-tokens h3'), 'Fill in [MASK] (token 3)');
  assert.deepEqual(await bars(page), expectedBars(ids, 3, names));
  // no [MASK] among the ids: the hint names its id
  await page.fill('.model-text-field textarea', '2, 12, 24, 36, 3');
  await tokensShown(page, [2, 12, 24, 36, 3]);
  assert.equal(await page.textContent('.next-tokens h3'), 'Fill in [MASK]');
  assert.equal(await page.textContent('.next-tokens-key'), 'No [MASK] in the text: type 4, [MASK]’s id, where BERT should guess a word, as in “2, 12, 4, 36, 3”. Or point at a token to see BERT’s guesses for its position.');
  assert.deepEqual(await bars(page), []);
  // typed as the hint says: the guesses at that place
  await page.fill('.model-text-field textarea', '2, 12, 4, 36, 3');
  await tokensShown(page, [2, 12, 4, 36, 3]);
  assert.equal(await page.textContent('.next-tokens h3'), 'Fill in [MASK] (token 2)');
  assert.deepEqual(await bars(page), expectedBars([2, 12, 4, 36, 3], 2, names));
  // a token not hidden, pointed at: how to hide it
  await page.hover('.token-chip[data-position="1"]');
  await page.waitForFunction(() => document.querySelector('.next-tokens').dataset.position === '1');
  assert.match(await page.textContent('.next-tokens-key'), /so this is no test\. Type 4, \[MASK\]’s id, in its place to hide it\.$/);
  assert.deepEqual(await bars(page), expectedBars([2, 12, 4, 36, 3], 1, names));
  assert.equal((await page.$$eval('.model-try li', (l) => l.map((e) => e.textContent)))[0], 'Move 4, [MASK]’s id, to another place in the ids: the bars show what BERT would put there.');
  await page.mouse.move(0, 0);
  // tokenizer_config.json's added_tokens_decoder names [MASK] as 7
  await page.evaluate(() => { window.location.hash = '#model=made/bert-config/'; });
  await named(page, '"made/bert-config/"');
  await page.waitForFunction(() => document.querySelector('.next-tokens h3')?.textContent.startsWith('Fill in [MASK] (token'), null, { timeout: 60000 });
  const withSeven = await tokensOf(page);
  assert.ok(withSeven.includes(7), `${withSeven} hides a word behind 7`);
  assert.match(await page.textContent('.model-ids-note'), / 7 is \[MASK\]: type it where BERT should guess a word\.$/);
  // a folder that names no [MASK]: the ids of any model, and a hint that says why no id hides a word
  await page.evaluate(() => { window.location.hash = '#model=made/bert-bare/'; });
  await named(page, '"made/bert-bare/"');
  assert.deepEqual(await validStart(page, { vocab: 60, length: 32 }), [12, 24, 36, 48, 12, 24, 36, 48]);
  assert.match(await page.textContent('.next-tokens-key'), /^This folder names no \[MASK\] id \(no tokenizer\.json, vocab\.txt or tokenizer_config\.json\)/);
  await page.hover('.token-chip[data-position="1"]');
  await page.waitForFunction(() => document.querySelector('.next-tokens').dataset.position === '1');
  assert.match(await page.textContent('.next-tokens-key'), /so this is no test\. This folder names no \[MASK\] id, so no id hides a word\.$/);
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
  await page.context().close();
});

test('"Start here" describes the model open, however it opened: the default, a file, a folder picked, a folder linked, one without a tokenizer, one that cannot read the text', async () => {
  const page = await modelPage('#model=text-gpt');
  await page.waitForSelector('.start-here:not([hidden])', { timeout: 30000 });
  assert.match(await page.textContent('.start-here-what'), /^This is text-gpt, /);
  assert.equal((await guide(page)).other, false);
  const expect = async (name, what) => {
    await named(page, name);
    await page.waitForFunction((w) => document.querySelector('.model-try-what')?.textContent === w && !document.querySelector('.model-try').hidden, what, { timeout: 60000 })
      .catch(() => {});
    assert.deepEqual(await guide(page), { startHere: false, other: true, what, title: 'Start here' }, name);
  };
  // a folder whose tokenizer.json has no token for the text: nothing drawn, and still its own guide
  await page.evaluate(() => { window.location.hash = '#model=made/qwen-words/'; });
  await named(page, '"made/qwen-words/"');
  await page.waitForSelector('.model-text-error:not([hidden])', { timeout: 60000 });
  await expect('"made/qwen-words/"', 'This is "made/qwen-words/", a Qwen2 that guesses the next token. It reads your text through its folder’s tokenizer.json.');
  // a file from disk: the shipped model's weights, but a file the learner chose
  await page.setInputFiles('.model-source input[type=file]', join(root, 'web', 'models', 'text-gpt.safetensors'));
  await expect('"text-gpt.safetensors"', 'This is "text-gpt.safetensors", a GPT that guesses the next token. It reads your text, a character a token.');
  // a folder picked, with no tokenizer.json
  await page.setInputFiles('.model-source input[webkitdirectory]', join(made, 'llama-ids'));
  await expect('"llama-ids/"', 'This is "llama-ids/", a Llama that guesses the next token. It reads token ids you type, as its folder has no tokenizer.json.');
  // a folder linked: a BERT
  await page.evaluate(() => { window.location.hash = '#model=made/bert-vocab/'; });
  await expect('"made/bert-vocab/"', 'This is "made/bert-vocab/", a BERT encoder that guesses words hidden behind [MASK]. It reads token ids you type, as its folder has no tokenizer.json.');
  await page.evaluate(() => { window.location.hash = '#model=models-v2/bert-base-model-f16/'; });
  await expect('"models-v2/bert-base-model-f16/"', 'This is "models-v2/bert-base-model-f16/", a BERT encoder saved without its head that guesses words: the page shows its attention only. It reads token ids you type, as its folder has no tokenizer.json.');
  // back to the shipped model: its own box, the other gone
  await page.evaluate(() => { window.location.hash = '#model=text-gpt'; });
  await named(page, 'text-gpt');
  await page.waitForSelector('.start-here:not([hidden])', { timeout: 30000 });
  assert.equal((await guide(page)).other, false);
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
  await page.context().close();
});

test('screenshots: a folder without tokenizer.json opened, and BERT\'s hint in ids, at 1280 × 720 light and 390 × 844 dark', async () => {
  for (const [width, height, colorScheme] of [[1280, 720, 'light'], [390, 844, 'dark']]) {
    for (const [name, hash, vocab, text] of [['model-ids-folder', '#model=made/llama-ids/', 64, null], ['model-ids-bert-hint', '#model=made/bert-vocab/', 60, '2, 12, 24, 36, 3']]) {
      const page = await modelPage(hash, { viewport: { width, height }, colorScheme });
      await validStart(page, { vocab, length: 32 });
      if (text) {
        await page.fill('.model-text-field textarea', text);
        await page.waitForFunction(() => document.querySelector('.next-tokens h3')?.textContent === 'Fill in [MASK]', null, { timeout: 60000 });
      }
      await page.waitForSelector('.model-try:not([hidden])', { timeout: 30000 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, `${name}: no sideways scroll at ${width}`);
      await page.evaluate((hint) => document.querySelector(hint ? '.model-text-field' : '.model-name').scrollIntoView(), !!text);
      await page.screenshot({ path: join(screenshotDir, `${name}-${width}-${colorScheme}.png`) });
      if (text) {
        await page.evaluate(() => document.querySelector('.next-tokens').scrollIntoView());
        await page.screenshot({ path: join(screenshotDir, `${name}-bars-${width}-${colorScheme}.png`) });
      }
      await page.context().close();
    }
  }
});
