// make bench, training part: milliseconds per optimizer step for each preset,
// natively, in WebAssembly in Chromium and in PyTorch (one thread, when
// installed), side by side; the induction preset unpaced to 95% validation
// accuracy from clicking Train; the page's frames while training at the
// default pace. Writes tests/bench/training-results.json and the README's
// table between <!-- bench-training:start --> and <!-- bench-training:end -->,
// and fails when a budget is missed.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { launch, openPage, root, serve, siteDir } from '../browser/browser.mjs';

const nativeBinary = process.argv[2] ?? join(root, 'build', 'native', 'attention-bench');
const ids = ['previous-token', 'reverse', 'induction', 'induction-one-layer'];
const files = ids.map((id) => join(root, 'tests', 'golden-training', `${id}.json`));
const log = (text) => console.error(text);

log('training: native …');
const native = JSON.parse(execFileSync(nativeBinary, ['--training', ...files], { encoding: 'utf8' })).training;

log('training: PyTorch …');
let torch = null;
if (existsSync('/usr/bin/python3') && execFileSync('/usr/bin/python3', ['-c', 'import importlib.util, sys; sys.stdout.write(str(importlib.util.find_spec("torch") is not None))'], { encoding: 'utf8' }) === 'True')
  torch = JSON.parse(execFileSync('/usr/bin/python3', [join(root, 'tests', 'bench', 'bench_torch_train.py'), ...files], { encoding: 'utf8', cwd: join(root, 'tests', 'bench') }));

const browser = await launch();
const site = await serve({ root: siteDir });

log('training: wasm in Chromium …');
const page = await openPage(browser, `${site.url}#train=previous-token`);
await page.waitForFunction(() => document.querySelector('.training')?.dataset.state === 'ready', null, { timeout: 30000 });
const wasm = await page.evaluate(async (texts) => {
  const { loadEngine, trainerUrl } = await import('./engine/engine.js');
  const engine = await loadEngine({ moduleUrl: trainerUrl });
  return texts.map(([id, text]) => {
    const run = engine.training(text);
    run.steps(5);
    const runs = [];
    for (let r = 0; r < 5; r++) {
      const start = performance.now();
      run.steps(100);
      runs.push((performance.now() - start) / 100);
    }
    run.dispose();
    return { id, ms_per_step: runs.sort((a, b) => a - b)[2] };
  });
}, ids.map((id, k) => [id, readFileSync(files[k], 'utf8')]));
await page.context().close();

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
const induction = (list) => list?.find((r) => r.id === 'induction')?.ms_per_step;
const results = {
  date: new Date().toISOString().slice(0, 10),
  native, wasm, torch,
  induction_to_95_ms: { median: percentile(reach, 0.5), runs: reach },
  frames: { intervals_p95_ms: percentile(frames.intervals.slice(5), 0.95), work_p95_ms: percentile(frames.work.slice(5), 0.95) },
};
const budgets = [
  torch && { budget: 'wasm at least 2× faster than PyTorch per step (induction)', value: `${(induction(torch.training) / induction(wasm)).toFixed(2)} ×`, met: induction(torch.training) / induction(wasm) >= 2 },
  { budget: 'induction to 95% validation accuracy, unpaced, under 3 s', value: `${(results.induction_to_95_ms.median / 1000).toFixed(2)} s`, met: results.induction_to_95_ms.median < 3000 },
  { budget: 'frames while training at the default pace: p95 ≤ 16.7 ms', value: `${results.frames.work_p95_ms.toFixed(1)} ms work, ${results.frames.intervals_p95_ms.toFixed(1)} ms interval`, met: results.frames.work_p95_ms <= 16.7 },
].filter(Boolean);
results.budgets = budgets;
writeFileSync(join(root, 'tests', 'bench', 'training-results.json'), JSON.stringify(results, null, 1) + '\n');

const f = (x) => (x === undefined || x === null ? '—' : x.toFixed(2));
const table = [
  `Measured ${results.date}; ms per optimizer step (draw a batch, forward, backward, AdamW), median of 5 runs of 100 steps.`,
  '',
  '| preset | native ms | wasm ms (Chromium) | PyTorch ms | PyTorch / wasm |',
  '| --- | --- | --- | --- | --- |',
  ...ids.map((id) => {
    const n = native.find((r) => r.id === id)?.ms_per_step, w = wasm.find((r) => r.id === id)?.ms_per_step, t = torch?.training.find((r) => r.id === id)?.ms_per_step;
    return `| ${id} | ${f(n)} | ${f(w)} | ${f(t)} | ${t ? `${(t / w).toFixed(2)}×` : '—'} |`;
  }),
  '',
  `Induction to 95% validation accuracy, unpaced, from clicking Train: median ${(results.induction_to_95_ms.median / 1000).toFixed(2)} s of 3 (${reach.map((r) => (r / 1000).toFixed(2)).join(', ')} s). Frames while training at 50 steps a second: the page's work p95 ${results.frames.work_p95_ms.toFixed(1)} ms, frame interval p95 ${results.frames.intervals_p95_ms.toFixed(1)} ms.`,
  '',
  '| budget | measured | met |',
  '| --- | --- | --- |',
  ...budgets.map((b) => `| ${b.budget} | ${b.value} | ${b.met ? 'yes' : '**no**'} |`),
].join('\n');
const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const start = '<!-- bench-training:start -->', end = '<!-- bench-training:end -->';
if (readme.includes(start)) writeFileSync(readmePath, readme.slice(0, readme.indexOf(start) + start.length) + '\n' + table + '\n' + readme.slice(readme.indexOf(end)));
console.log(table);
if (budgets.some((b) => !b.met)) {
  console.error('bench: a training budget is missed (see the table)');
  process.exit(1);
}
