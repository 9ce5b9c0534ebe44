// A Hugging Face folder (models-v2.md section 1: any family the core reads) into
// the models' wasm module, as the CLI reads one from disk and as a model
// file opens (model-open.js's openFiles: a model file is a folder of one
// file): config.json's text and the index's first, then every shard's
// header in the order the core lists them (it plans them all before one
// weight is allocated), then each shard's data streamed in chunks, shard by
// shard. No shard is held whole, in JS or in wasm. The answer is the
// LoadedModel a model file gives. Errors are the core's one line (naming
// the shard), thrown as ModelError.
import { LoadedModel, loadModelEngine } from './model.js';
import { folderLines, openFiles } from './model-open.js';

// folder: {configText, indexText ('' for one model.safetensors), files:
// [{name, source}] with source a Blob or File, a fetch Response, or a
// function giving one (called once, when the shard is read)}. options:
// engine, name (a head's scenario id), onProgress({received, total}) (bytes
// of data over every shard), signal, readBytes, chunkBytes.
export async function openFolder(folder, options = {}) {
  const engine = options.engine ?? await loadModelEngine();
  const opening = { kind: 'folder', configText: folder.configText, indexText: folder.indexText, files: folder.files };
  const { model, info } = await openFiles(engine, opening, options, folderLines);
  return new LoadedModel(model, info, options.name ?? 'model', engine);
}
