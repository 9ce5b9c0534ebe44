// A model's files into the models' wasm module, one way for a model file
// and a Hugging Face folder alike (a model file is a folder of one file):
// Model.begin with what says what the model is, each file's header in the
// order the core lists them (it plans them all before one weight is
// allocated), then each file's data streamed in chunks, file by file, the
// next read under way while the core takes the last and Model.prepare
// touching the weights' memory while a read is awaited. No file is held
// whole, in JS or in wasm. model.js's openModel and model-folder.js's
// openFolder both come through openFiles; they differ in their lines only.
import { declaredSize } from './capped-text.js';
import { ModelError } from './model-error.js';

export const openDefaults = {
  readBytes: 8 << 20,  // read ahead while the core takes the last read (two such buffers in JS)
  chunkBytes: 8 << 20,  // the wasm staging buffer: 8 MB fed at a time (its size adds to the tab's peak)
};

// opening: {kind: 'file' or 'folder', configText, indexText, files: [{name,
// source}]} with source a Blob or File, a fetch Response, or a function
// giving one (called once, when the file is read); a model file's one file
// is named ''. settings: onProgress({received, total}) (bytes of data over
// every file), signal, readBytes, chunkBytes. lines: the refusals JS makes
// itself, by file (fileLines or folderLines). Resolves with {model (the
// Embind Model, ready), info}; throws ModelError with the core's line or
// the lines'. Reads no more of a file than its header declares: a response
// whose size the server does not say (gzip-encoded, or without a
// Content-Length) is taken to be as long as its header says, and one that
// goes on past that is refused.
export async function openFiles(engine, opening, options, lines) {
  const settings = { ...openDefaults, ...options };
  const model = new engine.module.Model();
  const readers = [];
  let next = null;  // a read under way
  try {
    const { files } = answer(model.begin(opening.kind, opening.configText ?? '', opening.indexText ?? ''));
    const byName = new Map(opening.files.map((file) => [file.name, file]));
    let plan = null;
    for (const name of files) {
      const file = byName.get(name);
      if (!file) throw new ModelError(`${name}: a shard of the folder that is not among its files`);
      const reader = byteReader(typeof file.source === 'function' ? await file.source() : file.source);
      readers.push(reader);
      put(model, await reader.read(8));
      // an unknown size: as large as a size may be, so that only the header's own limit speaks
      const { length } = answer(model.headerLength(reader.size ?? Number.MAX_SAFE_INTEGER));
      const header = await reader.read(length);
      if (header.length < length) throw new ModelError(lines.header(name, header.length, length));
      put(model, header);
      reader.declared = reader.size ?? 8 + length + declaredData(header);
      plan = answer(model.header(reader.declared));
    }
    const total = plan.dataBytes.reduce((a, b) => a + b, 0);
    const readBytes = Math.max(settings.readBytes, settings.chunkBytes);
    let received = 0;
    for (let s = 0; s < files.length; s++) {
      const reader = readers[s];
      const bytes = plan.dataBytes[s];
      let asked = 0;
      const ask = () => {
        const n = Math.min(readBytes, bytes - asked);
        asked += n;
        return n > 0 ? reader.read(n) : null;
      };
      next = ask();
      let fed = 0;
      const ended = () => new ModelError(lines.ended(files[s], fed, bytes));
      while (fed < bytes) {
        await prepareWhile(model, next);
        const chunk = await next;
        if (settings.signal?.aborted) throw new ModelError('model: opening was cancelled');
        if (chunk.length === 0) throw ended();
        next = ask();  // the next read runs in the browser while the core takes this one
        for (let at = 0; at < chunk.length; at += settings.chunkBytes) {
          const piece = chunk.subarray(at, at + settings.chunkBytes);
          put(model, piece);
          answer(model.feed(s, piece.length));
        }
        fed += chunk.length;
        received += chunk.length;
        reader.give(chunk);  // the read after next fills it again
        settings.onProgress?.({ received, total });
        if (next === null && fed < bytes) throw ended();  // a short read: the stream ended
      }
      if (bytes === 0) answer(model.feed(s, 0));
      if (reader.size === null && (await reader.read(1)).length > 0) throw new ModelError(lines.past(files[s], reader.declared));
      reader.cancel?.();  // its buffers go with it: one file's at a time
      readers[s] = null;
    }
    if (!model.ready()) throw new ModelError('model: the folder ended before its data');
    const info = answer(model.config());
    info.dataBytes = total;
    info.weightBytes = info.parameters * 4;
    return { model, info };
  } catch (error) {
    model.delete();
    throw error instanceof ModelError ? error : new ModelError(`internal error in the model module: ${error?.message ?? error}`);
  } finally {
    next?.catch(() => {});  // a read left under way by an error: nobody waits for it
    for (const reader of readers) reader?.cancel?.();
  }
}

// A model file's refusals: its one file goes unnamed.
export const fileLines = {
  header: (name, got, length) => `header: the file ended after ${got} of the header's ${length} bytes`,
  ended: (name, fed, bytes) => `model: the file ended after ${fed} of its ${bytes} bytes of data`,
  past: (name, size) => `model: the file goes on past the ${size} bytes its header declares`,
};

// A folder's: each names its shard.
export const folderLines = {
  header: (name, got, length) => `${name}: the file ended after ${got} of its header's ${length} bytes`,
  ended: (name, fed, bytes) => `${name}: the file ended ${bytes - fed} bytes before the end of its data`,
  past: (name, size) => `${name}: the file goes on past the ${size} bytes its header declares`,
};

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
export function refused(result) {
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
