// Generated tokens join the Model view (issue 31): after Generate the model
// runs on the prompt's tokens and the generated ids as drawn, the chips, the
// heads and the bars cover the whole text, generated tokens are marked apart
// (class, accessible name, a legend, "(generated)" in the bars' title), the
// last generated position shows the core's guesses after it (node's wasm),
// an edit unmarks only what the learner changed, and the link keeps it all
// across a reload; a link whose run is not the text there says so in one
// line. Screenshots at 1280 × 720 and 390 × 844, light and dark.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadModelEngine, openModel } from '../../web/engine/model.js';
import { gpt2Tokenizer } from '../../web/model/tokens.js';
import { tokenText } from '../../web/views/format.js';
import { percent } from '../../web/views/next-tokens.js';
import { gptFile } from './gpt-file.mjs';
import { folderRoute, openPage, root, shot, useBrowser } from './browser.mjs';

// a GPT-2-vocabulary model file served beside the site, so a link can name it
const dir = mkdtempSync(join(tmpdir(), 'model-generated-'));
const env = useBrowser({ csp: true, route: folderRoute({ '/test-models/': dir }) });
const text = 'To be, or not to be';
const node = {};
const wasm = join(root, 'build', 'wasm');

before(async () => {
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  node.model = await openModel(new Blob([readFileSync(join(root, 'web', 'models', 'text-gpt.safetensors'))]), { engine, name: 'text-gpt' });
  node.vocabulary = node.model.info.vocabulary;
  node.engine = engine;
});

async function modelPage(hash, options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await settled(page);
  return page;
}
async function settled(page) {
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  await page.waitForSelector('.next-token-bars li');
}

const hashOf = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(window.location.hash.slice(1))));
// The chips as shown: [position, generated class, accessible name or null].
const chips = (page) => page.$$eval('.token-chip', (all) => all.map((c) => [Number(c.dataset.position), c.classList.contains('generated'), c.getAttribute('aria-label')]));
const generatedAt = async (page) => (await chips(page)).filter(([, on]) => on).map(([t]) => t);
const shownTokens = (page) => page.$eval('.model-view', (v) => v.dataset.tokens.split(',').map(Number));
const bars = (page) => page.$$eval('.next-token-bars li', (items) => items.map((li) => [li.querySelector('.next-token-text').textContent, li.querySelector('.next-token-p').textContent]));
// The core's guesses after position `at` of `tokens` at temperature t (top-k and top-p off).
function expected(tokens, at, t = 0.8) {
  node.model.run(tokens);
  const g = node.model.temper(t, { topK: 0, topP: 1 });
  return Array.from({ length: 10 }, (_, n) => [tokenText(node.vocabulary[g.ids[at * g.k + n]]), percent(g.drawn[at * g.k + n])]);
}
const range = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);

async function generate(page, count) {
  await page.click('.model-generate button.primary');
  await page.waitForFunction((n) => document.querySelectorAll('.token-chip').length === n, count);
}

test('Generate: the model runs on prompt + generated ids, marked apart, each generated position inspectable, kept across a reload', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}`, { viewport: { width: 1280, height: 720 } });
  const prompt = node.model.encode(text);
  assert.equal(await page.isHidden('.model-generated-legend'), true);
  // the view's first seed is 1, its temperature 0.8
  const added = node.model.generate(prompt, 10, { temperature: 0.8, seed: 1 });
  await generate(page, prompt.length + 10);
  const all = [...prompt, ...added];
  assert.deepEqual(await shownTokens(page), all);
  assert.equal(await page.inputValue('.model-text-field textarea'), text + node.model.decode(added));
  assert.deepEqual(await generatedAt(page), range(prompt.length, all.length));
  const last = (await chips(page)).at(-1);
  assert.equal(last[2], `${tokenText(node.vocabulary[added.at(-1)])}, generated`);
  assert.equal(await page.isVisible('.model-generated-legend'), true);
  assert.match(await page.textContent('.model-generated-legend'), /what Generate wrote/);
  // resting: the guesses after the last token, which Generate wrote
  assert.match(await page.textContent('.next-tokens h3'), /^Next token after the last token, ".*" \(generated\)$/);
  assert.deepEqual(await bars(page), expected(all, all.length - 1));
  // a generated position in the middle, inspected like a typed one
  const at = prompt.length + 4;
  await page.hover(`.token-chip[data-position="${at}"]`);
  assert.match(await page.textContent('.next-tokens h3'), new RegExp(`^Next token after token ${at}, ".*" \\(generated\\)$`));
  assert.deepEqual(await bars(page), expected(all, at));
  assert.equal(await page.$eval('.next-tokens', (b) => b.dataset.position), String(at));
  // a typed one says nothing of the kind
  await page.hover('.token-chip[data-position="2"]');
  assert.equal(await page.textContent('.next-tokens h3'), 'Next token after token 2, "␣"');  // a space as its chip shows it
  await page.mouse.move(5, 5);
  // the link: the run's start and its ids
  await page.waitForFunction(() => new URLSearchParams(window.location.hash.slice(1)).has('generated'));
  assert.equal((await hashOf(page)).generated, `${text.length}_${added.join('.')}`);
  await page.reload();
  await settled(page);
  await page.waitForFunction((n) => document.querySelectorAll('.token-chip').length === n, all.length);
  assert.deepEqual(await shownTokens(page), all);
  assert.deepEqual(await generatedAt(page), range(prompt.length, all.length));
  await page.hover(`.token-chip[data-position="${all.length - 1}"]`);
  assert.deepEqual(await bars(page), expected(all, all.length - 1));
  // Generate again: the second run joins the first; text-gpt reads 32
  // tokens at most, so the window slides past the prompt's first 7
  const more = node.model.generate(all, 10, { temperature: 0.8, seed: 1 });  // a reloaded page starts at seed 1
  await generate(page, 32);
  const cut = all.length + 10 - 32;
  assert.deepEqual(await shownTokens(page), [...all, ...more].slice(cut));
  assert.deepEqual(await generatedAt(page), range(prompt.length - cut, 32));
  assert.match(await page.textContent('.model-text-note'), /the first 7 are left out/);
  await page.waitForFunction((g) => new URLSearchParams(window.location.hash.slice(1)).get('generated') === g, `${text.length}_${[...added, ...more].join('.')}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('GPT-2\'s BPE: the views show the ids Generate drew, not its text read again (which splits otherwise), and a link opens on them', async () => {
  const gpt2 = await import('gpt-tokenizer/encoding/gpt2');
  const tokenizer = gpt2Tokenizer(gpt2, (await import('gpt-tokenizer/bpeRanks/r50k_base')).default);
  // the final LayerNorm gives ones whatever the input, and only the
  // unembedding's rows of "e" and "s" (GPT-2's 68 and 82) sum to 16: the model
  // writes "e" and "s", which the BPE reads back merged with "be" and each other
  const embed = 8;
  const bytes = gptFile({
    embed, heads: 2, layers: 1, length: 64, tokenizer: 'gpt2',
    weight: (name, i) => {
      if (name === 'transformer.ln_f.weight') return 0;
      if (name === 'transformer.ln_f.bias') return 1;
      if (name === 'lm_head.weight') return [68, 82].includes(Math.floor(i / embed)) ? 2 : 0;
      return undefined;
    },
  });
  writeFileSync(join(dir, 'bpe.safetensors'), bytes);
  const model = await openModel(new Blob([bytes]), { engine: node.engine });
  const prompt = gpt2.encode('To be');
  const added = model.generate(prompt, 10, { temperature: 0.8, seed: 1 });
  const all = [...prompt, ...added];
  assert.ok(added.every((id) => id === 68 || id === 82), `e and s: ${added}`);
  const written = `To be${gpt2.decode(added)}`;
  assert.notDeepEqual(gpt2.encode(written), all, 'the text read again is other tokens: what this test is about');
  const page = await modelPage('#model=/test-models/bpe.safetensors&text=To%20be', { viewport: { width: 1280, height: 720 } });
  await generate(page, all.length);
  assert.equal(await page.inputValue('.model-text-field textarea'), written);
  assert.deepEqual(await shownTokens(page), all);
  assert.deepEqual(await generatedAt(page), range(prompt.length, all.length));
  // the guesses after the last generated token are the core's after these ids
  const run = model.run(all);
  const { k, ids } = run.top;
  await page.hover(`.token-chip[data-position="${all.length - 1}"]`);
  assert.deepEqual((await bars(page)).map(([t]) => t), Array.from({ length: 10 }, (_, n) => tokenText(tokenizer.label(ids[(all.length - 1) * k + n]))));
  await page.waitForFunction(() => new URLSearchParams(window.location.hash.slice(1)).has('generated'));
  const link = page.url();
  await page.context().close();
  const again = await modelPage(link.slice(link.indexOf('#')), { viewport: { width: 1280, height: 720 } });
  await again.waitForFunction((n) => document.querySelectorAll('.token-chip').length === n, all.length);
  assert.deepEqual(await shownTokens(again), all);
  assert.deepEqual(await generatedAt(again), range(prompt.length, all.length));
  assert.deepEqual(again.problems, []);
  await again.context().close();
});

test('an edit unmarks only what the learner changed; their text is never lost', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}`, { viewport: { width: 1280, height: 720 } });
  const prompt = node.model.encode(text);
  await generate(page, prompt.length + 10);
  const field = page.locator('.model-text-field textarea');
  const written = await field.inputValue();
  const n = written.length;
  // one generated character replaced: that token is the learner's, the others stay Generate's
  const at = text.length + 3;
  const swap = written[at] === 'e' ? 'a' : 'e';
  await field.evaluate((f, [at, swap]) => {
    f.setRangeText(swap, at, at + 1);
    f.dispatchEvent(new Event('input', { bubbles: true }));
  }, [at, swap]);
  await page.waitForFunction(([at, swap]) => document.querySelector(`.token-chip[data-position="${at}"]`).textContent === (swap === ' ' ? '␣' : swap), [at, swap]);
  assert.deepEqual(await generatedAt(page), range(text.length, n).filter((t) => t !== at));
  // typed at the end: the generated ones stay, the new one is typed
  await field.press('End');
  await field.type('x');
  await page.waitForFunction((n) => document.querySelectorAll('.token-chip').length === n, n + 1);
  assert.deepEqual(await generatedAt(page), range(text.length, n).filter((t) => t !== at));
  // the prompt changed ("To" → "So"): the generated text after it stays marked
  await field.evaluate((f) => {
    f.setRangeText('S', 0, 1);
    f.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => document.querySelector('.token-chip[data-position="0"]').textContent === 'S');
  assert.deepEqual(await generatedAt(page), range(text.length, n).filter((t) => t !== at));
  assert.equal(await field.inputValue(), `S${written.slice(1, at)}${swap}${written.slice(at + 1)}x`);
  // the link: two runs around the changed character
  await page.waitForFunction(() => /^\d+_[\d.]+-\d+_[\d.]+$/.test(new URLSearchParams(window.location.hash.slice(1)).get('generated') ?? ''));
  // everything deleted and typed again: nothing is marked
  await field.fill('To be');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip').length === 5);
  assert.deepEqual(await generatedAt(page), []);
  assert.equal(await page.isHidden('.model-generated-legend'), true);
  await page.waitForFunction(() => !new URLSearchParams(window.location.hash.slice(1)).has('generated'));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a link whose generated run is not the text there, or not the model\'s, is read as typed text, in one line', async () => {
  const tokens = node.model.encode(text);
  // the run says "T" (the first character's id) at 3, where the text has "b"
  let page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&generated=3_${tokens[0]}`, { viewport: { width: 1280, height: 720 } });
  assert.deepEqual(await generatedAt(page), []);
  assert.equal(await page.textContent('.model-text-note'), 'generated: the run at character 3 is not the text there: read as typed text');
  assert.deepEqual(await shownTokens(page), tokens);
  await page.context().close();
  page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&generated=17_${tokens[17]}.999`, { viewport: { width: 1280, height: 720 } });
  assert.equal(await page.textContent('.model-text-note'), 'generated: the run at character 17 holds token 999, past the model\'s 81 tokens: read as typed text');
  assert.deepEqual(await generatedAt(page), []);
  await page.context().close();
  // runs out of the text's order: the second is left out
  page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&generated=17_${tokens[17]}-3_${tokens[3]}`, { viewport: { width: 1280, height: 720 } });
  assert.equal(await page.textContent('.model-text-note'), 'generated: the run at character 3 starts before the run before it ends: read as typed text');
  assert.deepEqual(await generatedAt(page), [17]);
  await page.waitForFunction((g) => new URLSearchParams(window.location.hash.slice(1)).get('generated') === g, `17_${tokens[17]}`);
  await page.context().close();
  // a run that is the text there: marked, as Generate would have
  page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&generated=17_${tokens.slice(17).join('.')}`, { viewport: { width: 1280, height: 720 } });
  assert.deepEqual(await generatedAt(page), [17, 18]);
  assert.equal(await page.isHidden('.model-text-note'), true);
  await page.context().close();
  // a form that is not runs at all: the page's link line
  page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}&generated=x`, { viewport: { width: 1280, height: 720 } });
  assert.match(await page.textContent('#notice'), /generated must be runs of start_id\.id… joined by -/);
  assert.deepEqual(await generatedAt(page), []);
  await page.context().close();
});

test('the bars\' title names a space or a newline as its chip shows it (␣, ↵), never as " "', async () => {
  const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent('To be\nor')}`, { viewport: { width: 1280, height: 720 } });
  await page.hover('.token-chip[data-position="2"]');
  assert.equal(await page.textContent('.next-tokens h3'), 'Next token after token 2, "␣"');
  await page.hover('.token-chip[data-position="5"]');
  assert.equal(await page.textContent('.next-tokens h3'), 'Next token after token 5, "↵"');
  await page.context().close();
});

test('screenshots: generated tokens marked apart, at 1280 × 720 and 390 × 844, light and dark', async () => {
  for (const colorScheme of ['light', 'dark'])
    for (const [width, height] of [[1280, 720], [390, 844]]) {
      const page = await modelPage(`#model=text-gpt&text=${encodeURIComponent(text)}`, { viewport: { width, height }, colorScheme });
      await generate(page, 29);
      await page.hover('.token-chip[data-position="25"]');
      await shot(page, `model-generated-${width}-${colorScheme}`);
      await page.context().close();
    }
});
