// `make bench`'s single-core peaks (peak.hpp), measured once per run and read
// by both the training bench and the model bench: natively every vector
// width the machine runs (attention-bench --peak; the kernels' own width is
// `kernel_lanes`), and wasm SIMD128 in Chromium (build/wasm/attention-peak.wasm,
// no glue). Writes build/bench/peaks.json.
//   node tests/bench/peaks.mjs [NATIVE_BENCH]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launch, root } from '../browser/browser.mjs';

const peaksFile = join(root, 'build', 'bench', 'peaks.json');

// GFLOP/s of SIMD128's loop in a Chromium tab: V8 tiered up first, then the
// best and the median of 15 runs (the machine is shared).
async function wasmPeak(wasmDir) {
  const bytes = [...readFileSync(join(wasmDir, 'attention-peak.wasm'))];
  const browser = await launch();
  const page = await browser.newPage();
  const peak = await page.evaluate(async (bytes) => {
    const { instance } = await WebAssembly.instantiate(new Uint8Array(bytes));
    const { peak_mul_add: run, peak_flops_per_step: flops } = instance.exports;
    for (let i = 0; i < 300; i++) run(10000);  // up to V8's optimizing tier
    const steps = 40_000_000, gflops = [];  // about 40 ms a run: well above the timer's coarseness (100 µs and jitter in a tab not isolated)
    for (let r = 0; r < 15; r++) {
      const start = performance.now();
      run(steps);
      gflops.push((flops() * steps) / (performance.now() - start) / 1e6);
    }
    gflops.sort((a, b) => a - b);
    return { what: 'mul+add', lanes: 4, gflops: gflops[gflops.length - 1], median_gflops: gflops[7] };
  }, bytes);
  await browser.close();
  return peak;
}

// { native: [{what, lanes, gflops, median_gflops}], kernel: the native peak
// at the kernels' width, sse: 128-bit (vex_128: in AVX's encoding), avx2_fma, wasm }
export async function measurePeaks(nativeBinary, wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm')) {
  const { kernel_lanes: lanes, vex_128: vex, peak: native } = JSON.parse(execFileSync(nativeBinary, ['--peak'], { encoding: 'utf8' }));
  const find = (what, n) => native.find((p) => p.what === what && p.lanes === n) ?? null;
  const peaks = {
    date: new Date().toISOString(),
    native,
    kernel: find('mul+add', lanes),
    sse: find('mul+add', 4),
    vex_128: vex === true,  // the 128-bit loop in AVX's encoding (simd.hpp simd_vex()), as V8 compiles SIMD128
    avx2_fma: find('fma', 8),
    avx512_fma: find('fma', 16),
    wasm: await wasmPeak(wasmDir),
  };
  mkdirSync(join(root, 'build', 'bench'), { recursive: true });
  writeFileSync(peaksFile, JSON.stringify(peaks, null, 1) + '\n');
  return peaks;
}

// This run's peaks: the ones `make bench` measured first, or measured now.
export async function readPeaks(nativeBinary) {
  if (existsSync(peaksFile)) return JSON.parse(readFileSync(peaksFile, 'utf8'));
  return measurePeaks(nativeBinary);
}

// The peaks' sentence for the README, shared by both tables.
export function describePeaks(peaks) {
  const f = (p) => (p ? p.gflops.toFixed(1) : '—');
  const width = { 4: '128-bit', 8: '256-bit AVX2', 16: '512-bit AVX-512' };
  return `Single-core peaks (peak.hpp: independent sums, a vector multiply then a vector add each, as the kernels compute; the best of 15 runs, measured once in this run): natively at the kernels' width here (${width[peaks.kernel.lanes]}) ${f(peaks.kernel)} GFLOP/s, at 128 bits ${f(peaks.sse)}${peaks.vex_128 ? " (in AVX's three-operand encoding, as V8 compiles wasm's SIMD128 and as the kernels run 4 lanes here; SSE2's two-operand form copies a register for each product and runs slower)" : ' (SSE2)'}`
    + `${peaks.avx2_fma ? `; with fused multiply-adds (which the core may not use: PyTorch's products have none) AVX2 ${f(peaks.avx2_fma)}` : ''}${peaks.avx512_fma ? `, AVX-512 ${f(peaks.avx512_fma)}` : ''}`
    + `; wasm SIMD128 in Chromium ${f(peaks.wasm)} GFLOP/s.`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const peaks = await measurePeaks(process.argv[2] ?? join(root, 'build', 'native', 'attention-bench'));
  console.log(describePeaks(peaks));
}
