// Runs in Chromium for bench_generate.mjs: generation's tokens a second
// against its memory bound. window.bandwidth(bytes) times one thread's read
// of an array that large (attention-bandwidth.wasm, no glue: its memory
// grown once to the largest array asked, every smaller one its prefix).
// window.genOpen() opens the File(s) in #model through the engine's model
// worker as the Model view does (a file, or a folder's config.json and
// model.safetensors); window.genRound(prompt, count) times the worker's
// generate() (the Model view's Generate: `count` new tokens after `prompt`,
// temperature 1, seed 42) and returns the new ids. window.ortOpen() makes an
// ONNX Runtime Web session of #onnx (its wasm backend, one thread, SIMD);
// window.ortRound(prompt, ids) runs the prompt as one step with no past, then
// each of `ids` but the last as a one-token step on the presents before it:
// the forwards our generate() of ids.length tokens makes.
const engine = './assets/attention-playground/engine/';
let reader, readerFloats = 0, worker, ort, session;

window.bandwidth = async (bytes, { runs = 7 } = {}) => {
  if (!reader) {
    const bytes = await (await fetch('./attention-bandwidth.wasm')).arrayBuffer();
    const { instance } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth: () => {} } });
    reader = instance.exports;
  }
  const n = Math.max(16, Math.floor(bytes / 64) * 16);  // floats, a multiple of 16
  if (n > readerFloats) {
    if (!reader.grow_floats(n - readerFloats)) throw new Error(`bandwidth: could not grow wasm memory to ${bytes} bytes`);
    readerFloats = n;
  }
  const base = (reader.grow_floats(0) >>> 0) - readerFloats * 4;  // the arrays' start: grown at the end of memory, in one piece
  const times = Math.max(1, Math.round(2e8 / (n * 4)));   // a small array is read many times a run
  for (let i = 0; i < 3; i += 1) reader.read_sum(base, n);  // V8's optimizing tier, the pages in hand
  const gbps = [];
  for (let r = 0; r < runs; r += 1) {
    const start = performance.now();
    for (let i = 0; i < times; i += 1) reader.read_sum(base, n);
    gbps.push((times * n * 4) / ((performance.now() - start) * 1e6));
  }
  gbps.sort((a, b) => a - b);
  return { bytes: n * 4, best_gbps: gbps[gbps.length - 1], median_gbps: gbps[runs >> 1] };
};

window.genOpen = async () => {
  const files = [...document.getElementById('model').files];
  if (files.length === 0) throw new Error('no model chosen');
  const { ModelWorker } = await import(`${engine}model-client.js`);
  worker?.terminate();
  worker = new ModelWorker();
  const start = performance.now();
  let info;
  if (files.length === 1) info = await worker.open(files[0]);
  else {
    const { filesPlace, readFolder } = await import(`${engine}folder-source.js`);
    info = await worker.openFolder(await readFolder(filesPlace(files, 'model')));
  }
  return { load_ms: performance.now() - start, vocab: info.config.vocab, length: info.config.length, family: info.family };
};

window.genRound = async (prompt, count) => {
  const start = performance.now();
  const ids = await worker.generate(prompt, count, { temperature: 1, seed: 42 });
  return { ms: performance.now() - start, ids };
};

window.genClose = async () => {
  const bytes = (await worker.memory()).bytes;
  worker.terminate();
  worker = undefined;
  return { memory_peak_bytes: bytes };
};

window.ortOpen = async () => {
  ort ??= await import('./ort/ort.wasm.min.mjs');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
  const start = performance.now();
  const bytes = new Uint8Array(await document.getElementById('onnx').files[0].arrayBuffer());
  session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  return { load_ms: performance.now() - start, version: ort.env.versions?.common ?? null, threads: ort.env.wasm.numThreads };
};

// {prompt_ms, steps_ms, steps}: the prompt's step, then ids.length − 1 one-token steps
window.ortRound = async (prompt, ids, { layers, heads, headDim }) => {
  const int64 = (a) => new ort.Tensor('int64', BigInt64Array.from(a, BigInt), [a.length]);
  const empty = new ort.Tensor('float32', new Float32Array(0), [layers, heads, 0, headDim]);
  let start = performance.now();
  let out = await session.run({ tokens: int64(prompt), positions: int64(prompt.map((_, i) => i)),
                                past_keys: empty, past_values: empty });
  const prompt_ms = performance.now() - start;
  start = performance.now();
  for (let i = 0; i + 1 < ids.length; i += 1) {
    const next = await session.run({ tokens: int64([ids[i]]), positions: int64([prompt.length + i]),
                                     past_keys: out.present_keys, past_values: out.present_values });
    out.present_keys.dispose?.();
    out.present_values.dispose?.();
    out = next;
  }
  return { prompt_ms, steps_ms: performance.now() - start, steps: ids.length - 1, logits: out.logits.dims };
};
