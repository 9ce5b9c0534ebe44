// Runs in Chromium: the file chosen in #file (a File: Chromium reads it from
// disk as File.stream() reads it) opened through the engine's model worker
// (web/engine/model-client.js), as the Model view opens one;
// window.benchModel({T, runs}) returns the load time, run()'s times and the
// wasm memory (the worker's own answer). window.keystrokes(…) times what a
// keystroke costs the page with a small model: the worker's run posted
// back, and the page's share of it (receiving the arrays).
const clientUrl = './assets/attention-playground/engine/model-client.js';

window.benchModel = async ({ T = 128, runs = 5 }) => {
  const file = document.getElementById('file').files[0];
  if (!file) throw new Error('no file chosen');
  const { ModelWorker } = await import(clientUrl);
  const model = new ModelWorker();
  const start = performance.now();
  const info = await model.open(file);
  const load_ms = performance.now() - start;
  const afterLoad = (await model.memory()).bytes;
  const V = info.config.vocab;
  const tokens = Array.from({ length: T }, (_, t) => (t * 7919 + 13) % V);
  await model.run(tokens);  // warm: memory grown, code tiered up
  const run_ms = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    await model.run(tokens);
    run_ms.push(performance.now() - t0);
  }
  const peak = (await model.memory()).bytes;
  model.terminate();
  // what first touching as many fresh bytes as the weights costs in this
  // browser on this machine: no load can be faster
  const t1 = performance.now();
  const fresh = new Uint8Array(info.weightBytes);
  for (let i = 0; i < fresh.length; i += 4096) fresh[i] = 1;
  const touch_ms = performance.now() - t1;
  return { load_ms, run_ms, touch_ms, memory_after_load_bytes: afterLoad, memory_peak_bytes: peak,
           parameters: info.config.parameters, weight_bytes: info.weightBytes, file_bytes: file.size };
};

window.keystrokes = async ({ url, texts }) => {
  const { ModelWorker } = await import(clientUrl);
  const model = new ModelWorker();
  await model.open(url);
  const page = [];
  const roundTrip = [];
  for (const text of texts) {
    const tokens = await model.encode(text);
    const start = performance.now();
    const result = await model.run(tokens);
    const received = performance.now();
    // the page's work on arrival: reading what a view draws (no drawing here)
    let sum = 0;
    for (let i = 0; i < result.attention.data.length; i += 97) sum += result.attention.data[i];
    page.push(performance.now() - received + (sum === -1 ? 1 : 0));
    roundTrip.push(received - start);
  }
  model.terminate();
  return { page, roundTrip };
};
