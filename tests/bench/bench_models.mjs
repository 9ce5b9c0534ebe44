// `make bench`, the GPT forward (issue 20's Speed and memory): a GPT-2-small-
// shaped model (12 layers, d 768, 12 heads, V 50257, tied; GPT-2's
// initialisation, written here by gpt2-small.mjs, never committed) on 128 tokens,
// natively, in wasm in Chromium (the file opened through the engine's model
// worker, web/engine/model-client.js, as the Model view opens it) and in
// PyTorch one thread, each in GFLOP/s against the single-core peaks
// (peaks.mjs, measured once for the whole bench); the file's
// load time in the page and the peak wasm memory against the file's size;
// what a keystroke costs the page with the shipped model. Writes
// tests/bench/model-results.json and the benchmark page's table between its markers.
//   node tests/bench/bench_models.mjs [NATIVE_MODEL_BENCH]
import { execFileSync } from 'node:child_process';
import { cpSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { hostSite, launch, openPage, root, serve } from '../browser/browser.mjs';
import { gpt2SmallFile } from './gpt2-small.mjs';
import { describePeaks, readPeaks } from './peaks.mjs';
import { median, percentile, viewKeystrokes as viewKeystrokesOf } from './view-keystrokes.mjs';
import { machine as machineName, writeBlock } from './report.mjs';

const nativeBench = process.argv[2] ?? join(root, 'build', 'native', 'attention-model-bench');
const peaks = await readPeaks(process.argv[3] ?? join(root, 'build', 'native', 'attention-bench'));
const T = 128;
const runs = 5;
const log = (...a) => console.error(...a);

// 0. the model file, made here
const file = gpt2SmallFile(log);
const fileBytes = statSync(file).size;

// 1. native
log('native forward …');
const native = JSON.parse(execFileSync(nativeBench, [file, String(T), String(runs)], { encoding: 'utf8' }));

// 2. PyTorch, one thread
log('PyTorch one thread …');
const torch = JSON.parse(execFileSync('/usr/bin/python3', [join(root, 'tests', 'bench', 'bench_torch_model.py'), file, String(T), String(runs)], { encoding: 'utf8' }));

// 3. Chromium: the file through the model worker, keystrokes with the shipped model
log('wasm in Chromium …');
const host = hostSite({});
for (const f of ['model.html', 'model-page.js']) cpSync(join(root, 'tests', 'bench', f), join(host, f));
cpSync(join(root, 'tests', 'models', 'text-gpt.safetensors'), join(host, 'text-gpt.safetensors'));
const server = await serve({ root: host });
const browser = await launch();
const page = await openPage(browser, `${server.url}model.html`);
await page.waitForFunction(() => typeof window.benchModel === 'function');
await page.setInputFiles('#file', file);
const wasm = await page.evaluate((options) => window.benchModel(options), { T, runs });
const typed = 'To be, or not to be, that is the question';
const keystrokes = await page.evaluate((options) => window.keystrokes(options), {
  url: 'text-gpt.safetensors', texts: Array.from({ length: 60 }, (_, i) => typed.slice(0, 1 + (i % 31))),
});
await page.context().close();

// The Model view itself with the shipped model: each keystroke's page work
// on the main thread, from the input event to the end of the frame that
// shows its run: the input's handler, the view's draw once the worker has
// answered (its 'model-draw' measure) and that frame's style, layout and
// paint (from the frame's start to its next task), summed.
log('the Model view: keystrokes …');
const viewPage = await openPage(browser, `${server.url}assets/attention-playground/index.html#model=text-gpt`);
await viewPage.waitForFunction(() => document.querySelector('.model-view')?.dataset.state === 'ready'
  && document.querySelector('.model-view')?.dataset.tokens, null, { timeout: 60000 });
const viewKeystrokes = (await viewKeystrokesOf(viewPage, { typed: 'To be, or not to be, that is the question', count: 60 })).map((k) => k.total);
await viewPage.context().close();
await browser.close();
server.server.close();

// ---- putting it together ------------------------------------------------------
const flop = 2 * native.multiply_adds;
const gflops = (ms) => flop / (ms * 1e6);
const rows = {
  native: { ms: median(native.forward_ms), run_ms: median(native.run_ms), peak: peaks.kernel.gflops },
  wasm: { ms: median(wasm.run_ms), peak: peaks.wasm.gflops },
  torch: { ms: median(torch.forward_ms), peak: peaks.kernel.gflops },
};
for (const r of Object.values(rows)) {
  r.gflops = gflops(r.ms);
  r.of_peak = r.gflops / r.peak;
}
// the same GFLOP/s against the 128-bit peak and AVX2's fused one (PyTorch's
// kernels' kind: the physical limit a tab's SIMD128 does not reach)
const ofPeak = (r, p) => (p ? r.gflops / p.gflops : null);
for (const r of Object.values(rows)) {
  r.of_sse_peak = ofPeak(r, peaks.sse);
  r.of_avx2_fma_peak = ofPeak(r, peaks.avx2_fma);
}
const memoryRatio = wasm.memory_peak_bytes / fileBytes;
const keystroke = {
  page_p95_ms: percentile(keystrokes.page, 0.95), round_trip_median_ms: median(keystrokes.roundTrip), round_trip_p95_ms: percentile(keystrokes.roundTrip, 0.95),
  view_median_ms: median(viewKeystrokes), view_p95_ms: percentile(viewKeystrokes, 0.95),
};
const budgets = [
  { budget: 'forward in wasm ≥ 50% of the wasm SIMD peak', value: `${(100 * rows.wasm.of_peak).toFixed(0)}%`, met: rows.wasm.of_peak >= 0.5 },
  { budget: 'forward natively at least as fast as PyTorch one thread', value: `${(rows.torch.ms / rows.native.ms).toFixed(2)}× PyTorch's speed`, met: rows.native.ms <= rows.torch.ms },
  { budget: 'load in the page under 3 s', value: `${(wasm.load_ms / 1000).toFixed(2)} s`, met: wasm.load_ms < 3000 },
  { budget: 'peak wasm memory ≤ 1.3 × the file', value: `${memoryRatio.toFixed(2)} ×`, met: memoryRatio <= 1.3 },
  { budget: "a keystroke's page work p95 ≤ 16.7 ms (text-gpt in the Model view: the input, the draw, the frame)", value: `${keystroke.view_p95_ms.toFixed(2)} ms`, met: keystroke.view_p95_ms <= 16.7 },
];
const machine = machineName();
const results = {
  date: new Date().toISOString(), machine, tokens: T, file_bytes: fileBytes, parameters: native.parameters,
  multiply_adds: native.multiply_adds, peaks, native, wasm, torch, rows, keystrokes: keystroke, budgets,
};
writeFileSync(join(root, 'tests', 'bench', 'model-results.json'), JSON.stringify(results, null, 2) + '\n');

const f = (n, d = 1) => n.toFixed(d);
const mb = (n) => `${(n / 1e6).toFixed(0)} MB`;
const pct = (x) => (x === null ? '—' : `${(100 * x).toFixed(0)}%`);
const table = [
  `Measured ${results.date.slice(0, 10)} on ${machine}; \`make bench\`. A GPT-2-small-shaped model (12 layers, d 768, 12 heads, V 50257, tied; ${(native.parameters / 1e6).toFixed(1)}M parameters, ${mb(fileBytes)} as F32), written by \`gpt_file.py random --attn-scale 1\` (every Linear weight N(0, 0.02), as GPT-2 initialises them), on ${T} tokens: ${f(flop / 1e9, 1)} GFLOP a forward (multiply-adds counted from the shapes, every attention cell masked or not; median of ${runs} runs).`,
  '',
  describePeaks(peaks),
  '',
  `| forward on 128 tokens | ms | GFLOP/s | its peak GFLOP/s | of its peak | of the 128-bit peak | of AVX2's FMA peak |`,
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...[
    ['native (the core; its kernels at their widest here)', rows.native, `${f(rows.native.peak, 1)} (native, ${peaks.kernel.lanes} floats)`],
    ['wasm in Chromium (run() through the model worker: the forward and the guesses after every position)', rows.wasm, `${f(rows.wasm.peak, 1)} (SIMD128)`],
    [`PyTorch ${torch.torch}, one thread`, rows.torch, `${f(rows.torch.peak, 1)} (native, ${peaks.kernel.lanes} floats)`],
  ].map(([name, r, peak]) => `| ${name} | ${f(r.ms, 0)} | ${f(r.gflops, 2)} | ${peak} | ${pct(r.of_peak)} | ${pct(r.of_sse_peak)} | ${pct(r.of_avx2_fma_peak)} |`),
  '',
  `Opening the file in the page (a File streamed from disk in the engine's model worker, from \`open()\` to its answer: the worker's start, the wasm module, the file read 8 MB ahead into two reused buffers while the core checks, widens and moves the last 8 MB into place, the core mapping the weights' next pages whenever it waits on the file): ${f(wasm.load_ms / 1000, 2)} s, where merely first touching as many fresh bytes as the weights takes ${f(wasm.touch_ms / 1000, 2)} s in the same tab (this VM's page faults; natively ${f(native.touch_ms / 1000, 2)} s, and the native load ${f(native.load_ms / 1000, 2)} s). Wasm memory: ${mb(wasm.memory_after_load_bytes)} after the load, ${mb(wasm.memory_peak_bytes)} at its peak after ${runs + 1} forwards, ${f(memoryRatio, 2)} × the ${mb(fileBytes)} file; natively the peak RSS is ${mb(native.peak_rss_bytes)}. A keystroke with text-gpt (up to 31 characters): the worker's run comes back in ${f(keystroke.round_trip_median_ms, 2)} ms (p95 ${f(keystroke.round_trip_p95_ms, 2)} ms); receiving the arrays takes the page p95 ${f(keystroke.page_p95_ms, 2)} ms; in the Model view itself a keystroke's page work (the input's handler, the view's draw and the frame that shows it, summed) is ${f(keystroke.view_median_ms, 2)} ms median, p95 ${f(keystroke.view_p95_ms, 2)} ms.`,
  '',
  '| budget | measured | met |',
  '| --- | --- | --- |',
  ...budgets.map((b) => `| ${b.budget} | ${b.value} | ${b.met ? 'yes' : '**no**'} |`),
];
writeBlock('bench-models', table.join('\n'));
console.log(table.join('\n'));
if (!budgets.every((b) => b.met)) {
  console.error('bench: a models budget is missed (see the table)');
  process.exitCode = 1;
}
