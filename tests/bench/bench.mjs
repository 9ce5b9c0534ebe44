// `make bench`: how fast the core, the wasm build and the page are, side by
// side in one run, against the budgets. Writes tests/bench/results.json and
// the table between the bench markers of docs/benchmarks.md.
//   node tests/bench/bench.mjs NATIVE_BENCH_BINARY
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { hostSite, launch, openPage, root, serve, siteDir } from '../browser/browser.mjs';
import { scenarioText } from './scenario.js';
import { machine, writeBlock } from './report.mjs';

const nativeBinary = process.argv[2] ?? join(root, 'build', 'native', 'attention-bench');
const sizes = [1, 8].flatMap((heads) => [8, 64, 256, 512].map((T) => ({ B: 1, T, C: 128, heads })));
const key = (s) => `${s.B},${s.T},${s.C},${s.heads}`;
const log = (...a) => console.error(...a);

// 1. native
log('native core …');
const native = JSON.parse(execFileSync(nativeBinary, ['--json'], { encoding: 'utf8' })).native;

const browser = await launch();

// 2. wasm in Chromium against the plain-JS baseline
log('wasm and plain JavaScript in Chromium …');
const benchDir = hostSite({});
for (const f of ['bench.html', 'page.js', 'baseline.js', 'scenario.js']) cpSync(join(root, 'tests', 'bench', f), join(benchDir, f));
const bench = await serve({ root: benchDir });
const benchPage = await openPage(browser, `${bench.url}bench.html`);
await benchPage.waitForFunction(() => typeof window.bench === 'function');
const wasm = await benchPage.evaluate((s) => window.bench(s), sizes);
await benchPage.context().close();
bench.server.close();

// 4. animation: graph and matrices together at T = 64, B = 4, 4 heads
log('animation …');
const site = await serve({ root: siteDir });
const animationScenario = scenarioText(4, 64, 64, 4);
const animPage = await openPage(browser, null);
await animPage.addInitScript((text) => {
  sessionStorage.setItem('attention-playground:file', text);
  globalThis.__attentionFrameTimes = [];
  globalThis.__intervals = [];
}, animationScenario);
await animPage.goto(`${site.url}#file=1&step=x`);
await animPage.waitForSelector('#app[data-state="ready"]', { timeout: 30000 });
assertEqual(await animPage.getAttribute('.graph', 'data-pools'), '4', 'animation pools');
await animPage.evaluate(() => {
  globalThis.__attentionFrameTimes.length = 0;
  let last = performance.now();
  const watch = (now) => {
    globalThis.__intervals.push(now - last);
    last = now;
    if (globalThis.__intervals.length < 2000) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
});
await animPage.click('#play');
await animPage.waitForFunction(() => globalThis.__attentionFrameTimes.length >= 360, null, { timeout: 120000, polling: 500 });
const frames = await animPage.evaluate(() => ({ work: globalThis.__attentionFrameTimes.slice(0, 360), intervals: globalThis.__intervals.slice(5, 365) }));
await animPage.context().close();

// 5. load: navigation to data-state="ready", cold cache each time
log('load …');
const loads = [];
for (let i = 0; i < 7; i++) {
  const page = await openPage(browser, null);
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const app = document.getElementById('app');
      if (app?.dataset.state === 'ready' && globalThis.__readyAt === undefined) globalThis.__readyAt = performance.now();
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
  });
  await page.goto(site.url);
  await page.waitForFunction(() => globalThis.__readyAt !== undefined, null, { timeout: 30000 });
  loads.push(await page.evaluate(() => globalThis.__readyAt));  // ms since navigation start
  await page.context().close();
}
site.server.close();
await browser.close();
const size = JSON.parse(execFileSync('node', [join(root, 'scripts', 'site-size.mjs'), siteDir], { encoding: 'utf8' }).trim().split('\n').pop());

// 6. PyTorch, when Debian's python3-torch is there
let torch = { skipped: 'python3-torch is not installed' };
if (existsSync('/usr/bin/python3') && execFileSync('/usr/bin/python3', ['-c', 'import importlib.util, sys; sys.stdout.write(str(importlib.util.find_spec("torch") is not None))'], { encoding: 'utf8' }) === 'True') {
  log('PyTorch …');
  torch = JSON.parse(execFileSync('/usr/bin/python3', [join(root, 'tests', 'bench', 'bench_torch.py'), JSON.stringify(sizes.map((s) => [s.T, s.heads]))], { encoding: 'utf8' }));
}

// ---- putting it together ------------------------------------------------------
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const i = p * (sorted.length - 1);
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (i - lo);
}
function assertEqual(a, b, what) {
  if (a !== b) throw new Error(`bench: ${what}: ${a} !== ${b}`);
}

const nativeBy = new Map(native.map((n) => [key(n), n]));
const torchBy = new Map((torch.results ?? []).map((t) => [key(t), t]));
const rows = wasm.map((w) => {
  const n = nativeBy.get(key(w));
  const t = torchBy.get(key(w));
  return {
    B: w.B, T: w.T, C: w.C, heads: w.heads,
    native_ms: n.median_ms, native_p25_ms: n.p25_ms, native_p75_ms: n.p75_ms,
    wasm_ms: w.wasm.median_ms, wasm_p25_ms: w.wasm.p25_ms, wasm_p75_ms: w.wasm.p75_ms,
    js_ms: w.js.median_ms,
    js_over_wasm: w.js.median_ms / w.wasm.median_ms,
    wasm_over_native: w.wasm.median_ms / n.median_ms,
    torch_ms: t?.median_ms ?? null,
    native_over_torch: t ? n.median_ms / t.median_ms : null,
    wasm_and_js_equal: w.equal,
    largest_difference: w.largest_difference,
  };
});
const animation = {
  B: 4, T: 64, C: 64, heads: 4, frames: frames.work.length,
  work_p50_ms: percentile(frames.work, 0.5), work_p95_ms: percentile(frames.work, 0.95), work_worst_ms: Math.max(...frames.work),
  interval_p50_ms: percentile(frames.intervals, 0.5), interval_p95_ms: percentile(frames.intervals, 0.95), interval_worst_ms: Math.max(...frames.intervals),
};
const load = { runs: loads.length, ready_median_ms: percentile(loads, 0.5), ready_worst_ms: Math.max(...loads), first_visit_gzip_bytes: size.first_visit_gzip, site_gzip_bytes: size.site_gzip };
const big = rows.find((r) => r.T === 512 && r.heads === 8);
const budgets = [
  { budget: 'wasm at least 2× faster than plain JS for T ≥ 128', value: Math.min(...rows.filter((r) => r.T >= 128).map((r) => r.js_over_wasm)), limit: 2, unit: '×', met: rows.filter((r) => r.T >= 128).every((r) => r.js_over_wasm >= 2) },
  { budget: 'wasm within 2.5× of native at every size', value: Math.max(...rows.map((r) => r.wasm_over_native)), limit: 2.5, unit: '×', met: rows.every((r) => r.wasm_over_native <= 2.5) },
  { budget: 'T = 512, C = 128, 8 heads in Chromium under 100 ms', value: big.wasm_ms, limit: 100, unit: 'ms', met: big.wasm_ms < 100 },
  { budget: 'p95 frame time ≤ 16.7 ms (T = 64, B = 4, 4 heads)', value: animation.work_p95_ms, limit: 16.7, unit: 'ms', met: animation.work_p95_ms <= 16.7 },
  { budget: 'ready in under 1 s on localhost', value: load.ready_median_ms, limit: 1000, unit: 'ms', met: load.ready_median_ms < 1000 },
  { budget: 'page transfer ≤ 300 KB gzip', value: load.first_visit_gzip_bytes / 1024, limit: 300, unit: 'KB', met: load.first_visit_gzip_bytes / 1024 <= 300 },
  { budget: 'wasm and plain JS agree on every size', value: Math.max(...rows.map((r) => r.largest_difference)), limit: null, unit: '', met: rows.every((r) => r.wasm_and_js_equal) },
];

const results = {
  date: new Date().toISOString(),
  machine: machine(),
  traces: rows, reference: native.find((n) => n.B === 4), animation, load, torch: torch.skipped ? torch : { version: torch.torch, threads: torch.threads }, budgets,
};
writeFileSync(join(root, 'tests', 'bench', 'results.json'), JSON.stringify(results, null, 2) + '\n');

// ---- the table ------------------------------------------------------------------
const f = (n, d = 1) => (n === null ? '—' : n.toFixed(d));
const table = [
  `Measured ${results.date.slice(0, 10)} on ${results.machine}; \`make bench\` (median of 15–200 runs; p25–p75 in brackets).`,
  '',
  '| T, heads (B = 1, C = 128) | native ms | wasm ms (Chromium) | plain JS ms | JS / wasm | wasm / native | PyTorch ms | native / PyTorch |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.T}, ${r.heads} | ${f(r.native_ms, 2)} (${f(r.native_p25_ms, 2)}–${f(r.native_p75_ms, 2)}) | ${f(r.wasm_ms, 2)} (${f(r.wasm_p25_ms, 2)}–${f(r.wasm_p75_ms, 2)}) | ${f(r.js_ms, 1)} | ${f(r.js_over_wasm, 2)}× | ${f(r.wasm_over_native, 2)}× | ${f(r.torch_ms, 2)} | ${r.native_over_torch === null ? '—' : f(r.native_over_torch, 2) + '×'} |`),
  '',
  `Animation (graph and matrices together, T = 64, B = 4, 4 heads, ${animation.frames} frames): our work per frame p50 ${f(animation.work_p50_ms, 2)} ms, p95 ${f(animation.work_p95_ms, 2)} ms, worst ${f(animation.work_worst_ms, 2)} ms; frame interval p50 ${f(animation.interval_p50_ms, 1)} ms, p95 ${f(animation.interval_p95_ms, 1)} ms, worst ${f(animation.interval_worst_ms, 1)} ms.`,
  '',
  `Load: navigation to \`data-state="ready"\` on localhost, median of ${load.runs} cold loads ${f(load.ready_median_ms, 0)} ms (worst ${f(load.ready_worst_ms, 0)} ms); first visit ${f(load.first_visit_gzip_bytes / 1024, 1)} KB gzip.`,
  '',
  torch.skipped ? `PyTorch: skipped (${torch.skipped}).` : `PyTorch ${results.torch.version}, one thread, times the same steps on inputs already drawn; the core's times include parsing the scenario and drawing its tensors.`,
  '',
  '| budget | measured | met |',
  '| --- | --- | --- |',
  ...budgets.map((b) => `| ${b.budget} | ${b.unit === '' ? `largest difference ${b.value.toExponential(1)}` : `${f(b.value, b.unit === '×' ? 2 : 1)} ${b.unit}`} | ${b.met ? 'yes' : '**no**'} |`),
];
writeBlock('bench', table.join('\n'));
console.log(table.join('\n'));
if (!budgets.every((b) => b.met)) {
  console.error('bench: a budget is missed (see the table)');
  process.exitCode = 1;
}
