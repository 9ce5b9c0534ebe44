// A Hugging Face folder (models-v2.md section 1: any family the core reads) into
// the models' wasm module, as the CLI reads one from disk: config.json's
// text and the index's first, then every shard's header in the order the
// core lists them (it plans them all before one weight is allocated), then
// each shard's data streamed in chunks, shard by shard. No shard is held
// whole, in JS or in wasm. The answer is the LoadedModel a model file gives.
// Errors are the core's one line (naming the shard), thrown as ModelError.
import { answer, byteReader, declaredData, LoadedModel, loadModelEngine, ModelError, put } from './model.js';

const defaults = { chunkBytes: 8 << 20 };

// folder: {configText, indexText ('' for one model.safetensors), files:
// [{name, source}] with source a Blob or File, a fetch Response, or a
// function giving one (called once, when the shard is read)}. options:
// engine, name (a head's scenario id), onProgress({received, total}) (bytes
// of data over every shard), signal, chunkBytes.
export async function openFolder(folder, options = {}) {
  const settings = { ...defaults, ...options };
  const engine = settings.engine ?? await loadModelEngine();
  const model = new engine.module.Model();
  const readers = [];
  try {
    const { files } = answer(model.openFolder(folder.configText ?? '', folder.indexText ?? ''));
    const byName = new Map(folder.files.map((file) => [file.name, file]));
    let plan = null;
    for (const name of files) {
      const file = byName.get(name);
      if (!file) throw new ModelError(`${name}: a shard of the folder that is not among its files`);
      const reader = byteReader(typeof file.source === 'function' ? await file.source() : file.source);
      readers.push(reader);
      put(model, await reader.read(8));
      const { length } = answer(model.headerLength(reader.size ?? Number.MAX_SAFE_INTEGER));
      const header = await reader.read(length);
      if (header.length < length) throw new ModelError(`${name}: the file ended after ${header.length} of its header's ${length} bytes`);
      put(model, header);
      reader.declared = 8 + length + declaredData(header);
      plan = answer(model.folderHeader(reader.size ?? reader.declared));
    }
    const total = plan.dataBytes.reduce((a, b) => a + b, 0);
    let received = 0;
    for (let s = 0; s < files.length; s++) {
      const reader = readers[s];
      let left = plan.dataBytes[s];
      while (left > 0) {
        const chunk = await reader.read(Math.min(settings.chunkBytes, left));
        if (settings.signal?.aborted) throw new ModelError('model: opening was cancelled');
        if (chunk.length === 0) throw new ModelError(`${files[s]}: the file ended ${left} bytes before the end of its data`);
        put(model, chunk);
        answer(model.feedShard(s, chunk.length));
        reader.give(chunk);
        left -= chunk.length;
        received += chunk.length;
        settings.onProgress?.({ received, total });
      }
      if (plan.dataBytes[s] === 0) answer(model.feedShard(s, 0));
      if (reader.size === null && (await reader.read(1)).length > 0)
        throw new ModelError(`${files[s]}: the file goes on past the ${reader.declared} bytes its header declares`);
    }
    if (!model.ready()) throw new ModelError('model: the folder ended before its data');
    const info = answer(model.config());
    info.dataBytes = total;
    info.weightBytes = info.parameters * 4;
    return new LoadedModel(model, info, settings.name ?? 'model', engine);
  } catch (error) {
    model.delete();
    throw error instanceof ModelError ? error : new ModelError(`internal error in the model module: ${error?.message ?? error}`);
  } finally {
    for (const reader of readers) reader.cancel?.();
  }
}
