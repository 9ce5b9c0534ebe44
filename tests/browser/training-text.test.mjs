// The training view on text: the lecture's ladder trains in the page, its
// samples kept in the timeline, characters as labels (newline, tab and space
// visible, the learner's own text never markup), the core's top guesses under
// the probe, the learner's own text and corpus refused by the core in one
// line (a lone surrogate too), and a GPT head opened in the playground on its real numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadEngine } from '../../web/engine/engine.js';
import { tokenText } from '../../web/views/format.js';
import { openPage, root, shot, useBrowser } from './browser.mjs';

const env = useBrowser();
const goldenTrace = (id) => JSON.parse(readFileSync(join(root, 'tests', 'golden-training', `${id}.trace.json`), 'utf8'));
const corpus = readFileSync(join(root, 'tests', 'golden-training', 'literature.txt'), 'utf8');
const ladder = JSON.parse(readFileSync(join(root, 'web', 'lessons', 'ladder.json'), 'utf8'));

const view = (page) => page.evaluate(() => {
  const r = document.querySelector('.training');
  return { state: r?.dataset.state, step: Number(r?.dataset.step), evaluations: Number(r?.dataset.evaluations), playing: r?.dataset.playing };
});

async function trainingPage(hash, options = {}) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  await page.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 30000 });
  return page;
}

const row = (page, n) => page.$$eval(`.training-predictions tr:nth-child(${n}) td`, (cells) => cells.map((c) => c.textContent));

test('text-gpt in the page: characters as labels, the core\'s guesses under the probe, step 0\'s sample, unpaced by default', async () => {
  const page = await trainingPage('#train=text-gpt');
  const trace = goldenTrace('text-gpt');
  assert.match(await page.textContent('#train-status'), /^Step 0 of 1100 · validation loss 4\.\d{3} at step 0$/);
  assert.match(await page.textContent('.training-about'), /2 layers of 4 heads, embedding 64, an MLP 4× wide, LayerNorm, biases, GELU, [\d,]+ trained weights; 81 distinct characters, 48,228 to train on and 5,359 to validate/);
  assert.equal(await page.$eval('#train-speed', (s) => s.value), '0', 'a language model trains as fast as it goes');
  assert.deepEqual(await page.$$eval('.training-heads figure', (f) => f.map((x) => x.dataset.matrix)),
    ['attention-l0h0', 'attention-l0h1', 'attention-l0h2', 'attention-l0h3', 'attention-l1h0', 'attention-l1h1', 'attention-l1h2', 'attention-l1h3']);
  // the probe's characters, as labels show them, and the targets one to the left
  const probe = trace.probe.tokens.map((t) => tokenText(trace.vocab_chars[t]));
  assert.deepEqual(await row(page, 1), probe);
  assert.deepEqual(await row(page, 2), trace.probe.targets.map((t) => tokenText(trace.vocab_chars[t])));
  assert.ok(probe.includes('␣') && !probe.includes(' '), 'spaces are visible');
  // three guesses per character, most probable first; step 0's sample is PyTorch's, character for character
  assert.equal(await page.getAttribute('.training-predictions', 'data-guesses'), '32');
  assert.equal((await row(page, 5)).length, 32);
  assert.match((await row(page, 3))[0], /^.(\d+%|<1%)$/u);
  assert.equal(await page.getAttribute('.training-sample', 'data-step'), '0');
  assert.equal(await page.textContent('.training-sample-text'), trace.evals[0].sample);
  assert.equal(await page.getAttribute('.training figure[data-view="graph"]', 'data-edges'), '528', '32 · 33 / 2 causal edges');
  // the graph's chips carry the characters too
  assert.ok(Number(await page.getAttribute('.training figure[data-view="graph"]', 'data-labels')) > 0);
  await shot(page, 'training-text-gpt-start');
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('.training').dataset.step) >= 3, null, { timeout: 60000 });
  await page.click('#train-play');
  await page.waitForFunction(() => document.querySelector('.training').dataset.worker === 'paused');
  const paused = (await view(page)).step;
  assert.match(await page.textContent('#train-status'), new RegExp(`^Step ${paused} of 1100 · validation loss 4\\.\\d{3} at step 0$`));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a bigram trains to the end: its samples stay in the timeline, scrubbing back shows step 0\'s text; no heads to show', async () => {
  const page = await trainingPage('#train=text-bigram');
  assert.equal(await page.isVisible('.training-no-heads'), true);
  assert.equal(await page.$$eval('.training-heads figure', (f) => f.length), 0);
  assert.equal(await page.isVisible('#train-open'), false);
  await page.click('#train-play');
  await page.waitForFunction(() => document.querySelector('#train-play').textContent === 'Trained', null, { timeout: 240000 });
  const rung = ladder.rungs.find((r) => r.id === 'text-bigram');
  assert.equal((await view(page)).evaluations, rung.evals.length);
  assert.equal(await page.getAttribute('.training-sample', 'data-step'), '1500');
  // the page's run is the core's run: the lesson's numbers, sample for sample
  assert.equal(await page.textContent('.training-sample-text'), rung.evals.at(-1).sample);
  assert.match(await page.textContent('#train-status'), new RegExp(`validation loss ${rung.evals.at(-1).loss.toFixed(3)} at step 1500$`));
  await shot(page, 'training-text-bigram-trained');
  await page.$eval('#train-timeline', (input) => { input.value = '0'; input.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await page.getAttribute('.training-sample', 'data-step'), '0');
  assert.equal(await page.textContent('.training-sample-text'), goldenTrace('text-bigram').evals[0].sample);
  await page.$eval('#train-timeline', (input) => { input.value = '5'; input.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await page.textContent('.training-sample-text'), rung.evals[5].sample);
  assert.match(await page.textContent('.training-timeline output'), /step 500$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the learner\'s own text on the probe: its characters and guesses; a character outside the vocabulary is the core\'s line', async () => {
  const page = await trainingPage('#train=text-one-head');
  await page.fill('#train-own', 'To be, or not');
  await page.click('.training-own button[type="submit"]');
  await page.waitForFunction(() => /your text/.test(document.querySelector('.training-timeline output').textContent));
  assert.deepEqual(await row(page, 1), [...'To be, or not'].map(tokenText));
  assert.equal(await page.getAttribute('.training-predictions', 'data-guesses'), '13');
  await page.fill('#train-own', 'café <b>');
  await page.click('.training-own button[type="submit"]');
  await page.waitForFunction(() => !document.querySelector('#train-own-error').hidden);
  assert.equal(await page.textContent('#train-own-error'), 'text: character 3 ("é") is not in the corpus\'s vocabulary');
  assert.equal(await page.inputValue('#train-own'), 'café <b>', 'the learner\'s text stays');
  await page.fill('#train-own', 'x'.repeat(40));
  await page.click('.training-own button[type="submit"]');
  await page.waitForFunction(() => /33|40/.test(document.querySelector('#train-own-error').textContent));
  assert.equal(await page.textContent('#train-own-error'), 'text: expected 1 to 32 characters, got 40');
  // a lone surrogate (made in the page: the protocol would not carry one) is
  // the core's line, never glued to the "b" after it
  await page.evaluate(() => { document.querySelector('#train-own').value = 'To \uD800be'; });
  await page.click('.training-own button[type="submit"]');
  await page.waitForFunction(() => /surrogate/.test(document.querySelector('#train-own-error').textContent));
  assert.equal(await page.textContent('#train-own-error'), 'text: not valid Unicode: a lone surrogate U+D800 at character 3 (UTF-16 code units, from 0)');
  assert.equal((await view(page)).state, 'ready');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// The learner's own corpus: pasted (inside the training file, 64 KiB) or
// opened (bytes, 4 MiB); every refusal is the core's line under the text.
test('your own text: refusals under the field keep the run and the text; a small model trains on it, shown safely', async () => {
  const page = await trainingPage('#train=text-one-head');
  await page.click('.training-settings summary');
  assert.equal(await page.$eval('#train-task', (s) => s.value), 'text', 'the preset\'s settings to start from');
  assert.equal(await page.inputValue('#train-heads'), '1');
  assert.match(await page.textContent('#train-text-hint'), /64 KiB.*4 MiB/);
  const refused = async (message) => {
    await page.click('#train-custom');
    await page.waitForFunction(() => !document.querySelector('#train-corpus-error').hidden);
    const line = await page.textContent('#train-corpus-error');
    if (message instanceof RegExp) assert.match(line, message);
    else assert.equal(line, message);
    assert.equal((await view(page)).state, 'ready', 'the current run stays');
    assert.equal(await page.$eval('#train-preset', (s) => s.value), 'text-one-head');
    await page.evaluate(() => { document.querySelector('#train-corpus-error').hidden = true; });
  };
  await page.selectOption('#train-corpus', 'paste');
  await page.fill('#train-text', 'too short');
  await refused(/^task\.length: 32 is not shorter than each split of the corpus \(8 and 1 characters/);
  assert.equal(await page.inputValue('#train-text'), 'too short');
  await page.fill('#train-text', 'ab'.repeat(40000));
  await refused(/^training: \d+ bytes exceed the limit of 65536$/);
  await page.selectOption('#train-corpus', 'file');
  await page.setInputFiles('#train-file', { name: 'My Notes.txt', mimeType: 'text/plain', buffer: Buffer.from([...Buffer.from('hello '.repeat(100)), 0xff, 0x41]) });
  await refused('task.corpus: my-notes.txt: not valid UTF-8 (byte 600)');
  await page.setInputFiles('#train-file', { name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc((4 << 20) + 1, 97) });
  await refused('task.corpus: big.txt has 4194305 bytes, beyond the limit of 4194304');
  // accepted: a pasted text with markup and control characters, on a small model
  const text = `${'<b>Hello</b>\tworld\u0001 & "friends".\n'.repeat(40)}`;
  await page.selectOption('#train-corpus', 'paste');
  await page.fill('#train-text', text);
  await page.fill('#train-length', '16');
  await page.fill('#train-embed', '16');
  await page.fill('#train-mlp', '0');
  await page.fill('#train-steps', '30');
  await page.click('#train-custom');
  await page.waitForFunction(() => /^Your language model/.test(document.querySelector('.training-about').textContent), null, { timeout: 30000 });
  assert.ok(await page.isHidden('#train-corpus-error'));
  const chars = await row(page, 1);
  assert.equal(chars.length, 16);
  assert.ok(chars.every((c) => !/[\u0000-\u001f]/.test(c)), `no raw control character: ${JSON.stringify(chars)}`);
  assert.equal(await page.$$eval('.training b, .training script', (e) => e.length), 0, 'the text is never markup');
  assert.match(await page.textContent('.training-sample-text'), /^[^\u0001]*$/);
  await page.click('#train-play');
  await page.waitForFunction(() => document.querySelector('#train-play').textContent === 'Trained', null, { timeout: 60000 });
  assert.equal((await view(page)).step, 30);
  await shot(page, 'training-text-own');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a text-gpt head opens in the playground: characters as tokens, its biases, the training view\'s weights', async () => {
  const page = await trainingPage('#train=text-gpt');
  await page.click('#train-step');
  await page.waitForFunction(() => Number(document.querySelector('.training').dataset.step) === 1, null, { timeout: 30000 });
  await page.click('#train-step');
  await page.waitForFunction(() => Number(document.querySelector('.training').dataset.step) === 2, null, { timeout: 30000 });
  await page.click('.training-heads figure[data-matrix="attention-l1h2"]');
  await page.click('#train-open');
  await page.waitForFunction(() => document.querySelector('#app').dataset.view === 'playground' && document.querySelector('#app').dataset.state === 'ready', null, { timeout: 30000 });
  assert.equal(await page.textContent('#title'), 'text-gpt: layer 1, head 2 after 2 steps');
  const trace = goldenTrace('text-gpt');
  assert.deepEqual(await page.$$eval('#tokens .token-text', (t) => t.map((x) => x.textContent)), trace.probe.tokens.map((t) => tokenText(trace.vocab_chars[t])));
  // the same model in Node's wasm: two steps, then the head's weights on the probe
  const wasm = join(root, 'build', 'wasm');
  const engine = await loadEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-train.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-train.wasm')) });
  const run = engine.training(readFileSync(join(root, 'web', 'trainings', 'text-gpt.json'), 'utf8'), { 'literature.txt': corpus });
  run.steps(2);
  const attention = run.attend(trace.probe.tokens).attention.data;
  run.dispose();
  const T = 32;
  const expected = (i, j) => attention[((1 * 4 + 2) * T + i) * T + j];
  await page.click('.player button[data-step="weights"], #step-weights').catch(() => {});
  const canvas = await page.$('figure[data-matrix="weights"] canvas');
  await canvas.focus();
  for (let i = 0; i < 3; i++) {
    const text = (await page.textContent('#detail h3')).split('=').pop().trim().replace('−', '-');
    assert.ok(Math.abs(Number(text) - expected(i, 0)) < 6e-5, `weights [${i}, 0]: ${text} vs ${expected(i, 0)}`);
    await page.keyboard.press('ArrowDown');
  }
  // q, k, v shows the biases beside their weights
  await page.evaluate(() => { location.hash = location.hash.replace(/step=\w+/, 'step=qkv'); });
  await page.waitForSelector('figure[data-matrix="b_query"]', { timeout: 30000 });
  assert.ok(await page.$('figure[data-matrix="b_value"]'));
  await shot(page, 'training-text-head-in-playground');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the lesson "Finishing the lecture": five rungs on one chart, what each adds and buys, their samples; any rung trains live', async () => {
  const page = await openPage(env.browser, `${env.url}#lesson=lecture`);
  await page.waitForSelector('.lecture-rung', { timeout: 60000 });
  assert.equal(await page.textContent('#lesson-title'), 'Finishing the lecture');
  assert.equal(await page.$$eval('.lecture-chart .series polyline', (l) => l.length), 5);
  const cards = await page.$$eval('.lecture-rung', (c) => c.map((x) => ({ id: x.dataset.rung, text: x.textContent, step: x.dataset.step })));
  assert.deepEqual(cards.map((c) => c.id), ladder.rungs.map((r) => r.id));
  const words = ['bigram', 'Communication', 'Multiple channels', 'Computation per token', 'Depth made trainable'];
  ladder.rungs.forEach((rung, k) => {
    const card = cards[k];
    assert.match(card.text, new RegExp(words[k]));
    assert.ok(card.text.includes(`validation loss ${rung.evals.at(-1).loss.toFixed(3)}`), `${rung.id}: its final validation loss`);
    assert.ok(card.text.includes(`${rung.parameters.toLocaleString('en')} trained weights`));
    if (k) assert.ok(card.text.includes(`${(ladder.rungs[k - 1].evals.at(-1).loss - rung.evals.at(-1).loss).toFixed(3)} lower than the rung before`), `${rung.id}: what it buys`);
    assert.equal(card.step, String(rung.steps));
  });
  assert.equal(await page.textContent('.lecture-rung[data-rung="text-gpt"] pre'), ladder.rungs[4].evals.at(-1).sample);
  // stepping back through the GPT's evaluations: step 0's sample is PyTorch's own
  await page.$eval('.lecture-rung[data-rung="text-gpt"] input[type="range"]', (input) => { input.value = '0'; input.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await page.textContent('.lecture-rung[data-rung="text-gpt"] pre'), goldenTrace('text-gpt').evals[0].sample);
  assert.equal(await page.getAttribute('.lecture-rung[data-rung="text-gpt"]', 'data-step'), '0');
  await shot(page, 'lesson-lecture');
  await page.click('button[data-train="text-mlp"]');
  await page.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 30000 });
  assert.match(page.url(), /#train=text-mlp$/);
  assert.equal(await page.$eval('#train-preset', (s) => s.value), 'text-mlp');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// Pictures to look at (tests/screenshots/), each without a sideways page
// scroll: the text training view and the lesson at a desktop, a phone and in
// dark mode, and the learner's text refused under its field.
for (const look of [
  { name: '1280', viewport: { width: 1280, height: 720 } },
  { name: '390', viewport: { width: 390, height: 844 } },
  { name: 'dark-1280', viewport: { width: 1280, height: 720 }, colorScheme: 'dark' },
]) {
  test(`the text training view and the lecture lesson at ${look.name}`, async () => {
    const page = await trainingPage('#train=text-four-heads', { viewport: look.viewport, colorScheme: look.colorScheme ?? 'light' });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
    await shot(page, `training-text-${look.name}`);
    await page.click('.training-settings summary');
    await page.selectOption('#train-corpus', 'paste');
    await page.fill('#train-text', 'Too short to learn from.');
    await page.click('#train-custom');
    await page.waitForFunction(() => !document.querySelector('#train-corpus-error').hidden);
    await page.$eval('#train-corpus-error', (e) => e.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: join(root, 'tests', 'screenshots', `training-text-refused-${look.name}.png`) });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
    await page.goto(`${env.url}#lesson=lecture`);
    await page.waitForSelector('.lecture-rung', { timeout: 60000 });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
    await shot(page, `lesson-lecture-${look.name}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}
