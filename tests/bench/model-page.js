// Runs in Chromium: the file chosen in #file (a File: Chromium reads it from
// disk as File.stream() reads it) opened in a Worker through web/engine/model.js,
// as the Model view opens one; window.benchModel({T, runs}) returns the load
// time, the forward times and the wasm memory. window.keystrokes(…) times
// what a keystroke costs the page with a small model: the worker's run
// posted back, and the page's share of it (receiving the arrays).
window.benchModel = (options) => new Promise((resolve, reject) => {
  const file = document.getElementById('file').files[0];
  if (!file) return reject(new Error('no file chosen'));
  const worker = new Worker(new URL('./model-bench-worker.js', import.meta.url), { type: 'module' });
  worker.addEventListener('message', ({ data }) => {
    worker.terminate();
    if (data.error) reject(new Error(data.error));
    else resolve({ ...data, file_bytes: file.size });
  });
  worker.postMessage({ file, ...options });
});

window.keystrokes = async ({ url, texts }) => {
  const { ModelWorker } = await import('./assets/attention-playground/engine/model-client.js');
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
