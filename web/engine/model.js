// A GPT from a model file (gpt-v1.md section 2) in the models' wasm module,
// which only the Model view loads. openModel() streams a File, a Blob or a
// fetch Response into the core chunk by chunk (the core checks the header
// before it allocates anything; the file is never held whole, in JS or in
// wasm), and the LoadedModel it gives runs token sequences and hands out the
// model trace's parts as typed arrays. Meant for a Worker (model-worker.js);
// it also runs in Node for the tests. Errors are the core's one line, thrown
// as ModelError.
import { blobText } from './capped-text.js';
import { loadEngine } from './engine.js';
import { ModelError } from './model-error.js';
import { answer, fileLines, openDefaults, openFiles, refused } from './model-open.js';

export const modelUrl = new URL('../wasm/attention-model.js', import.meta.url);

// A config.json is a few hundred bytes (GPT-2's is 665): one past 1 MiB is
// refused before it is read.
export const configLimit = 1 << 20;

const defaults = { ...openDefaults, topK: 10 };

export { ModelError };
// what model-open.js reads and checks, for those that imported it from here
export { answer, byteReader, declaredData, put } from './model-open.js';

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
  const { model, info } = await openFiles(engine, { kind: 'file', configText: config, indexText: '', files: [{ name: '', source }] }, settings, fileLines);
  return new LoadedModel(model, info, settings.name ?? 'model', engine);
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
  // {logits, top: [[id, p] × 10]}, loss (null when T < 2), scores:
  // headScores()'s on this run, transfer: the typed arrays' buffers}. topK ≥
  // 10 guesses are kept per position. A BERT without its masked-LM head has
  // attention and scores only: tempered and last null. The page needs no
  // call after it.
  run(tokens, { topK = defaults.topK, temperature = 1, warpers = {} } = {}) {
    const { topK: cut = 0, topP = 1 } = warpers;
    // the guesses at the temperature come from the same pass over the logits
    return refused(this.model.runResult(JSON.stringify(tokens), Math.max(10, topK), temperature, cut, topP));
  }

  // Every head's scores on the last run's tokens (transformer/head_scores.hpp):
  // [{layer, head, previous, induction}], induction null when no token
  // repeats; a run's answer carries them too, as `scores`.
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
  // at a [MASK]): {position, top: [[id, p] × 10], logits (V), transfer}, in one call to the core.
  guessesAt(position) { return refused(this.model.guessesAt(position)); }

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
