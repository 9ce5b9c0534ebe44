// Runs in Chromium for bench_peer.mjs: the same GPT forward in this
// project's wasm and in ONNX Runtime Web, in the same tab.
// Ours: the file chosen in #file opened through the engine's model worker
// (web/engine/model-client.js), as the Model view opens it; a round is one
// run(): the forward, every head's attention [L, H, T, T] and the guesses
// after every position. Theirs: ort's wasm backend (its files served from
// this site, ./ort/), one thread, SIMD; a round is one session.run() of the
// exported graph (#onnx), logits [T, V] and attention [L, H, T, T]; its load
// counts reading the file's bytes. The bench makes
// the rounds alternate; each answer is kept for peerCompare().
const clientUrl = './assets/attention-playground/engine/model-client.js';
const tokensOf = (T, V) => Array.from({ length: T }, (_, t) => (t * 7919 + 13) % V);
let ours, theirs, ort, T, V, oursLast, theirsLast;

window.peerOpen = async ({ T: length }) => {
  T = length;
  const file = document.getElementById('file').files[0];
  if (!file) throw new Error('no file chosen');
  const { ModelWorker } = await import(clientUrl);
  ours = new ModelWorker();
  let start = performance.now();
  const info = await ours.open(file);
  const ours_load_ms = performance.now() - start;
  V = info.config.vocab;
  ort = await import('./ort/ort.wasm.min.mjs');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
  const onnx = document.getElementById('onnx').files[0];
  if (!onnx) throw new Error('no ONNX file chosen');
  start = performance.now();
  theirs = await ort.InferenceSession.create(new Uint8Array(await onnx.arrayBuffer()), { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  const theirs_load_ms = performance.now() - start;
  return { ours_load_ms, theirs_load_ms, vocab: V, ort: ort.env.versions?.common ?? null,
           threads: ort.env.wasm.numThreads, crossOriginIsolated };
};

// One round of one side: its ms, from the request to the arrays in hand.
window.peerRound = async (which) => {
  const tokens = tokensOf(T, V);
  if (which === 'ours') {
    const start = performance.now();
    oursLast = await ours.run(tokens);
    return performance.now() - start;
  }
  const start = performance.now();
  const input = new ort.Tensor('int64', BigInt64Array.from(tokens, BigInt), [T]);
  const out = await theirs.run({ tokens: input });
  theirsLast = { logits: out.logits.data, attention: out.attention.data, dims: [out.logits.dims, out.attention.dims] };
  return performance.now() - start;
};

// The largest differences between the last rounds' answers. The worker
// gives the logits after the last position only (and the 10 most probable
// tokens after every position); #logits holds the core's logits after every
// position (T, V), written natively by attention-model-split.
window.peerCompare = async () => {
  const native = new Float32Array(await document.getElementById('logits').files[0].arrayBuffer());
  const theirsLogits = theirsLast.logits;
  const maxDiff = (a, b) => {
    let m = 0;
    for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
    return m;
  };
  const lastRow = (x) => x.subarray((T - 1) * V, T * V);
  // ours' probabilities of its 10 most probable tokens after every position
  // against their softmax at the same tokens (in float64: a check, not a view)
  const { k, ids, probabilities } = oursLast.top;
  let probabilityDiff = 0;
  for (let t = 0; t < T; t++) {
    const row = theirsLogits.subarray(t * V, (t + 1) * V);
    let max = -Infinity, sum = 0;
    for (let i = 0; i < V; i++) max = Math.max(max, row[i]);
    for (let i = 0; i < V; i++) sum += Math.exp(row[i] - max);
    for (let n = 0; n < 10 && n < k; n++) {
      const p = Math.exp(row[ids[t * k + n]] - max) / sum;
      probabilityDiff = Math.max(probabilityDiff, Math.abs(p - probabilities[t * k + n]));
    }
  }
  return {
    shapes: { ours_attention: oursLast.attention.shape, theirs: theirsLast.dims, native_logits: native.length },
    same_shapes: oursLast.attention.data.length === theirsLast.attention.length && theirsLogits.length === native.length,
    last_logits_max_diff: maxDiff(oursLast.last.logits, lastRow(theirsLogits)),
    native_logits_max_diff: maxDiff(native, theirsLogits),
    ours_native_last_logits_max_diff: maxDiff(oursLast.last.logits, lastRow(native)),
    top_probabilities_max_diff: probabilityDiff,
    attention_max_diff: maxDiff(oursLast.attention.data, theirsLast.attention),
    logits_max_abs: native.reduce((m, x) => Math.max(m, Math.abs(x)), 0),
  };
};

window.peerMemory = async () => (await ours.memory()).bytes;
