// The training view: a tiny transformer learning in a Web Worker while the
// page stays fluid; its curves, heads, graph and predictions; the timeline;
// the learner's own sequence; a trained head opened in the playground.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, shot, useBrowser } from './browser.mjs';
import { countPageWork, pageWork } from './page-work.mjs';

const env = useBrowser();

const status = (page) => page.evaluate(() => {
  const root = document.querySelector('.training');
  return { state: root?.dataset.state, step: Number(root?.dataset.step), accuracy: Number(root?.dataset.accuracy), playing: root?.dataset.playing };
});

async function trainingPage(hash = '#train=induction', options = {}) {
  const page = await openPage(env.browser, null, options);
  await countPageWork(page.context());
  await page.goto(`${env.url}${hash}`);
  await page.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 60000 });
  return page;
}

test('induction trains live in a worker: curves, every head, the graph, predictions; the page\'s thread runs no wasm meanwhile', async () => {
  const page = await trainingPage();
  assert.equal((await status(page)).step, 0);
  assert.match(await page.textContent('#train-status'), /^Step 0 of 1000 · validation loss 2\.\d{3} · accuracy/);
  assert.deepEqual(await page.$$eval('.training-heads figure', (f) => f.map((x) => x.dataset.matrix)), ['attention-l0h0', 'attention-l1h0']);
  // Counted, not timed (the page's frames while it trains are `make bench`'s,
  // tests/bench/bench_page.mjs): one 'play' to the training worker, then 150
  // steps drawn from its messages with no wasm call on the page's thread.
  const before = await pageWork(page);
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('.training').dataset.step) >= 150, null, { timeout: 30000 });
  const after = await pageWork(page);
  assert.deepEqual(after.posted.slice(before.posted.length).map(({ worker, type }) => [worker, type]), [['worker.js', 'play']]);
  assert.equal(after.wasmCalls - before.wasmCalls, 0, 'wasm calls on the page\'s thread while it trained');
  assert.equal(after.modules, before.modules, 'a wasm module instantiated on the page');
  assert.deepEqual(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /attention-train/.test(n))), [], 'the trainer\'s module is the worker\'s alone');
  await page.click('#train-play');  // pause
  await page.waitForFunction(() => document.querySelector('.training').dataset.worker === 'paused');
  const paused = (await status(page)).step;
  await page.waitForTimeout(400);
  assert.equal((await status(page)).step, paused, 'paused: no more steps');
  await page.click('#train-step');
  await page.waitForFunction((s) => Number(document.querySelector('.training').dataset.step) === s + 1, paused);
  assert.equal(await page.getAttribute('.training figure[data-view="graph"]', 'data-edges'), '136', 'the selected head\'s graph: 16 · 17 / 2 causal edges');
  assert.ok(await page.$$eval('.training-predictions td', (c) => c.length) >= 48);
  await shot(page, 'training-induction-paused');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('as fast as it goes, induction passes 95% validation accuracy; the timeline scrubs back to step 0', async () => {
  const page = await trainingPage();
  await page.selectOption('#train-speed', '0');
  const started = Date.now();
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('.training').dataset.accuracy) >= 0.95, null, { timeout: 60000 });
  console.log(`induction to 95% unpaced: ${Date.now() - started} ms from clicking Train`);
  await page.waitForFunction(() => document.querySelector('#train-play').textContent === 'Trained', null, { timeout: 60000 });
  const latest = await page.$eval('figure[data-matrix="attention-l1h0"] canvas', (c) => c.toDataURL());
  // the head that became the induction head is selected, its score from the core
  assert.equal(await page.getAttribute('.training', 'data-selected'), '1.0');
  assert.match(await page.textContent('.training-graph h3'), /^Layer 1, head 0/);
  const scores = Object.fromEntries((await page.getAttribute('figure[data-matrix="attention-l1h0"]', 'data-scores')).split(',').map((p) => p.split(':')).map(([k, v]) => [k, Number(v)]));
  assert.ok(scores.induction > 0.9, `layer 1's induction score ${scores.induction}`);
  assert.match(await page.textContent('figure[data-matrix="attention-l1h0"] .head-score'), /^previous-token 0\.\d\d · induction 0\.9\d$/);
  assert.equal(await page.$$eval('.training-scores-legend li', (l) => l.length), 2);
  // scrubbing moves the status line with the timeline, and says where the model is
  await page.$eval('#train-timeline', (input) => { input.value = '20'; input.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.match(await page.textContent('#train-status'), /^Step 200 of 1000 · validation loss \d\.\d{3} · accuracy \d+\.\d% · back on the timeline; the model is at step 1000$/);
  await page.$eval('#train-timeline', (input) => { input.value = '0'; input.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.match(await page.textContent('.training-timeline output'), /step 0$/);
  assert.match(await page.textContent('#train-status'), /^Step 0 of 1000 /);
  assert.notEqual(await page.$eval('figure[data-matrix="attention-l1h0"] canvas', (c) => c.toDataURL()), latest, 'step 0\'s attention, not the trained one');
  await shot(page, 'training-induction-trained-scrubbed');
  // a click on the loss chart scrubs to the evaluation nearest to it: half way is step 500
  const box = await page.$eval('.curves canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
  await page.mouse.click(box.x + 40 + (box.w - 80) / 2, box.y + box.h / 2);
  assert.match(await page.textContent('.training-timeline output'), /step 500$/);
  assert.match(await page.textContent('#train-status'), /^Step 500 of 1000 /);
  // on the scores' chart too, back to the latest at its right end
  const scoresBox = await page.$eval('.training-scores canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
  await page.mouse.click(scoresBox.x + scoresBox.w - 41, scoresBox.y + scoresBox.h / 2);
  assert.match(await page.textContent('.training-timeline output'), /step 1000 \(latest\)$/);
  assert.match(await page.textContent('#train-status'), /^Step 1000 of 1000 · validation loss/);
  // pointing at a probe position lights its earlier copies and the tokens after them, in the table and the heads
  const probe = await page.$$eval('.training-predictions tr:first-child td', (c) => c.map((x) => Number(x.textContent)));
  const position = 12;
  const copies = probe.slice(0, position - 1).map((t, j) => (t === probe[position] ? j : -1)).filter((j) => j >= 0);
  await page.hover(`.training-predictions tr:first-child td:nth-child(${position + 2})`);
  assert.equal(await page.getAttribute('.training-predictions', 'data-lit'), `${position}|${copies.join(',')}|${copies.map((j) => j + 1).join(',')}`);
  assert.equal(await page.getAttribute('figure[data-matrix="attention-l1h0"]', 'data-marks'), `${position}|${copies.map((j) => `${position}.${j + 1}`).join(',')}`);
  // and by keyboard: the table takes focus, the arrows move the position
  await page.mouse.move(0, 0);
  await page.focus('.training-predictions');
  await page.keyboard.press('Home');
  assert.match(await page.getAttribute('.training-predictions', 'data-lit'), /^0\|\|$/);
  await page.keyboard.press('ArrowRight');
  assert.match(await page.getAttribute('.training-predictions', 'data-lit'), /^1\|/);
  await shot(page, 'training-induction-lit');
  await page.context().close();
});

test('the learner\'s own sequence: its attention and predictions; ids outside the task get the core\'s line', async () => {
  const page = await trainingPage('#train=previous-token');
  await page.fill('#train-own', '1 2 3 1 2 3 1 2');
  await page.click('.training-own button[type="submit"]');
  await page.waitForFunction(() => /your sequence/.test(document.querySelector('.training-timeline output').textContent));
  assert.equal(await page.$$eval('.training-predictions tr:first-child td', (c) => c.map((x) => x.textContent).join(' ')), '1 2 3 1 2 3 1 2');
  await page.fill('#train-own', '1 2 99');
  await page.click('.training-own button[type="submit"]');
  await page.waitForFunction(() => !document.querySelector('#train-own-error').hidden);
  assert.equal(await page.textContent('#train-own-error'), 'tokens[2]: 99 is not a token of this task (0 to 15)');
  assert.equal(await page.getAttribute('#train-own', 'aria-invalid'), 'true');
  await page.fill('#train-own', 'a b <script>');
  await page.click('.training-own button[type="submit"]');
  assert.match(await page.textContent('#train-own-error'), /^expected token ids 0 to 15 separated by spaces/);
  assert.equal((await status(page)).state, 'ready', 'nothing the learner typed is lost or breaks the view');
  await page.context().close();
});

test('a trained head opens in the playground, its weights step by step', async () => {
  const page = await trainingPage();
  await page.selectOption('#train-speed', '0');
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('.training').dataset.step) >= 200, null, { timeout: 60000 });
  await page.click('#train-play');
  await page.click('.training-heads figure[data-matrix="attention-l1h0"]');
  await page.click('#train-open');
  await page.waitForFunction(() => document.querySelector('#app').dataset.view === 'playground' && document.querySelector('#app').dataset.state === 'ready', null, { timeout: 60000 });
  assert.match(await page.textContent('#title'), /^induction: layer 1, head 0 after \d+ steps$/);
  assert.match(await page.evaluate(() => location.hash), /file=1/);
  assert.match(await page.evaluate(() => location.hash), /step=weights/);
  assert.equal(await page.getAttribute('figure[data-view="graph"]', 'data-edges'), '136');
  await shot(page, 'training-head-in-playground');
  await page.context().close();
});

test('a training link that names no preset is replaced, with a notice', async () => {
  const page = await openPage(env.browser, `${env.url}#train=nope`);
  assert.equal(await ready(page), 'ready');
  assert.match(await page.textContent('#notice'), /train/);
  await page.context().close();
});

test('the lesson "What attention learns": previous-token, then induction, then one layer, each trainable in place', async () => {
  const page = await openPage(env.browser, `${env.url}#lesson=learn`);
  await page.waitForFunction(() => document.querySelector('#lesson .training')?.dataset.state === 'ready', null, { timeout: 60000 });
  assert.match(await page.textContent('#lesson'), /Elhage et al\. \(2021\)/);
  assert.equal(await page.$eval('#train-preset', (s) => s.value), 'previous-token');
  await page.check('input[name="learn-stage"][value="induction"]');
  await page.waitForFunction(() => document.querySelector('#train-preset')?.value === 'induction' && document.querySelector('#lesson .training')?.dataset.state === 'ready', null, { timeout: 60000 });
  assert.match(await page.textContent('#lesson'), /Olsson et al\. \(2022\)/);
  assert.match(await page.textContent('#lesson'), /phase change/);
  await page.check('input[name="learn-stage"][value="induction-one-layer"]');
  await page.waitForFunction(() => document.querySelector('#train-preset')?.value === 'induction-one-layer', null, { timeout: 60000 });
  assert.match(await page.textContent('#lesson'), /one layer is not enough/);
  await shot(page, 'lesson-learn');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the learner\'s own task and model: refused settings name the field and keep the run; accepted ones train', async () => {
  const page = await trainingPage();
  await page.click('.training-settings summary');
  await page.fill('#train-heads', '3');
  await page.click('#train-custom');
  await page.waitForFunction(() => !document.querySelector('#train-settings-error').hidden);
  assert.equal(await page.textContent('#train-settings-error'), 'model.embed: 16 is not a multiple of model.heads (3)');
  assert.equal(await page.inputValue('#train-heads'), '3', 'the learner\'s fields stay');
  assert.equal((await status(page)).state, 'ready', 'the current run stays');
  await page.click('#train-reset');  // Reset goes back to the run that is still there
  await page.waitForFunction(() => document.querySelectorAll('.training-heads figure').length === 2);
  await page.fill('#train-heads', '2');
  await page.fill('#train-layers', '1');
  await page.fill('#train-steps', '40');
  await page.click('#train-custom');
  await page.waitForFunction(() => [...document.querySelectorAll('.training-heads figure')].map((f) => f.dataset.matrix).join() === 'attention-l0h0,attention-l0h1');
  assert.ok(await page.isHidden('#train-settings-error'));
  await page.selectOption('#train-speed', '0');
  await page.click('#train-play');
  await page.waitForFunction(() => document.querySelector('#train-play').textContent === 'Trained', null, { timeout: 30000 });
  assert.match(await page.textContent('#train-status'), /^Step 40 of 40/);
  await shot(page, 'training-custom');
  await page.context().close();
});

test('a run that diverges stops with the core\'s line and keeps its curves up to that step; Reset trains again', async () => {
  const page = await openPage(env.browser, null);
  // the preset's file, with a learning rate and weight decay that blow up
  // (lr × wd = 8.1: decay multiplies every weight by −7.1 a step)
  const diverging = { version: 1, id: 'previous-token', title: 'Diverges', seed: 1,
    task: { name: 'previous', tokens: 8, length: 8 }, model: { embed: 8 },
    train: { steps: 300, lr: 9, weight_decay: 0.9 }, eval: { every: 5, batch: 64 } };
  await page.route('**/trainings/previous-token.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(diverging) }));
  await page.goto(`${env.url}#train=previous-token`);
  await page.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 60000 });
  await page.selectOption('#train-speed', '0');
  await page.click('#train-play');
  await page.waitForFunction(() => document.querySelector('.training').dataset.state === 'error', null, { timeout: 60000 });
  const message = await page.textContent('#train-status');
  const step = Number(message.match(/^training diverged at step (\d+): /)?.[1]);
  assert.ok(step > 1, message);
  assert.match(message, /train\.lr × train\.weight_decay is 8\.1, above 2/);
  assert.doesNotMatch(message, /softmax|allows no position/);
  const kept = await page.evaluate(() => {
    const root = document.querySelector('.training');
    return { losses: Number(root.dataset.losses), step: Number(root.dataset.step), playing: root.dataset.playing, play: document.querySelector('#train-play').textContent };
  });
  // every loss the run made is kept: the divergence is found by the training step that reads the
  // broken weights (its loss is not made: step - 1 kept) or by a scheduled evaluation right after
  // the update that broke them (that step's loss was made: step kept)
  assert.ok([step - 1, step].includes(kept.losses), `${kept.losses} losses kept, diverged at step ${step}`);
  assert.equal(kept.step, Math.floor((step - 1) / 5) * 5, 'the last evaluation before it');
  assert.equal(kept.playing, 'false');
  assert.equal(kept.play, 'Train');
  // scrubbing back keeps the line
  await page.$eval('#train-timeline', (input) => { input.value = '0'; input.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await page.textContent('#train-status'), message);
  await shot(page, 'training-diverged');
  // Reset starts the same file again from step 0, with no error left showing
  await page.click('#train-reset');
  await page.waitForFunction(() => document.querySelector('.training').dataset.state === 'ready', null, { timeout: 60000 });
  assert.match(await page.textContent('#train-status'), /^Step 0 of 300/);
  assert.equal(await page.$eval('#train-status', (p) => p.classList.contains('error')), false);
  // a Step at a time (a live view after every step) diverges where training as fast as it
  // goes did: the same line, the same losses kept, however the batches fell
  const state = () => page.evaluate(() => ({ state: document.querySelector('.training').dataset.state, losses: Number(document.querySelector('.training').dataset.losses) }));
  for (let i = 0; i < 300 && (await state()).state !== 'error'; i++) {
    const { losses } = await state();
    await page.click('#train-step');
    await page.waitForFunction((n) => {
      const root = document.querySelector('.training');
      return root.dataset.state === 'error' || Number(root.dataset.losses) > n;
    }, losses, { timeout: 30000 });
  }
  assert.equal(await page.textContent('#train-status'), message);
  assert.equal((await state()).losses, kept.losses);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
