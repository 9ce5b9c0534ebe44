// Runs in Chromium: the wasm core through engine.js against the plain-JS
// baseline, same sizes, same inputs, results checked equal. window.bench(sizes)
// returns the measurements.
import { loadEngine } from './assets/attention-playground/engine/engine.js';
import { attentionJS } from './baseline.js';
import { scenarioText } from './scenario.js';

function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p) => {
    const i = p * (sorted.length - 1);
    const lo = Math.floor(i);
    return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (i - lo);
  };
  return { median_ms: at(0.5), p25_ms: at(0.25), p75_ms: at(0.75), min_ms: sorted[0], max_ms: sorted.at(-1), runs: ms.length };
}

function time(runs, f) {
  // warm up: compile, grow memory, and let the engine tier up its optimized
  // code (one call left the first size timing the tier-up: medians 2-3 ms
  // for a 0.7 ms trace)
  const warm = performance.now();
  for (let i = 0; i < 1000 && (i < 10 || performance.now() - warm < 250); i++) f();
  const ms = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    f();
    ms.push(performance.now() - start);
  }
  return stats(ms);
}

// largest |a - b| and whether all are within 2e-5 + 1e-4·|b|
function compare(a, b) {
  let worst = 0;
  let ok = true;
  for (let i = 0; i < b.length; i++) {
    if (a[i] === b[i]) continue;
    const d = Math.abs(a[i] - b[i]);
    worst = Math.max(worst, d);
    if (!(d <= 2e-5 + 1e-4 * Math.abs(b[i]))) ok = false;
  }
  return { worst, ok };
}

window.bench = async (sizes) => {
  const engine = await loadEngine();
  const results = [];
  for (const { B, T, C, heads } of sizes) {
    const text = scenarioText(B, T, C, heads);
    const runs = T <= 64 ? 100 : 15;
    const wasm = time(runs, () => engine.run(text).dispose());

    const trace = engine.run(text);
    const x = trace.tensor('x').data;
    const weights = Array.from({ length: heads }, (_, h) => ({
      wq: trace.tensor(`q${h}`).data, wk: trace.tensor(`k${h}`).data, wv: trace.tensor(`v${h}`).data, d: C / heads,
    }));
    const js = time(Math.max(3, Math.floor(runs / 3)), () => attentionJS(x, T, C, weights));
    const computed = attentionJS(x, T, C, weights);
    let worst = 0;
    let equal = true;
    computed.forEach((head, h) => {
      for (const step of ['scores', 'weights', 'out']) {
        const c = compare(head[step], trace.step(h, step, 0).data);
        worst = Math.max(worst, c.worst);
        equal = equal && c.ok;
      }
    });
    trace.dispose();
    results.push({ B, T, C, heads, wasm, js, js_over_wasm: js.median_ms / wasm.median_ms, equal, largest_difference: worst });
  }
  return results;
};
