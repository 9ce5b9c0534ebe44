// `make bench`'s model part, the Llama family (issue 30's "Fast enough to
// use"): a SmolLM2-135M-shaped folder (d 576, 30 layers, 9 heads, 3 key/value
// heads, SwiGLU 1536, V 49152, tied, BF16) and a Qwen2.5-0.5B-shaped one
// (d 896, 24 layers, 14 heads, 2 key/value heads, SwiGLU 4864, V 151936,
// tied, BF16, q/k/v biases), random weights written at bench time by
// make_hf_folder.mjs, beside the GPT-2-small-shaped file of the model bench
// (gpt2-small.mjs), all on the same 128 tokens. Natively
// (attention-families-bench: the three in alternating rounds in one process)
// and in wasm in Chromium (families-page.js: each opened through the engine's
// model worker as the Model view opens it, GPT-2 and SmolLM2 in alternating
// rounds in one tab, then Qwen2.5 alone); GFLOP/s from the multiply-adds the
// native bench counts from each block's shapes (forward_work.hpp). Goals:
// SmolLM2's wasm GFLOP/s ≥ 90% of GPT-2's in the same rounds, SmolLM2 opened
// in the page in < 3 s, Qwen2.5's peak wasm memory ≤ 1.3 × its file; Qwen2.5's
// forward time reported. Adds `families` to tests/bench/model-results.json
// and writes the benchmark page's table between <!-- bench-families:… --> markers.
//   node tests/bench/bench_families.mjs [FAMILIES_BENCH] [NATIVE_BENCH] [--rounds N] [--native-only]
// (--native-only: the native rounds printed alone, nothing written)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import { hostSite, launch, openPage, root, serve } from '../browser/browser.mjs';
import { benchDir, gpt2SmallFile } from './gpt2-small.mjs';
import { ensureFolder, shapes } from './make_hf_folder.mjs';
import { readPeaks } from './peaks.mjs';
import { median, percentile } from './view-keystrokes.mjs';
import { machine as machineName, writeBlock } from './report.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args.splice(i, 2)[1];
};
const rounds = Number(option('--rounds', 7));
const nativeOnly = args.includes('--native-only');
if (nativeOnly) args.splice(args.indexOf('--native-only'), 1);
const familiesBench = args[0] ?? join(root, 'build', 'native', 'attention-families-bench');
const T = 128;
const goals = { gflopsShare: 0.9, openMs: 3000, memoryRatio: 1.3 };
const log = (...a) => console.error(...a);
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const loadBefore = load();

// 0. the GPT-2-small-shaped file and the two folders, made here once
const gpt2File = gpt2SmallFile(log);
const folders = {
  smollm2: ensureFolder('smollm2-135m', join(benchDir, 'smollm2-135m'), log),
  qwen2: ensureFolder('qwen2.5-0.5b', join(benchDir, 'qwen2.5-0.5b'), log),
};
const folderFiles = (f) => [join(f.folder, 'config.json'), join(f.folder, 'model.safetensors')];

// 1. natively, the three in alternating rounds
log(`natively, ${rounds} alternating rounds …`);
const native = JSON.parse(execFileSync(familiesBench, [String(T), String(rounds), gpt2File, folders.smollm2.folder, folders.qwen2.folder],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
const [nativeGpt2, nativeSmol, nativeQwen] = native.models;
if (nativeOnly) {
  for (const m of native.models) {
    const ms = median(m.forward_ms);
    log(`  ${m.family}: ${(2 * m.multiply_adds / 1e9).toFixed(1)} GFLOP, forward ${ms.toFixed(0)} ms, ${(2 * m.multiply_adds / (ms * 1e6)).toFixed(1)} GFLOP/s, load ${m.load_ms.toFixed(0)} ms, holding ${(m.held_bytes / 1e6).toFixed(0)} MB`);
  }
  process.exit(0);
}
const peaks = await readPeaks(args[1] ?? join(root, 'build', 'native', 'attention-bench'));

// 2. Chromium: each through its own model worker
log(`wasm in Chromium: GPT-2 and SmolLM2, ${rounds} alternating rounds …`);
const host = hostSite({});
for (const f of ['families.html', 'families-page.js']) cpSync(join(root, 'tests', 'bench', f), join(host, f));
const server = await serve({ root: host });
const browser = await launch();
const page = await openPage(browser, `${server.url}families.html`);
await page.waitForFunction(() => typeof window.familyOpen === 'function');
await page.setInputFiles('#gpt2', gpt2File);
await page.setInputFiles('#smollm2', folderFiles(folders.smollm2));
await page.setInputFiles('#qwen2', folderFiles(folders.qwen2));
const opened = {};
opened.gpt2 = await page.evaluate((o) => window.familyOpen('gpt2', o), { T });
opened.smollm2 = await page.evaluate((o) => window.familyOpen('smollm2', o), { T });
for (const name of ['gpt2', 'smollm2']) await page.evaluate((n) => window.familyRound(n), name);  // warm
const wasmMs = { gpt2: [], smollm2: [], qwen2: [] };
for (let r = 0; r < rounds; r++) {
  for (const name of ['gpt2', 'smollm2']) wasmMs[name].push(await page.evaluate((n) => window.familyRound(n), name));
  log(`  round ${r + 1}: GPT-2 ${wasmMs.gpt2[r].toFixed(0)} ms, SmolLM2 ${wasmMs.smollm2[r].toFixed(0)} ms`);
}
const closed = {};
for (const name of ['gpt2', 'smollm2']) closed[name] = await page.evaluate((n) => window.familyClose(n), name);
log('wasm in Chromium: Qwen2.5 …');
opened.qwen2 = await page.evaluate((o) => window.familyOpen('qwen2', o), { T });
await page.evaluate(() => window.familyRound('qwen2'));  // warm
const qwenRounds = Math.min(rounds, 3);
for (let r = 0; r < qwenRounds; r++) wasmMs.qwen2.push(await page.evaluate(() => window.familyRound('qwen2')));
closed.qwen2 = await page.evaluate(() => window.familyClose('qwen2'));
if (page.problems.length || page.failed.length) log([...page.problems, ...page.failed].join('\n'));
await page.context().close();
await browser.close();
server.server.close();
const loadAfter = load();

// ---- putting it together ------------------------------------------------------
const gflops = (m, ms) => (2 * m.multiply_adds) / (ms * 1e6);
const spread = (xs) => ({ median: median(xs), min: Math.min(...xs), p25: percentile(xs, 0.25), p75: percentile(xs, 0.75), max: Math.max(...xs) });
const row = (nativeModel, name) => {
  const wasm = wasmMs[name];
  const fileBytes = opened[name].file_bytes;
  return {
    family: nativeModel.family, parameters: nativeModel.parameters, shape: nativeModel.shape, multiply_adds: nativeModel.multiply_adds,
    file_bytes: fileBytes,
    native: { forward_ms: median(nativeModel.forward_ms), run_ms: median(nativeModel.run_ms), load_ms: nativeModel.load_ms,
              gflops: gflops(nativeModel, median(nativeModel.forward_ms)), held_bytes: nativeModel.held_bytes, held_of_file: nativeModel.held_bytes / fileBytes },
    wasm: { run_ms: median(wasm), runs_ms: wasm, gflops: gflops(nativeModel, median(wasm)), of_peak: gflops(nativeModel, median(wasm)) / peaks.wasm.gflops,
            load_ms: opened[name].load_ms, memory_after_load_bytes: opened[name].memory_after_load_bytes,
            memory_peak_bytes: closed[name].memory_peak_bytes, memory_of_file: closed[name].memory_peak_bytes / fileBytes },
  };
};
const models = { gpt2: row(nativeGpt2, 'gpt2'), smollm2: row(nativeSmol, 'smollm2'), qwen2: row(nativeQwen, 'qwen2') };
// SmolLM2's GFLOP/s over GPT-2's, round by round (each pair ran in the same seconds)
const shares = wasmMs.smollm2.map((ms, r) => gflops(nativeSmol, ms) / gflops(nativeGpt2, wasmMs.gpt2[r]));
const share = spread(shares);
const nativeShare = gflops(nativeSmol, median(nativeSmol.forward_ms)) / gflops(nativeGpt2, median(nativeGpt2.forward_ms));
const budgets = [
  { budget: `SmolLM2-shaped forward in wasm ≥ ${100 * goals.gflopsShare}% of the GPT-2-small-shaped forward's GFLOP/s (the median of the rounds' ratios)`,
    value: `${(100 * share.median).toFixed(0)}% (p25–p75 ${(100 * share.p25).toFixed(0)}–${(100 * share.p75).toFixed(0)}%)`, met: share.median >= goals.gflopsShare },
  { budget: 'SmolLM2-shaped folder opened in the page in < 3 s', value: `${(models.smollm2.wasm.load_ms / 1000).toFixed(2)} s`, met: models.smollm2.wasm.load_ms < goals.openMs },
  { budget: `Qwen2.5-0.5B-shaped folder in a wasm32 tab: peak memory ≤ ${goals.memoryRatio} × its file`,
    value: `${models.qwen2.wasm.memory_of_file.toFixed(2)} ×`, met: models.qwen2.wasm.memory_of_file <= goals.memoryRatio },
];
const machine = machineName();
const families = {
  date: new Date().toISOString(), machine, load_average: { before: loadBefore, after: loadAfter }, tokens: T, rounds, qwen_rounds: qwenRounds,
  peaks_date: peaks.date, peak_wasm_gflops: peaks.wasm.gflops, peak_native_gflops: peaks.kernel.gflops, models, smollm2_of_gpt2_wasm: share, smollm2_of_gpt2_native: nativeShare,
  native_peak_rss_bytes: native.peak_rss_bytes, problems: [...page.problems, ...page.failed], budgets,
};
const resultsPath = join(root, 'tests', 'bench', 'model-results.json');
const results = existsSync(resultsPath) ? JSON.parse(readFileSync(resultsPath, 'utf8')) : {};
results.families = families;
writeFileSync(resultsPath, JSON.stringify(results, null, 2) + '\n');

const f = (n, d = 0) => n.toFixed(d);
const mb = (n) => `${f(n / 1e6)} MB`;
const pct = (x) => `${f(100 * x)}%`;
const names = { gpt2: 'GPT-2-small-shaped file (F32)', smollm2: 'SmolLM2-135M-shaped folder (BF16)', qwen2: 'Qwen2.5-0.5B-shaped folder (BF16)' };
const table = [
  `Measured ${families.date.slice(0, 16).replace('T', ' ')} UTC on ${machine}, load average ${loadBefore[0]} before and ${loadAfter[0]} after (1 minute; the machine is shared); \`make bench\`. Three models on the same ${T} tokens: the GPT-2-small-shaped file above, and two Hugging Face folders with random BF16 weights written at bench time by \`make_hf_folder.mjs\` (N(0, 0.02), seeded): SmolLM2-135M's shape (${shapes['smollm2-135m'].num_hidden_layers} layers, d ${shapes['smollm2-135m'].hidden_size}, ${shapes['smollm2-135m'].num_attention_heads} heads sharing ${shapes['smollm2-135m'].num_key_value_heads} key/value heads, SwiGLU ${shapes['smollm2-135m'].intermediate_size}, V ${shapes['smollm2-135m'].vocab_size}, tied) and Qwen2.5-0.5B's (${shapes['qwen2.5-0.5b'].num_hidden_layers} layers, d ${shapes['qwen2.5-0.5b'].hidden_size}, ${shapes['qwen2.5-0.5b'].num_attention_heads} heads sharing ${shapes['qwen2.5-0.5b'].num_key_value_heads}, SwiGLU ${shapes['qwen2.5-0.5b'].intermediate_size}, V ${shapes['qwen2.5-0.5b'].vocab_size}, tied, q/k/v biases). GFLOP counted from each block's shapes (\`forward_work.hpp\`): q, k and v (k and v for the shared key/value heads only), the projection, the MLP (SwiGLU's gate, up and down: three products), every query head's T × T scores and weighted sums (masked cells too), one unembedding; norms, the rotation, softmax and activations are not counted. Natively \`forward()\` alone, the three in ${rounds} alternating rounds in one process; in wasm \`run()\` through the engine's model worker (the forward, every head's attention, the guesses after every position), GPT-2 and SmolLM2 in ${rounds} alternating rounds in one tab, then Qwen2.5 alone (${qwenRounds} runs); medians.`,
  '',
  '| forward on 128 tokens | GFLOP | native ms | native GFLOP/s | wasm ms | wasm GFLOP/s | of the SIMD128 peak | opened in the page | wasm memory at its peak / file |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...Object.entries(models).map(([name, m]) => `| ${names[name]}, ${f(m.parameters / 1e6, 1)}M parameters, ${mb(m.file_bytes)} | ${f((2 * m.multiply_adds) / 1e9, 1)} | ${f(m.native.forward_ms)} | ${f(m.native.gflops, 1)} | ${f(m.wasm.run_ms)} | ${f(m.wasm.gflops, 1)} | ${pct(m.wasm.of_peak)} | ${f(m.wasm.load_ms / 1000, 2)} s | ${mb(m.wasm.memory_peak_bytes)}, ${f(m.wasm.memory_of_file, 2)} × |`),
  '',
  `SmolLM2's GFLOP/s over GPT-2's in wasm, round by round: median ${pct(share.median)} (p25–p75 ${pct(share.p25)}–${pct(share.p75)}, all ${pct(share.min)}–${pct(share.max)}); natively ${pct(nativeShare)}. Opening: a GPT file is one \`open()\` of the File; a folder is its \`config.json\` read and checked in the page (\`engine/folder-source.js\`), then \`openFolder()\`, its shard streamed into the worker; the SIMD128 peak is ${f(peaks.wasm.gflops, 1)} GFLOP/s as \`peaks.mjs\` measured it at ${peaks.date.slice(0, 16).replace('T', ' ')} UTC (\`make bench\` measures it first). Natively each model holds once loaded (malloc's bytes in use, before and after its load): GPT-2 ${mb(models.gpt2.native.held_bytes)} (${f(models.gpt2.native.held_of_file, 2)} × its file), SmolLM2 ${mb(models.smollm2.native.held_bytes)} (${f(models.smollm2.native.held_of_file, 2)} ×), Qwen2.5 ${mb(models.qwen2.native.held_bytes)} (${f(models.qwen2.native.held_of_file, 2)} ×). Qwen2.5's \`run()\` in wasm: ${f(models.qwen2.wasm.run_ms)} ms (${wasmMs.qwen2.map((x) => f(x)).join(', ')}), natively its forward ${f(models.qwen2.native.forward_ms)} ms. Wasm memory is the worker's whole memory (weights, activations, the allocator's free space; it never shrinks, so after the runs it is the peak): Qwen2.5 ${mb(models.qwen2.wasm.memory_after_load_bytes)} after the load (its ${f(models.qwen2.parameters / 1e6, 1)}M weights are ${mb(4 * models.qwen2.parameters)} as float32, ${mb(2 * models.qwen2.parameters)} kept as BF16), ${mb(models.qwen2.wasm.memory_peak_bytes)} at its peak.`,
  '',
  '| budget | measured | met |',
  '| --- | --- | --- |',
  ...budgets.map((b) => `| ${b.budget} | ${b.value} | ${b.met ? 'yes' : '**no**'} |`),
];
writeBlock('bench-families', table.join('\n'));
console.log(table.join('\n'));
if (families.problems.length) {
  console.error('bench: the page reported problems (above)');
  process.exitCode = 1;
}
if (!budgets.every((b) => b.met)) {
  console.error('bench: a families budget is missed (see the table)');
  process.exitCode = 1;
}
