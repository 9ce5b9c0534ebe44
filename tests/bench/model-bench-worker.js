// The model benchmark's worker (model-page.js): opens the File through
// web/engine/model.js exactly as the Model view's worker does, then times
// run() (the forward, the guesses after every position, the loss) on T tokens.
import { loadModelEngine, openModel } from './assets/attention-playground/engine/model.js';

self.addEventListener('message', async ({ data: { file, T = 128, runs = 5 } }) => {
  try {
    const engine = await loadModelEngine();
    const memory = () => engine.module.HEAP8.buffer.byteLength;
    const before = memory();
    const start = performance.now();
    const model = await openModel(file, { engine });
    const load_ms = performance.now() - start;
    const afterLoad = memory();
    const V = model.config.vocab;
    const tokens = Array.from({ length: T }, (_, t) => (t * 7919 + 13) % V);
    model.run(tokens);  // warm: memory grown, code tiered up
    const run_ms = [];
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      model.run(tokens);
      run_ms.push(performance.now() - t0);
    }
    const peak = memory();
    model.dispose();
    // what first touching as many fresh bytes as the weights costs in this
    // browser on this machine: no load can be faster
    const t1 = performance.now();
    const fresh = new Uint8Array(model.info.weightBytes);
    for (let i = 0; i < fresh.length; i += 4096) fresh[i] = 1;
    const touch_ms = performance.now() - t1;
    self.postMessage({ load_ms, run_ms, touch_ms, memory_start_bytes: before, memory_after_load_bytes: afterLoad,
                       memory_peak_bytes: peak, parameters: model.info.config.parameters, weight_bytes: model.info.weightBytes });
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
});
