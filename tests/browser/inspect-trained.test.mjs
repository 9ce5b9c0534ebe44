// "Inspect what you trained": a model trained in the page opens in the
// Model view with its lenses, its weights carried as a model file in memory
// (no file picked, nothing downloaded), on the induction lesson's example;
// what the lesson's step 4 says of the head scores, the ablation and the
// logit lens is what the learner sees there.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { join } from 'node:path';

import { openPage, screenshotDir, shot, useBrowser } from './browser.mjs';

const env = useBrowser({ csp: true });

// The lesson's example: eight ids, the same eight again, the last left to guess.
const example = [6, 4, 5, 7, 3, 2, 1, 0, 6, 4, 5, 7, 3, 2, 1];

const trainingReady = (page) => page.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 60000 });
const trained = (page) => page.waitForFunction(() => document.querySelector('#train-play')?.textContent === 'Trained', null, { timeout: 120000 });
const inspectShown = (page) => page.$eval('#train-inspect', (b) => !b.hidden && b.checkVisibility());

// What the training view says of its model: "… 2 layers of 1 head, … 2,560 trained weights; …"
async function trainedModel(page) {
  const about = await page.textContent('.training-about');
  const [, layers, heads] = about.match(/(\d+) layers? of (\d+) heads?/);
  const [, parameters] = about.match(/([\d,]+) trained weights/);
  return { layers: Number(layers), heads: Number(heads), parameters: Number(parameters.replace(/,/g, '')) };
}

// Records every file chooser and download the page opens: the trained model must need neither.
function watchFiles(page) {
  const seen = [];
  page.on('filechooser', () => seen.push('file chooser'));
  page.on('download', (d) => seen.push(`download ${d.suggestedFilename()}`));
  return seen;
}

// Presses the button and waits for the Model view to have read the model and
// the head scores to have answered.
async function inspect(page) {
  await page.click('#train-inspect');
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.view === 'model' && document.querySelector('.model-view')?.dataset.state === 'ready'
    && document.querySelector('.model-view')?.dataset.tokens, null, { timeout: 60000 });
  await page.waitForSelector('.lens-panel[data-state="ready"], .lens-panel[data-state="error"]', { timeout: 60000 });
  assert.equal(await page.getAttribute('.lens-panel', 'data-state'), 'ready', await page.textContent('.lens-status'));
}

test('the button shows only once a step has run and while the training is stopped', async () => {
  const page = await openPage(env.browser, `${env.url}#train=induction`);
  await trainingReady(page);
  assert.equal(await page.$eval('.training', (r) => r.dataset.step), '0');
  assert.equal(await inspectShown(page), false, 'no trained weights yet: no button');
  await page.click('#train-step');
  await page.waitForFunction(() => document.querySelector('.training').dataset.step === '1');
  await page.waitForFunction(() => !document.querySelector('#train-inspect').hidden);
  assert.equal(await inspectShown(page), true);
  assert.match(await page.getAttribute('#train-inspect', 'title'), /at step 1 in the Model view/);
  await page.click('#train-play');
  await page.waitForFunction(() => document.querySelector('.training').dataset.playing === 'true');
  assert.equal(await inspectShown(page), false, 'hidden while it trains');
  await page.click('#train-play');  // pause
  await page.waitForFunction(() => document.querySelector('.training').dataset.worker === 'paused');
  assert.equal(await inspectShown(page), true, 'back once paused');
  await page.click('#train-reset');
  await page.waitForFunction(() => document.querySelector('.training').dataset.step === '0');
  assert.equal(await inspectShown(page), false, 'a reset model has no trained weights');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the lesson\'s step 4: the induction model trains, opens in the Model view as a file in memory, and its lenses show the circuit', async () => {
  const page = await openPage(env.browser, `${env.url}#lesson=learn&preset=inspect`, { viewport: { width: 1280, height: 720 } });
  const files = watchFiles(page);
  await trainingReady(page);
  assert.match(await page.textContent('#lesson-body'), /Inspect what you trained/);
  assert.equal(await page.$eval('#train-preset', (s) => s.value), 'induction', 'step 4 trains step 2\'s preset');
  await trained(page);  // it trains by itself, as fast as it goes
  const model = await trainedModel(page);
  assert.deepEqual(model, { layers: 2, heads: 1, parameters: model.parameters });
  await page.waitForFunction(() => !document.querySelector('#train-inspect').hidden);
  await page.$eval('#train-inspect', (b) => b.scrollIntoView({ block: 'center' }));
  await shot(page, 'inspect-trained-button');

  await inspect(page);
  // the link is a file's, as a model picked from disk is
  const hash = Object.fromEntries(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)));
  assert.equal(hash.file, '1');
  assert.equal(hash.lens, 'scores');
  assert.equal(hash.lesson, undefined);
  assert.match(await page.textContent('.model-name'), /^Model: the induction model you trained \(step 1,000\)$/);
  // the model the training reported: its layers, heads and parameters
  const facts = await page.textContent('.model-facts');
  assert.match(facts, new RegExp(`^${model.layers} layers × ${model.heads} heads, embedding 16, a vocabulary of 8 tokens, reads up to 16 tokens, ${model.parameters.toLocaleString('en')} parameters`));
  assert.equal(await page.$$eval('.model-grid-panel figure, .model-grid-panel canvas', (f) => f.length > 0), true);
  // on the lesson's example, typed as ids
  assert.equal(await page.inputValue('.model-text-field textarea'), example.join(', '));
  assert.equal(await page.$eval('.model-view', (v) => v.dataset.tokens), example.join(','));
  // no file was picked or saved: the file input is untouched
  assert.deepEqual(files, []);
  assert.equal(await page.$eval('.model-source input[type="file"]', (i) => i.files.length), 0);

  // the head scores: layer 0's head a previous-token head, layer 1's the induction head (0.62 in the lesson)
  const heads = await page.$$eval('.lens-scores-table tbody tr', (rows) => rows.map((tr) => ({
    head: tr.dataset.head,
    role: tr.querySelector('.lens-best-role').dataset.role,
    scores: Object.fromEntries([...tr.querySelectorAll('.lens-score')].map((td) => [td.dataset.key, Number(td.dataset.value)])),
  })));
  assert.deepEqual(heads.map((h) => [h.head, h.role]), [['0.0', 'previous_token'], ['1.0', 'induction']]);
  const induction = heads[1].scores.induction;
  assert.equal(induction.toFixed(2), '0.62', 'the lesson says 0.62');
  assert.ok(heads[0].scores.previous_token > 0.35 && heads[0].scores.previous_token < 0.5, `layer 0's previous-token score ${heads[0].scores.previous_token}: about 0.4`);
  assert.ok(Object.values(heads[0].scores).every((s) => s < 0.5), 'only the induction head scores above 0.5');
  await shot(page, 'inspect-trained-model');

  // the model is sure 0 comes next; with layer 1's head off it is not
  await page.click('.lens-scores-table tr[data-head="1.0"] .lens-ablate-head');
  await page.waitForFunction(() => document.querySelector('.lens-panel')?.dataset.lens === 'ablate' && document.querySelector('.lens-panel').dataset.state === 'ready', null, { timeout: 30000 });
  const top = (side) => page.$eval(`.lens-ablate-bars [data-side="${side}"] li`, (li) => ({ text: li.querySelector('.next-token-text').textContent, p: Number(li.dataset.p) }));
  const before = await top('before');
  const after = await top('after');
  assert.equal(before.text, '<0>');
  assert.ok(before.p > 0.99, `sure: ${before.p}`);
  assert.notEqual(after.text, '<0>', 'with the induction head off, another id leads');
  // the loss falls, as the lesson warns: the first half's sure wrong guesses grow less sure
  const loss = await page.$eval('.lens-loss', (l) => [Number(l.dataset.before), Number(l.dataset.after)]);
  assert.ok(loss[1] < loss[0], `loss ${loss}`);

  // the logit lens: after layer 0 the answer leads at none of the seven positions after the repeat begins; after layer 1 at all seven
  await page.click('.lens-tab[data-lens="logit-lens"]');
  await page.waitForFunction(() => document.querySelector('.lens-panel')?.dataset.lens === 'logit-lens' && document.querySelector('.lens-panel').dataset.state === 'ready', null, { timeout: 30000 });
  const tops = await page.$$eval('.lens-cell', (cells) => cells.map((c) => [Number(c.dataset.row), Number(c.dataset.position), Number(c.dataset.top)]));
  const topAt = (row, t) => tops.find(([r, p]) => r === row && p === t)[2];
  const positions = [8, 9, 10, 11, 12, 13, 14];
  assert.deepEqual(positions.map((t) => topAt(2, t)), positions.map((t) => example[t - 7]), 'after layer 1: the answer');
  assert.ok(positions.every((t) => topAt(1, t) !== example[t - 7]), 'after layer 0: not yet');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('at 390 px, dark: a #train= preset\'s button, and the model opened from it', async () => {
  const page = await openPage(env.browser, `${env.url}#train=induction`, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  const files = watchFiles(page);
  await trainingReady(page);
  await page.selectOption('#train-speed', '0');
  await page.click('#train-play');
  await trained(page);
  await page.$eval('#train-inspect', (b) => b.scrollIntoView({ block: 'center' }));
  await shot(page, 'inspect-trained-button-390-dark');
  await inspect(page);
  assert.equal(await page.inputValue('.model-text-field textarea'), example.join(', '), 'an induction model opens on the lesson\'s example');
  assert.deepEqual(files, []);
  await shot(page, 'inspect-trained-model-390-dark');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a text model opens on a line of its own text, read as characters', async () => {
  const page = await openPage(env.browser, `${env.url}#train=text-one-head`);
  await trainingReady(page);
  await page.click('#train-step');
  await page.waitForFunction(() => !document.querySelector('#train-inspect').hidden, null, { timeout: 60000 });
  await inspect(page);
  const text = await page.inputValue('.model-text-field textarea');
  assert.ok(text.length > 0 && !text.includes('\n'), `one line: ${JSON.stringify(text)}`);
  assert.match(await page.textContent('.model-facts'), /\(characters\)/);
  assert.match(await page.textContent('.model-name'), /^Model: the text-one-head model you trained \(step 1\)$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// The training view as it stands: its step, its loss curve's points, and the run's element and worker.
const runNow = (page) => page.$eval('.training', (root) => ({ step: root.dataset.step, losses: root.dataset.losses, evaluations: root.dataset.evaluations,
  same: root === window.inspectedRun }));
const trainingWorkers = (page) => page.workers().filter((w) => /training\/worker\.js/.test(w.url()));

// Steps a toy three times by hand, then Inspect: the run is remembered (its element, its worker).
async function trainThenInspect(page) {
  await trainingReady(page);
  for (const step of ['1', '2', '3']) {
    await page.click('#train-step');
    await page.waitForFunction((s) => document.querySelector('.training').dataset.step === s, step);
  }
  await page.waitForFunction(() => !document.querySelector('#train-inspect').hidden);
  await page.evaluate(() => { window.inspectedRun = document.querySelector('.training'); });
  const before = await runNow(page);
  assert.equal(before.step, '3');
  assert.ok(Number(before.losses) >= 3, `the loss curve has its points: ${before.losses}`);
  const workers = trainingWorkers(page);
  assert.equal(workers.length, 1);
  await inspect(page);
  return { before, worker: workers[0] };
}

// Back to the run: the same element at the same step with the same curve, the
// same worker (one, still answering: Step goes on from there), nothing trained again.
async function sameRun(page, { before, worker }, how) {
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.view !== 'model' && document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 60000 });
  assert.deepEqual(await runNow(page), { ...before, same: true }, `${how}: the run as it was left`);
  assert.deepEqual(trainingWorkers(page), [worker], `${how}: its worker, and no other`);
  assert.equal(await inspectShown(page), true);
  // one step on from where it was left (the second return finds it at 4, not 3)
  await page.click('#train-step');
  await page.waitForFunction((next) => document.querySelector('.training').dataset.step === next, String(Number(before.step) + 1));
}

test('Back from the model opened by Inspect, or the Train live tab, returns to the same run', async () => {
  const page = await openPage(env.browser, `${env.url}#train=induction`);
  const run = await trainThenInspect(page);
  await page.goBack();
  await sameRun(page, run, 'Back');
  assert.equal(await page.evaluate(() => location.hash), '#train=induction');

  // again, and back by the nav's tab this time
  await page.evaluate(() => { window.inspectedRun = document.querySelector('.training'); });
  const again = { before: await runNow(page), worker: run.worker };
  delete again.before.same;
  await inspect(page);
  await page.click('#lessons-nav a[href="#train=induction"]');
  await sameRun(page, again, 'the Train live tab');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a lesson hosting the training view comes back as it was left; any other view ends the kept run', async () => {
  const page = await openPage(env.browser, `${env.url}#lesson=learn&preset=induction`);
  const run = await trainThenInspect(page);
  assert.equal(await page.textContent('#lesson-title'), 'A real GPT: every head of every layer');
  await page.goBack();
  await sameRun(page, run, 'Back to the lesson');
  assert.equal(await page.$eval('#app', (a) => a.dataset.view), 'lesson');
  assert.equal(await page.$eval('input[name="learn-stage"]:checked', (i) => i.value), 'induction', 'the lesson at its step');
  assert.equal(await page.$$eval('.lesson-training', (boxes) => boxes.length), 1, 'one training view');

  // Inspect, then the playground: the kept run ends (its worker with it), and the lesson trains anew
  await inspect(page);
  await page.click('#lessons-nav a:first-child');
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.view === 'playground');
  await page.waitForFunction(() => !document.querySelector('.training'));
  assert.deepEqual(trainingWorkers(page), [], 'no run kept once the learner went elsewhere');
  await page.goBack();  // the Model view (its file cannot come back from a link: the default model)
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.view === 'model');
  await page.goBack();
  await trainingReady(page);
  assert.equal(await page.$eval('.training', (root) => root.dataset.step), '0', 'a lesson drawn anew');
  assert.equal(await page.evaluate(() => document.querySelector('.training') === window.inspectedRun), false);
  assert.equal(trainingWorkers(page).length, 1);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// Where Inspect lands: on the lenses the lesson talks about, their heading in focus.
for (const [name, viewport, colorScheme] of [['inspect-landed-lenses', { width: 1280, height: 720 }, 'light'], ['inspect-landed-lenses-390-dark', { width: 390, height: 844 }, 'dark']]) {
  test(`Inspect lands on the lens panel (${viewport.width} px, ${colorScheme})`, async () => {
    const page = await openPage(env.browser, `${env.url}#train=induction`, { viewport, colorScheme });
    await trainThenInspect(page);
    await page.waitForFunction(() => document.activeElement?.matches('.lens-panel h3'), null, { timeout: 10000 });
    // the router scrolls two frames on: wait until the heading has come to rest in view
    await page.waitForFunction(() => {
      const r = document.querySelector('.lens-panel h3').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight;
    }, null, { timeout: 10000 });
    assert.ok(await page.evaluate(() => scrollY) > 0, 'scrolled down to the lenses, not left at the top');
    const tabs = await page.$eval('.lens-tabs', (t) => { const r = t.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; });
    assert.ok(tabs.top >= 0 && tabs.bottom <= viewport.height, `the lens tabs in view: ${JSON.stringify(tabs)}`);
    await page.screenshot({ path: join(screenshotDir, `${name}.png`) });  // the screen as the learner lands, not the whole page
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}
