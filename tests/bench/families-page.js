// Runs in Chromium for bench_families.mjs: a GPT file (#gpt2) and Hugging
// Face folders (#smollm2, #qwen2: config.json and model.safetensors chosen
// together, Files Chromium reads from disk) opened through the engine's
// model worker as the Model view opens them, each in a worker of its own
// (its own wasm32 memory). window.familyOpen(name) times the open, from
// the Files to the worker's answer (a folder: its config.json read and
// checked by folder-source.js, then every shard streamed into the core);
// window.familyRound(name) times one run() (the forward, every head's
// attention, the guesses after every position), so that the bench can make
// the rounds of several models alternate; window.familyClose(name) gives
// back the worker's wasm memory at its peak and stops it.
const engine = './assets/attention-playground/engine/';
const tokensOf = (T, V) => Array.from({ length: T }, (_, t) => (t * 7919 + 13) % V);
const models = new Map();  // name → {worker, tokens}

window.familyOpen = async (name, { T = 128 } = {}) => {
  const files = [...document.getElementById(name).files];
  if (files.length === 0) throw new Error(`no file chosen for ${name}`);
  const { ModelWorker } = await import(`${engine}model-client.js`);
  const worker = new ModelWorker();
  const start = performance.now();
  let info;
  if (name === 'gpt2') info = await worker.open(files[0]);
  else {
    const { filesPlace, readFolder } = await import(`${engine}folder-source.js`);
    info = await worker.openFolder(await readFolder(filesPlace(files, name)));
  }
  const load_ms = performance.now() - start;
  const memory_after_load_bytes = (await worker.memory()).bytes;
  models.set(name, { worker, tokens: tokensOf(T, info.config.vocab) });
  return { load_ms, memory_after_load_bytes, file_bytes: files.reduce((sum, f) => sum + f.size, 0),
           parameters: info.config.parameters ?? null, weight_bytes: info.weightBytes ?? null };
};

window.familyRound = async (name) => {
  const { worker, tokens } = models.get(name);
  const start = performance.now();
  await worker.run(tokens);
  return performance.now() - start;
};

window.familyClose = async (name) => {
  const { worker } = models.get(name);
  const memory_peak_bytes = (await worker.memory()).bytes;  // wasm memory never shrinks: its peak
  worker.terminate();
  models.delete(name);
  return { memory_peak_bytes };
};
