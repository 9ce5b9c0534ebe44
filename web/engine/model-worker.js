// The Model view's worker: it holds one model file's GPT (or one Hugging Face folder's model) in the models' wasm
// module, off the page's thread, so that opening 500 MB and a forward of
// GPT-2 small never freeze the page. Requests come as {id, method, args}
// (model-calls.js: the worker's own calls below, or the open LoadedModel's
// methods by name) and each gets one answer {id, result} or {id, error} (the
// core's line); opening also posts {id, progress: {received, total}}. The
// typed arrays an answer lists in its `transfer` move to the page rather than
// being copied; nothing else is. model-client.js is its
// other side. A URL is fetched by the page, where its Content-Security-Policy
// stops a redirect to another origin before the request (body-port.js).
import { receiveBody } from './body-port.js';
import { methods } from './model-calls.js';
import { loadModelEngine, ModelError, openModel } from './model.js';
import { openFolder } from './model-folder.js';

let engine = null;
let model = null;

// A model opened by `open(options)` (openModel's or openFolder's, both
// model-open.js's one opening) in place of the one held: its info and what
// its parameter count holds.
async function opened(open) {
  engine ??= await loadModelEngine();
  model?.dispose();
  model = null;
  model = await open({ engine, onProgress: (progress) => self.postMessage({ id: current, progress }) });
  return { ...model.info, counts: model.parameterCounts() };
}

// The worker's own calls (model-calls.js's workerMethods); every other call
// is the open model's method of that name.
const own = {
  // source: a File or Blob, or a URL the page fetches
  open: (source, { config, name }) => opened(async (options) =>
    openModel(typeof source === 'string' ? await pageFetch(source, 'model') : source, { ...options, config, name })),
  // a Hugging Face folder: files [{name, source}], source a File or Blob, or a same-origin URL the page fetches when its turn comes
  openFolder: ({ configText, indexText, files }, { name }) => opened((options) => {
    const sources = files.map((file) => ({
      name: file.name,
      source: typeof file.source === 'string' ? () => pageFetch(file.source, file.name) : file.source,
    }));
    return openFolder({ configText, indexText, files: sources }, { ...options, name });
  }),
  close() {
    model?.dispose();
    model = null;
    return null;
  },
  // the wasm memory's size: what the tab holds for the model (the bench reads it)
  memory: () => ({ bytes: engine?.module.HEAP8?.buffer.byteLength ?? 0, heapInUse: engine?.heapInUse() ?? 0 }),
};

// The call a request names, or a refusal naming it.
function callOf(method) {
  if (!methods.has(method)) throw new ModelError(`model worker: unknown request ${JSON.stringify(String(method))}`);
  if (Object.hasOwn(own, method)) return own[method];
  return (...args) => loaded()[method](...args);
}

function loaded() {
  if (!model) throw new ModelError('model: no model is open');
  return model;
}

let current = 0;
let queue = Promise.resolve();

// A URL's Response, asked of the page (model-fetch.js's checks and lines,
// `label` naming the file): {id, fetch: {key, href, label}} posted, and
// {fetched: key, port, headers} or {fetched: key, error} back.
const fetches = new Map();
let fetchKey = 0;
function pageFetch(href, label) {
  const key = ++fetchKey;
  return new Promise((resolve, reject) => {
    fetches.set(key, { resolve, reject });
    self.postMessage({ id: current, fetch: { key, href, label } });
  });
}

// One request at a time, in order: a run never overlaps an open. A fetch's
// answer comes while its request runs, so it skips the queue.
self.addEventListener('message', ({ data }) => {
  if (data.fetched) {
    const waiting = fetches.get(data.fetched);
    fetches.delete(data.fetched);
    if ('error' in data) waiting?.reject(new ModelError(data.error));
    else waiting?.resolve(receiveBody(data.port, data.headers));
    return;
  }
  queue = queue.then(async () => {
    current = data.id;
    try {
      const result = await callOf(data.method)(...(data.args ?? []));
      self.postMessage({ id: data.id, result }, transferOf(result));
    } catch (error) {
      const message = error instanceof ModelError ? error.message : `internal error in the model worker: ${error?.message ?? error}`;
      self.postMessage({ id: data.id, error: message });
    }
  });
});

// The buffers an answer names as its own (LoadedModel.run, temper,
// guessesAt): moved to the page, not copied.
function transferOf(result) {
  return Array.isArray(result?.transfer) ? result.transfer : [];
}
