// A GPT from a model file (gpt-v1.md section 2) in the models' wasm module,
// which only the Model view loads. openModel() streams a File, a Blob or a
// fetch Response into the core chunk by chunk (the core checks the header
// before it allocates anything; the file is never held whole, in JS or in
// wasm), and the LoadedModel it gives runs token sequences and hands out the
// model trace's parts as typed arrays. Meant for a Worker (model-worker.js);
// it also runs in Node for the tests. Errors are the core's one line, thrown
// as ModelError.
import { blobText, declaredSize } from './capped-text.js';
import { loadEngine } from './engine.js';
import { ModelError } from './model-error.js';

export const modelUrl = new URL('../wasm/attention-model.js', import.meta.url);

// A config.json is a few hundred bytes (GPT-2's is 665): one past 1 MiB is
// refused before it is read.
export const configLimit = 1 << 20;

const defaults = {
  readBytes: 8 << 20,  // read ahead while the core takes the last read (two such buffers in JS)
  chunkBytes: 8 << 20,  // the wasm staging buffer: 8 MB fed at a time (its size adds to the tab's peak)
  topK: 10,
};

export { ModelError };

// The models' module, shared per page or worker (engine.js's loadEngine).
export async function loadModelEngine(options = {}) {
  return loadEngine({ moduleUrl: modelUrl, ...options });
}

// Opens `source` (a Blob or File, or a fetch Response) as a model (a
// Hugging Face folder: model-folder.js's openFolder, into a LoadedModel too). options:
// engine (loadModelEngine()'s), config (a Hugging Face config.json, as text
// or as a File or Blob: n_head, activation_function, layer_norm_epsilon),
// name (the file's name, for a head's scenario id), onProgress({received,
// total}), signal (an AbortSignal), readBytes, chunkBytes. Throws ModelError
// with the core's line. Reads no more than the file's header declares: a
// response whose size the server does not say (gzip-encoded, or without a
// Content-Length) is taken to be as long as its header says, and one that
// goes on past that is refused.
export async function openModel(source, options = {}) {
  const settings = { ...defaults, ...options };
  const config = await configText(settings.config);
  const engine = settings.engine ?? await loadModelEngine();
  const reader = byteReader(source);
  const model = new engine.module.Model();
  let next = null;  // a read under way
  try {
    put(model, await reader.read(8));
    // an unknown size: as large as a size may be, so that only the header's own limit speaks
    const { length } = answer(model.headerLength(reader.size ?? Number.MAX_SAFE_INTEGER));
    const header = await reader.read(length);
    if (header.length < length) throw new ModelError(`header: the file ended after ${header.length} of the header's ${length} bytes`);
    put(model, header);
    const size = reader.size ?? 8 + length + declaredData(header);
    const info = answer(model.open(size, config));
    const total = info.dataBytes;
    const readBytes = Math.max(settings.readBytes, settings.chunkBytes);
    let asked = 0;
    const ask = () => {
      const n = Math.min(readBytes, total - asked);
      asked += n;
      return n > 0 ? reader.read(n) : null;
    };
    next = ask();
    let received = 0;
    while (received < total) {
      await prepareWhile(model, next);
      const chunk = await next;
      if (settings.signal?.aborted) throw new ModelError('model: opening was cancelled');
      const ended = () => new ModelError(`model: the file ended after ${received} of its ${total} bytes of data`);
      if (chunk.length === 0) throw ended();
      next = ask();  // the next read runs in the browser while the core takes this one
      for (let at = 0; at < chunk.length; at += settings.chunkBytes) {
        const piece = chunk.subarray(at, at + settings.chunkBytes);
        put(model, piece);
        received = answer(model.feed(piece.length)).received;
      }
      reader.give(chunk);  // the read after next fills it again
      settings.onProgress?.({ received, total });
      if (next === null && received < total) throw ended();  // a short read: the stream ended
    }
    if (total === 0) answer(model.feed(0));
    if (reader.size === null && (await reader.read(1)).length > 0)
      throw new ModelError(`model: the file goes on past the ${size} bytes its header declares`);
    return new LoadedModel(model, info, settings.name ?? 'model', engine);
  } catch (error) {
    model.delete();
    throw error instanceof ModelError ? error : new ModelError(`internal error in the model module: ${error?.message ?? error}`);
  } finally {
    next?.catch(() => {});  // a read left under way by an error: nobody waits for it
    reader.cancel?.();
  }
}

// A model in wasm memory. Call dispose() when done.
export class LoadedModel {
  constructor(model, info, name, engine) {
    this.model = model;
    // {config, tokenizer, vocabulary, layout, tied, norm, family, architecture, kvHeads, headDim, causal,
    // maskedLm, logits, rotary, parameters, dataBytes, weightBytes}
    this.info = info;
    this.name = name;
    this.engine = engine;
  }

  get config() { return this.info.config; }
  get parameters() { return this.info.parameters; }
  // 'gpt2' (a model file), 'llama' or 'bert' (a folder): see web/engine/README.md
  get family() { return this.info.family; }
  get tokenizer() { return this.info.tokenizer; }  // 'characters', 'gpt2' or 'ids'

  // The model on token ids, in one call to the core (wasm/run_result.hpp):
  // {tokens, attention: {shape: [L, H, T, T], data}, top: {k, ids,
  // probabilities} ((T, k) each: the k most probable next tokens after every
  // position), tempered: temper(temperature, warpers)'s answer, last:
  // {logits, top: [[id, p] × 10]}, loss (null when T < 2), transfer: the
  // typed arrays' buffers}. topK ≥ 10 guesses are kept per position. A BERT
  // without its masked-LM head has attention only: tempered and last null.
  run(tokens, { topK = defaults.topK, temperature = 1, warpers = {} } = {}) {
    const { topK: cut = 0, topP = 1 } = warpers;
    // the guesses at the temperature come from the same pass over the logits
    return refused(this.model.runResult(JSON.stringify(tokens), Math.max(10, topK), temperature, cut, topP));
  }

  // Every head's scores on the last run's tokens (training/head_scores.hpp):
  // [{layer, head, previous, induction}], induction null when no token repeats.
  headScores() { return answer(this.model.headScores()); }

  // What the file's parameter count holds: {file, zeroKeyBiases, others}
  // (a nanoGPT export's key biases are zeros training never moves).
  parameterCounts() { return answer(this.model.parameterCounts()); }

  // The last run's guesses at `temperature` after top-k and top-p (0 and 1:
  // off), as Generate would sample them: {temperature, topK, topP, k, ids,
  // probabilities, own, kept, drawn, remaining, transfer} ((T, k) each: after
  // every position the k tokens most probable at that temperature, their
  // probability there, their own at temperature 1, kept (1: top-k and top-p
  // keep it), the probability Generate draws it with; remaining (T): how many
  // tokens are kept after each position), all the core's, in one call.
  temper(temperature, { topK = 0, topP = 1 } = {}) {
    return refused(this.model.temperResult(temperature, topK, topP));
  }

  // The head's guesses at `position` of the last run (BERT's masked-LM head
  // at a [MASK]): {position, top: [[id, p] × 10], logits (V), transfer}.
  guessesAt(position) {
    const { top } = answer(this.model.guessesAt(position));
    const logits = this.model.positionLogits();
    return { position, top, logits, transfer: [logits.buffer] };
  }

  // The last run as the CLI's model trace (JSON text); a folder's with
  // `last` at `position` when given (the CLI's --position).
  traceJson(position) {
    const text = position === undefined ? this.model.traceJson() : this.model.traceAt(position);
    if (text.startsWith('{"error"')) throw new ModelError(JSON.parse(text).error);
    return text;
  }

  // Head `head` of layer `layer` of the last run as a scenario (an object the
  // playground opens); labels: one string per token (GPT-2's decoded pieces).
  headScenario(layer, head, { labels } = {}) {
    return answer(this.model.headScenario(layer, head, this.name, labels ? JSON.stringify(labels) : ''));
  }

  // A character model's ids of text, and back.
  encode(text) { return answer(this.model.encode(text)); }
  decode(ids) { return answer(this.model.decode(JSON.stringify(ids))); }
  // One lens of lens-v1.md on the tokens: request {what: 'scores'|'ablate'|'logit-lens'|'attribution',
  // tokens, heads: [[layer, head] …], mode: 'zero'|'mean', position, token}; the answer is lens-v1's JSON.
  lens(request) {
    if (typeof this.model.lens !== 'function') throw new ModelError('lens: this build of the core has no lenses');
    return answer(this.model.lens(JSON.stringify(request)));
  }

  // `count` new ids after `tokens`: the spec's sampling, temperature dividing
  // the logits, then top-k and top-p (0 and 1: off; transformers' warpers),
  // the core's generator seeded with `seed`.
  generate(tokens, count, { temperature = 1, seed = 42, topK = 0, topP = 1 } = {}) {
    return answer(this.model.generate(JSON.stringify(tokens), count, temperature, seed, topK, topP));
  }

  dispose() {
    if (this.model) this.model.delete();
    this.model = null;
  }
}

// The calls a LoadedModel answers by name (its methods but dispose): what the
// Model view's worker takes as {method, args} besides its own (model-calls.js).
export const modelMethods = Object.getOwnPropertyNames(LoadedModel.prototype)
  .filter((name) => name !== 'constructor' && name !== 'dispose' && typeof Object.getOwnPropertyDescriptor(LoadedModel.prototype, name).value === 'function');

// config.json's text: a File or Blob read after its size is checked.
async function configText(config) {
  if (typeof Blob === 'undefined' || !(config instanceof Blob)) return config ?? '';
  return blobText(config, 'config.json', configLimit);
}

// The data's size as the header declares it (the end of its last tensor's
// data_offsets), for a body whose size the server did not say. The core then
// checks the header against the size this gives, as against any file's.
export function declaredData(header) {
  let end = 0;
  try {
    for (const [name, tensor] of Object.entries(JSON.parse(new TextDecoder().decode(header)))) {
      const last = name === '__metadata__' ? 0 : tensor?.data_offsets?.[1];
      if (Number.isSafeInteger(last) && last > end) end = last;
    }
  } catch {
    // not JSON: the core names what is wrong with it
  }
  return end;
}

// While `read` is under way, the core maps the weights' memory ahead of the
// data (Model.prepare: first touches, seconds of page faults for GPT-2 small)
// a megabyte at a time, giving the stream a turn between them.
async function prepareWhile(model, read) {
  let arrived = false;
  read.then(() => { arrived = true; }, () => { arrived = true; });
  await null;  // a read already done says so first
  while (!arrived && model.prepare(1 << 20) > 0) await nextTask();
}

// A task's turn: setImmediate in Node, a MessageChannel's message in a
// browser (setTimeout would wait ≥ 4 ms each time).
let channel = null;
const turns = [];
function nextTask() {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => turns.shift()?.();
  }
  return new Promise((resolve) => {
    turns.push(resolve);
    channel.port2.postMessage(null);
  });
}

// Copies bytes into the module's staging buffer: the view is taken after the
// buffer's allocation and used at once (growing memory would detach it).
export function put(model, bytes) {
  model.buffer(bytes.length).set(bytes);
}

export function answer(text) {
  return refused(JSON.parse(text));
}

// An answer as it is, unless it is {error}: thrown as ModelError.
function refused(result) {
  if (result !== null && typeof result === 'object' && !Array.isArray(result) && 'error' in result) throw new ModelError(result.error);
  return result;
}

// read(n): the next n bytes (fewer only at the end) of a Blob or a Response's
// body, in a buffer of the reader's own: give(bytes) hands it back once used,
// and the next read fills it again. Reused buffers matter here: 500 MB of
// fresh memory (the stream's own chunks, or a new array per read) costs
// seconds of page faults on top of the weights' own. A byte stream (File and
// fetch bodies in Chromium and Node) is read straight into those buffers.
export function byteReader(source) {
  let size;
  let body;
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    size = source.size;
    body = source.stream();
  } else if (source && typeof source.body?.getReader === 'function') {
    // Content-Length is the size sent: a decoded body's (gzip) is another, unknown until its end
    size = declaredSize(source);
    body = source.body;
  }
  if (!body) throw new ModelError('model: expected a File, a Blob or a fetch Response');
  let stream;
  let byob = false;
  try {
    stream = body.getReader({ mode: 'byob' });
    byob = true;
  } catch {
    stream = body.getReader();  // not a byte stream: its chunks are copied
  }
  const spare = [];  // buffers given back
  let pending = new Uint8Array(0);  // the rest of the last chunk (not byob)
  let queue = Promise.resolve();
  const readNow = async (n) => {
    let buffer = spare.pop();
    if (!buffer || buffer.byteLength < n) buffer = new ArrayBuffer(n);
    let filled = 0;
    while (filled < n) {
      if (byob) {
        // the buffer is handed to the stream and comes back in the answer
        const { done, value } = await stream.read(new Uint8Array(buffer, filled, n - filled));
        if (value) buffer = value.buffer;
        else if (done) buffer = new ArrayBuffer(n);  // cancelled: the buffer stayed with the stream
        if (done) break;
        filled += value.byteLength;
        continue;
      }
      if (pending.length === 0) {
        const { done, value } = await stream.read();
        if (done) break;
        pending = value;
      }
      const take = Math.min(n - filled, pending.length);
      new Uint8Array(buffer, filled, take).set(pending.subarray(0, take));
      pending = pending.subarray(take);
      filled += take;
    }
    return new Uint8Array(buffer, 0, filled);
  };
  return {
    size,
    read(n) {  // one after the other: a stream has one place
      const result = queue.then(() => readNow(n));
      queue = result.catch(() => {});
      return result;
    },
    give(bytes) { spare.push(bytes.buffer); },
    cancel() { stream.cancel().catch(() => {}); },
  };
}
