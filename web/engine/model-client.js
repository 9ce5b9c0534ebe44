// The page's side of the Model view's worker (model-worker.js): each method
// posts one request {id, method, args} and resolves with its answer, or
// rejects with a ModelError carrying the core's line. Every call the worker
// answers (model-calls.js) is a method here of the same name and arguments,
// LoadedModel's (model.js) as it documents them; open and openFolder first
// resolve what only the page can (its URLs, its callbacks). The page only draws what comes back,
// and fetches the URLs the worker asks for: here the page's
// Content-Security-Policy applies (body-port.js).
import { sendBody } from './body-port.js';
import { methods } from './model-calls.js';
import { ModelError } from './model.js';
import { fetchModel } from './model-fetch.js';
import { workerError } from './engine.js';

export { ModelError };

export class ModelWorker {
  constructor() {
    this.worker = new Worker(new URL('./model-worker.js', import.meta.url), { type: 'module' });
    this.waiting = new Map();
    this.next = 0;
    this.bodies = new Set();  // bodies being sent: cancelled when the worker stops
    this.worker.addEventListener('message', ({ data }) => {
      if (data.fetch) return this.fetchFor(data.fetch);
      const request = this.waiting.get(data.id);
      if (!request) return;
      if (data.progress) return request.onProgress?.(data.progress);
      this.waiting.delete(data.id);
      if ('error' in data) request.reject(new ModelError(data.error));
      else request.resolve(data.result);
    });
    this.worker.addEventListener('error', (event) => {
      for (const request of this.waiting.values()) request.reject(new ModelError(workerError('model worker', event)));
      this.waiting.clear();
    });
  }

  // The worker's URL, fetched here with model-fetch.js's checks; its body
  // is sent as the worker reads it, or the refusal's line.
  async fetchFor({ key, href, label }) {
    try {
      const response = await fetchModel(href, { label });
      if (this.stopped) {  // terminated while the response was on its way: nobody will read it
        response.body?.cancel().catch(() => {});
        return;
      }
      const { port1, port2 } = new MessageChannel();
      const body = sendBody(response, port1, () => this.bodies.delete(body));
      this.bodies.add(body);
      this.worker.postMessage({ fetched: key, port: port2, headers: body.headers }, [port2]);
    } catch (error) {
      if (this.stopped) return;
      const message = error instanceof ModelError ? error.message : `internal error in the model's fetch: ${error?.message ?? error}`;
      this.worker.postMessage({ fetched: key, error: message });
    }
  }

  // One call of the worker: `method` (model-calls.js) with `args`, which
  // cross as structured clones.
  call(method, args = [], onProgress) {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ id, method, args });
    });
  }

  // source: a File or Blob (it streams from disk in the worker), or a URL
  // of the page's own origin; config: config.json's text, or its File.
  // Resolves with the model's info
  // ({config, tokenizer, vocabulary, layout, tied, norm, dataBytes, weightBytes,
  // counts: {file, zeroKeyBiases, others}}).
  open(source, { config = '', name, onProgress } = {}) {
    // a URL is the page's: resolved here, not against the worker's own URL
    const url = typeof source === 'string' ? new URL(source, globalThis.location?.href) : null;
    const file = url ? url.href : source;
    name ??= url ? decodeURIComponent(url.pathname.split('/').pop()) : source?.name ?? 'model';
    return this.call('open', [file, { config, name }], onProgress);
  }

  // A Hugging Face folder (folder-source.js's readFolder answer, Llama family
  // or BERT): its shards streamed into the worker in order, onProgress({received,
  // total}) over all their data. Resolves with the model's info as open()'s,
  // plus family, architecture, kvHeads, headDim, causal, maskedLm, logits, rotary
  // (web/engine/README.md).
  openFolder(folder, { name = folder.name ?? 'model', onProgress } = {}) {
    const files = folder.files.map((file) => ({ name: file.name, source: file.blob ?? new URL(file.url, globalThis.location?.href).href }));
    return this.call('openFolder', [{ configText: folder.configText, indexText: folder.indexText ?? '', files }, { name }], onProgress);
  }

  terminate() {
    this.stopped = true;
    this.worker.terminate();
    for (const body of [...this.bodies]) body.cancel();
    for (const request of this.waiting.values()) request.reject(new ModelError('model: the worker was stopped'));
    this.waiting.clear();
  }
}

// The other calls, each as its name says: run (its answer carries the
// heads' scores), temper, traceJson, guessesAt, headScores, headScenario,
// encode, decode, lens, generate (LoadedModel's), close and memory (the
// worker's).
for (const method of methods) {
  if (!(method in ModelWorker.prototype)) {
    Object.defineProperty(ModelWorker.prototype, method, {
      value(...args) { return this.call(method, args); },
      writable: true,
      configurable: true,
    });
  }
}
