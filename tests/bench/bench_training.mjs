// make bench, training part: milliseconds per optimizer step for each preset
// (the toy tasks and the lecture's ladder), natively, in WebAssembly in
// Chromium and in PyTorch (one thread, when installed), side by side, each
// with its GFLOP/s (the core's cost model: formats/training_cost.hpp)
// against the machine's measured single-core peaks (peaks.mjs, measured once
// for the whole bench), natively and in wasm SIMD; text-gpt's whole preset
// trained in the page's training view (#train=text-gpt) at its default pace,
// which for a text task is as fast as it goes, and the page's work per frame
// meanwhile; the induction preset unpaced to 95% validation accuracy from
// clicking Train; the page's frames while induction trains at its default
// pace (50 steps a second). Writes
// tests/bench/training-results.json and the benchmark page's table between
// <!-- bench-training:start --> and <!-- bench-training:end -->, and fails
// when a budget is missed.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { launch, openPage, root, serve, siteDir } from '../browser/browser.mjs';
import { describePeaks, readPeaks } from './peaks.mjs';
import { writeBlock } from './report.mjs';

// --native-only: the native timings and text-gpt's paired shares alone,
// printed, nothing written (a quick check of the native side).
const nativeOnly = process.argv.includes('--native-only');
const nativeBinary = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? join(root, 'build', 'native', 'attention-bench');
const toys = ['previous-token', 'reverse', 'induction', 'induction-one-layer'];
const ladder = ['text-bigram', 'text-one-head', 'text-four-heads', 'text-mlp', 'text-gpt'];
const ids = [...toys, ...ladder];
const golden = (name) => join(root, 'tests', 'golden-training', name);
const files = ids.map((id) => golden(`${id}.json`));
const corpora = { 'literature.txt': readFileSync(golden('literature.txt'), 'utf8') };
const log = (text) => console.error(text);
const json = (binary, args, options = {}) => JSON.parse(execFileSync(binary, args, { encoding: 'utf8', maxBuffer: 1 << 26, ...options }));

log('training: native …');
const native = json(nativeBinary, ['--training', ...files]).training;

// The native peak moves from minute to minute on this VM (137-213 GFLOP/s),
// so text-gpt's step is also timed between two peaks, several times: each
// pair's share is the step's GFLOP/s over the higher of its two peaks (the
// machine could run that fast around the step), and the goal reads the
// median of the pairs' shares.
log('training: native text-gpt between peaks …');
const paired = json(nativeBinary, ['--training-paired', '9', golden('text-gpt.json')]);
for (const pair of paired.pairs) {
  pair.gflops = (2 * paired.multiply_adds) / pair.ms_per_step / 1e6;
  pair.share = pair.gflops / Math.max(pair.peak_before_gflops, pair.peak_after_gflops);
}
const middle = (values) => { const v = [...values].sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
const textGptPaired = {
  pairs: paired.pairs,
  median_share: middle(paired.pairs.map((p) => p.share)),
  median_ms: middle(paired.pairs.map((p) => p.ms_per_step)),
  peaks_gflops: [Math.min(...paired.pairs.flatMap((p) => [p.peak_before_gflops, p.peak_after_gflops])),
    Math.max(...paired.pairs.flatMap((p) => [p.peak_before_gflops, p.peak_after_gflops]))],
};
if (nativeOnly) {
  console.log(JSON.stringify({ native, text_gpt_paired: textGptPaired }, null, 1));
  process.exit(0);
}
const peaks = await readPeaks(nativeBinary);

log('training: PyTorch …');
let torch = null;
if (existsSync('/usr/bin/python3') && execFileSync('/usr/bin/python3', ['-c', 'import importlib.util, sys; sys.stdout.write(str(importlib.util.find_spec("torch") is not None))'], { encoding: 'utf8' }) === 'True')
  torch = json('/usr/bin/python3', [join(root, 'tests', 'bench', 'bench_torch_train.py'), ...files], { cwd: join(root, 'tests', 'bench') });

const browser = await launch();
const site = await serve({ root: siteDir });

log('training: wasm in Chromium …');
const page = await openPage(browser, `${site.url}#train=previous-token`);
await page.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 30000 });
const wasm = await page.evaluate(async ([texts, corpora]) => {
  const { loadEngine, trainerUrl } = await import('./engine/engine.js');
  const engine = await loadEngine({ moduleUrl: trainerUrl });
  return texts.map(([id, text]) => {
    const run = engine.training(text, corpora);
    run.steps(5);
    const runs = [];
    for (let r = 0; r < 9; r++) {
      const start = performance.now();
      run.steps(20);
      runs.push((performance.now() - start) / 20);
    }
    run.dispose();
    runs.sort((a, b) => a - b);
    return { id, ms_per_step: runs[0], median_ms: runs[4] };
  });
}, [ids.map((id, k) => [id, readFileSync(files[k], 'utf8')]), corpora]);

await page.context().close();

// text-gpt in the training view at its default pace (a text task's: as fast
// as it goes), from clicking Train to "Trained", with the page's work in
// every frame meanwhile: from the frame's start to the end of its tasks.
log('training: text-gpt in the page …');
const gptPage = await openPage(browser, `${site.url}#train=text-gpt`);
await gptPage.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 60000 });
const gptRun = await gptPage.evaluate(() => new Promise((resolve) => {
  const pace = document.querySelector('#train-speed').value;
  const play = document.querySelector('#train-play');
  const work = [];
  let done = null;
  const frame = () => {
    const started = performance.now();
    setTimeout(() => work.push(performance.now() - started), 0);
    if (done === null) requestAnimationFrame(frame);
    else resolve({ ms: done - start, pace, steps: Number(document.querySelector('.training').dataset.step), frames: work.length, work });
  };
  new MutationObserver(() => { if (play.textContent === 'Trained' && done === null) done = performance.now(); })
    .observe(play, { childList: true, characterData: true, subtree: true });
  const start = performance.now();
  play.click();
  requestAnimationFrame(frame);
}), null);
await gptPage.context().close();

log('training: induction to 95%, unpaced …');
const reach = [];
for (let k = 0; k < 3; k++) {
  const p = await openPage(browser, `${site.url}#train=induction`);
  await p.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 30000 });
  await p.selectOption('#train-speed', '0');
  const ms = await p.evaluate(() => new Promise((resolve) => {
    const start = performance.now();
    const root = document.querySelector('.training');
    new MutationObserver(() => { if (Number(root.dataset.accuracy) >= 0.95) resolve(performance.now() - start); })
      .observe(root, { attributes: true, attributeFilter: ['data-accuracy'] });
    document.querySelector('#train-play').click();
  }));
  reach.push(ms);
  await p.context().close();
}

log('training: frames while training at the default pace …');
const framePage = await openPage(browser, `${site.url}#train=induction`);
await framePage.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 30000 });
const frames = await framePage.evaluate(() => new Promise((resolve) => {
  const work = [];
  const intervals = [];
  let last = performance.now();
  // the page's work in each frame: from the frame's start to the end of its tasks
  const frame = (now) => {
    intervals.push(now - last);
    last = now;
    const started = performance.now();
    setTimeout(() => work.push(performance.now() - started), 0);
    if (intervals.length < 300) requestAnimationFrame(frame);
    else resolve({ work, intervals });
  };
  document.querySelector('#train-play').click();
  requestAnimationFrame(frame);
}));
await framePage.context().close();
await browser.close();
site.server.close();

const percentile = (values, p) => { const v = [...values].sort((a, b) => a - b); return v[Math.min(v.length - 1, Math.floor(p * v.length))]; };
const find = (list, id) => list?.find((r) => r.id === id);
const nativePeak = peaks.kernel, wasmPeak = peaks.wasm;
// GFLOP/s of a step: two operations per multiply-add of the cost model
const gflops = (id, ms) => (ms ? (2 * find(native, id).multiply_adds) / ms / 1e6 : undefined);
const share = (id, ms, peak) => gflops(id, ms) / peak.gflops;
const results = {
  date: new Date().toISOString().slice(0, 10),
  peaks,
  native, wasm, torch,
  text_gpt_paired: textGptPaired,
  text_gpt_page: { ms: gptRun.ms, pace: gptRun.pace, steps: gptRun.steps, frames: gptRun.frames, work_p95_ms: percentile(gptRun.work.slice(5), 0.95) },
  induction_to_95_ms: { median: percentile(reach, 0.5), runs: reach },
  frames: { intervals_p95_ms: percentile(frames.intervals.slice(5), 0.95), work_p95_ms: percentile(frames.work.slice(5), 0.95) },
};
const gpt = (list) => find(list, 'text-gpt')?.ms_per_step;
const induction = (list) => find(list, 'induction')?.ms_per_step;
const budgets = [
  { budget: 'text-gpt\'s step natively: at least 40% of the native peak (the median of 9 steps each between two peaks)', value: `${(100 * textGptPaired.median_share).toFixed(0)}% (against the run's one peak ${(100 * share('text-gpt', gpt(native), nativePeak)).toFixed(0)}%)`, met: textGptPaired.median_share >= 0.4 },
  { budget: 'text-gpt\'s step in wasm: at least 40% of the wasm SIMD peak', value: `${(100 * share('text-gpt', gpt(wasm), wasmPeak)).toFixed(0)}%`, met: share('text-gpt', gpt(wasm), wasmPeak) >= 0.4 },
  { budget: 'text-gpt\'s whole preset trained in the page, unpaced: under 90 s', value: `${(gptRun.ms / 1000).toFixed(1)} s`, met: gptRun.ms < 90000 },
  { budget: 'the page\'s work per frame p95 while text-gpt trains at its default pace: ≤ 16.7 ms', value: `${results.text_gpt_page.work_p95_ms.toFixed(1)} ms`, met: results.text_gpt_page.work_p95_ms <= 16.7 },
  torch && { budget: 'wasm at least 2× faster than PyTorch per step (induction)', value: `${(induction(torch.training) / induction(wasm)).toFixed(2)} ×`, met: induction(torch.training) / induction(wasm) >= 2 },
  { budget: 'induction to 95% validation accuracy, unpaced, under 3 s', value: `${(results.induction_to_95_ms.median / 1000).toFixed(2)} s`, met: results.induction_to_95_ms.median < 3000 },
  { budget: 'frames while induction trains at its default pace: p95 ≤ 16.7 ms', value: `${results.frames.work_p95_ms.toFixed(1)} ms work, ${results.frames.intervals_p95_ms.toFixed(1)} ms interval`, met: results.frames.work_p95_ms <= 16.7 },
].filter(Boolean);
results.budgets = budgets;
writeFileSync(join(root, 'tests', 'bench', 'training-results.json'), JSON.stringify(results, null, 1) + '\n');

const f = (x, digits = 2) => (x === undefined || x === null ? '—' : x.toFixed(digits));
const millions = (n) => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} M`;
const cells = (id, ms, peak) => `${f(ms)} | ${f(gflops(id, ms), 1)}${peak ? ` (${f(100 * share(id, ms, peak), 0)}%)` : ''}`;
const table = [
  `Measured ${results.date}; ms per optimizer step (draw a batch, forward, backward, AdamW): the best of 9 runs of 20 steps after 5 to warm up (the machine is shared: medians are in training-results.json). GFLOP/s: 2 × the step's multiply-adds by the core's cost model (formats/training_cost.hpp, 3 × a batch's forward; it counts attention's causal products whole, though the core skips their masked half: about 4% of text-gpt's count) per second; in brackets, the share of the single-core peak measured in the same run.`,
  '',
  describePeaks(peaks),
  '',
  '| preset | multiply-adds a step | native ms | GFLOP/s (of native peak) | wasm ms (Chromium) | GFLOP/s (of wasm peak) | PyTorch ms | GFLOP/s (of native peak) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...ids.map((id) => {
    const n = find(native, id), w = find(wasm, id), t = find(torch?.training, id);
    return `| ${id} | ${millions(n.multiply_adds)} | ${cells(id, n.ms_per_step, nativePeak)} | ${cells(id, w?.ms_per_step, wasmPeak)} | ${t ? cells(id, t.ms_per_step, nativePeak) : '— | —'} |`;
  }),
  '',
  `text-gpt natively between two peaks, ${textGptPaired.pairs.length} times (the best of 3 runs of 20 steps, each with the kernels' peak, the best of 5 runs, measured right before and right after it; peaks ${f(textGptPaired.peaks_gflops[0], 1)}–${f(textGptPaired.peaks_gflops[1], 1)} GFLOP/s): median step ${f(textGptPaired.median_ms)} ms; shares of the higher of each pair's peaks ${textGptPaired.pairs.map((p) => `${(100 * p.share).toFixed(0)}%`).join(', ')}: median ${(100 * textGptPaired.median_share).toFixed(0)}%, which the goal reads.`,
  `text-gpt's whole preset trained in the page (\`#train=text-gpt\`, its default pace: as fast as it goes), from clicking Train to "Trained" (${gptRun.steps} steps, an evaluation of 256 windows and a 120-character sample every 100): ${f(gptRun.ms / 1000, 1)} s; the page's work per frame meanwhile p95 ${results.text_gpt_page.work_p95_ms.toFixed(1)} ms over ${gptRun.frames} frames.`,
  `Induction to 95% validation accuracy, unpaced, from clicking Train: median ${(results.induction_to_95_ms.median / 1000).toFixed(2)} s of 3 (${reach.map((r) => (r / 1000).toFixed(2)).join(', ')} s). Frames while induction trains at its default 50 steps a second: the page's work p95 ${results.frames.work_p95_ms.toFixed(1)} ms, frame interval p95 ${results.frames.intervals_p95_ms.toFixed(1)} ms.`,
  '',
  '| budget | measured | met |',
  '| --- | --- | --- |',
  ...budgets.map((b) => `| ${b.budget} | ${b.value} | ${b.met ? 'yes' : '**no**'} |`),
].join('\n');
writeBlock('bench-training', table);
console.log(table);
if (budgets.some((b) => !b.met)) {
  console.error('bench: a training budget is missed (see the table)');
  process.exit(1);
}
