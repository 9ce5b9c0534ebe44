// A family the page has no entry of its own for: a DistilBERT folder
// (models-v3.md section 7) opens as the core's facts say, its name, its
// [MASK] and its starter sentence on the info (web/model/family.js), never
// as GPT-2. Screenshots at 1280 × 720 light and 390 × 844 dark.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { folderRoute, openPage, root, screenshotDir, useBrowser } from './browser.mjs';

const made = mkdtempSync(join(tmpdir(), 'model-distilbert-'));
const env = useBrowser({ csp: true, route: folderRoute({ '/made/': made }) });

before(() => {
  // the fixture's WordPiece tokenizer.json grown to the folder's 40 tokens
  const fixture = JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'tokenizers', 'bert-wordpiece.json'), 'utf8'));
  ['sun', 'rises', 'in', 'east', 'bank', 'river', 'money', 'is', 'was', 'it', 'he', 'she', 'they', 'big', 'small', 'red', 'blue',
    'ran', 'over', 'under', 'bed', 'floor', 'chair'].forEach((w, n) => { fixture.model.vocab[w] = 17 + n; });
  assert.equal(Object.keys(fixture.model.vocab).length, 40);
  const dir = join(made, 'distilbert-words');
  mkdirSync(dir, { recursive: true });
  for (const f of ['config.json', 'model.safetensors']) copyFileSync(join(root, 'tests', 'models-v3', 'distilbert-mlm', f), join(dir, f));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(fixture));
  // no tokenizer.json: ids typed, [MASK] on line 4 of vocab.txt
  const ids = join(made, 'distilbert-ids');
  mkdirSync(ids, { recursive: true });
  for (const f of ['config.json', 'model.safetensors']) copyFileSync(join(root, 'tests', 'models-v3', 'distilbert-mlm', f), join(ids, f));
  writeFileSync(join(ids, 'vocab.txt'), ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', ...Array.from({ length: 35 }, (_, n) => `word${n}`)].join('\n'));
});

async function modelPage(options) {
  const page = await openPage(env.browser, `${env.url}#model=made/distilbert-words/`, options);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state) && document.querySelector('.model-view').dataset.tokens, null, { timeout: 30000 });
  return page;
}

test('a DistilBERT folder shows as DistilBERT: title, facts line, family line, [MASK] field and starter, all from the core\'s facts', async () => {
  const page = await modelPage();
  const shown = await page.evaluate(() => ({
    state: document.querySelector('.model-view').dataset.state,
    mode: document.querySelector('.model-view').dataset.mode,
    title: document.getElementById('lesson-title').textContent,
    facts: document.querySelector('.model-facts')?.textContent ?? null,
    family: document.querySelector('.model-family').textContent,
    text: document.querySelector('.model-text-field textarea')?.value ?? null,
    placeholder: document.querySelector('.model-text-field textarea')?.placeholder ?? null,
  }));
  assert.equal(shown.state, 'ready');
  assert.equal(shown.mode, 'fill');
  assert.equal(shown.title, 'A real DistilBERT: every head of every layer');
  assert.match(shown.facts, /^DistilBERT: 2 layers × 2 heads of 6, embedding 12, a vocabulary of 40 tokens \(its tokenizer\.json\), reads up to 12 tokens \(every token reads every token, both ways\), with its masked-LM head, /);
  assert.match(shown.family, /^DistilBERT is an encoder: .*hidden behind \[MASK\]/);
  assert.equal(shown.text, 'the cat sat on the [MASK].');
  assert.equal(shown.placeholder, 'a sentence with [MASK], like: the cat sat on the [MASK].');
  assert.equal(await page.$eval('.model-text-field label', (l) => l.textContent), 'Type a sentence with [MASK]');
  assert.equal(await page.getByText('GPT-2', { exact: true }).count(), 0);
  // the panels name it too: the bars' key, why no Generate, the "Start here" line
  const said = await page.evaluate(() => ({
    key: document.querySelector('.next-tokens-key').textContent,
    note: document.querySelector('.model-encoder-note').textContent,
    tries: [...document.querySelectorAll('.model-try li')].map((li) => li.textContent),
  }));
  assert.match(said.key, /^DistilBERT’s 10 likeliest tokens for the hidden word/);
  assert.match(said.note, /^No Generate: an encoder does not write text\. DistilBERT reads the whole sentence at once/);
  assert.ok(said.tries.includes('Move [MASK] to another word: the bars show what DistilBERT would put there.'), said.tries.join(' | '));
  assert.doesNotMatch(JSON.stringify(said), /\bBERT/);
  await page.context().close();
});

test('a DistilBERT folder without tokenizer.json: [MASK]\'s id from vocab.txt hides a word, as a BERT\'s does (screenshots)', async () => {
  for (const [width, height, colorScheme] of [[1280, 720, 'light'], [390, 844, 'dark']]) {
    const page = await openPage(env.browser, `${env.url}#model=made/distilbert-ids/`, { viewport: { width, height }, colorScheme });
    await page.waitForFunction(() => document.querySelector('.model-view')?.dataset.state === 'ready' && document.querySelector('.model-view').dataset.tokens, null, { timeout: 30000 });
    assert.equal(await page.getAttribute('.model-view', 'data-mode'), 'fill');
    // [CLS], two words, [MASK], a word, [SEP]: ids-start.js's starter with the folder's special ids
    assert.deepEqual((await page.getAttribute('.model-view', 'data-tokens')).split(',').map(Number), [2, 8, 16, 4, 24, 3]);
    assert.match(await page.textContent('.model-ids-note'), / 4 is \[MASK\]: type it where DistilBERT should guess a word\.$/);
    assert.equal(await page.textContent('.next-tokens h3'), 'Fill in [MASK] (token 3)');
    assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
    await page.evaluate(() => document.querySelector('.model-name').scrollIntoView());
    await page.screenshot({ path: join(screenshotDir, `model-distilbert-ids-${width}-${colorScheme}.png`), fullPage: true });
    await page.context().close();
  }
});

test('screenshots: a DistilBERT folder filling in, 1280 × 720 light and 390 × 844 dark', async () => {
  for (const [width, height, colorScheme] of [[1280, 720, 'light'], [390, 844, 'dark']]) {
    const page = await modelPage({ viewport: { width, height }, colorScheme });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, `no sideways scroll at ${width}`);
    await page.evaluate(() => document.querySelector('.model-name').scrollIntoView());
    await page.screenshot({ path: join(screenshotDir, `model-distilbert-fill-${width}-${colorScheme}.png`), fullPage: true });
    await page.context().close();
  }
});
