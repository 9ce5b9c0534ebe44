// The only file that touches the WebAssembly module. It loads the core once,
// runs scenarios into traces, and hands out each step's matrix as a
// Float32Array. Errors from the core arrive here as messages and leave as
// thrown Errors carrying the core's words.

const defaults = {
  moduleUrl: new URL('../wasm/attention-core.js', import.meta.url),
};

// The trainer's module (core/training/training.hpp and its glue), which only the training
// view's worker loads: loadEngine({ moduleUrl: trainerUrl }).
export const trainerUrl = new URL('../wasm/attention-train.js', import.meta.url);

const shared = new Map();  // one module per URL per page, however many views use it

// core/formats/limits.hpp's scenario_bytes, and the core's words for going past it:
// what refuses a file or a download before it is read says the same.
export const scenarioBytes = 16 * 1024 * 1024;
export function tooLarge(bytes) {
  return new ScenarioError(`scenario: ${bytes} bytes exceed the limit of ${scenarioBytes}`);
}
// core/formats/limits.hpp's training::file_bytes: a training file's URL is refused by
// its Content-Length before the body is read; the core says the rest.
export const trainingBytes = 64 * 1024;
// limits.hpp's training::corpus_bytes: a text task's corpus file. A file the
// learner opens is refused by its size before it is read, in the core's words.
export const corpusBytes = 4 * 1024 * 1024;
export function corpusTooLarge(name, bytes) {
  return new ScenarioError(`task.corpus: ${name} has ${bytes} bytes, beyond the limit of ${corpusBytes}`);
}

export async function loadEngine(options = {}) {
  const settings = { ...defaults, ...options };
  const key = String(settings.moduleUrl.href ?? settings.moduleUrl);
  if (!options.wasmBinary && shared.has(key)) return shared.get(key);
  const engine = (async () => {
    const { default: createAttentionModule } = await import(settings.moduleUrl.href ?? settings.moduleUrl);
    const moduleOptions = settings.wasmBinary
      ? { wasmBinary: settings.wasmBinary }
      : { locateFile: (file) => new URL(file, settings.moduleUrl).href };
    return new Engine(await createAttentionModule(moduleOptions));
  })();
  if (!options.wasmBinary) shared.set(key, engine);
  return engine;
}

// Runs `text` in a Web Worker with its own module and throws ScenarioError
// with the core's message if the core refuses it. Anything the page did not
// make (a file, a URL) goes through here first, so a bad input never blocks
// the page. Without Worker (Node), it runs here.
let checker = null;
let checks = 0;
export async function checkOffThread(text) {
  if (typeof Worker === 'undefined') {
    (await loadEngine()).run(text).dispose();
    return;
  }
  if (!checker) {
    checker = { worker: new Worker(new URL('./check-worker.js', import.meta.url), { type: 'module' }), waiting: new Map() };
    checker.worker.addEventListener('message', ({ data: { id, message } }) => {
      checker.waiting.get(id)?.(message);
      checker.waiting.delete(id);
    });
    checker.worker.addEventListener('error', (event) => {
      for (const done of checker.waiting.values()) done(workerError('checking worker', event));
      checker.waiting.clear();
    });
  }
  const id = ++checks;
  const message = await new Promise((done) => {
    checker.waiting.set(id, done);
    checker.worker.postMessage({ id, text });
  });
  if (message) throw new ScenarioError(message);
}

// A worker's 'error' event as one line: one that never started (blocked by
// the host's policy, or its script missing) has no message.
export function workerError(name, event) {
  if (event?.message) return `internal error in the ${name}: ${event.message}`;
  return `the ${name} could not start: this page's Content-Security-Policy must allow worker-src 'self', and its script must load`;
}

export class ScenarioError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ScenarioError';
  }
}

class Engine {
  constructor(module) {
    this.module = module;
  }

  // Parses and runs a scenario (JSON text or object); throws ScenarioError,
  // and only ScenarioError, for anything the core refuses.
  run(scenario) {
    const text = typeof scenario === 'string' ? scenario : JSON.stringify(scenario);
    if (typeof text !== 'string') throw new ScenarioError('scenario: expected JSON text or an object');
    // The core says the same; refusing here spares copying a huge text into wasm.
    if (text.length > scenarioBytes || (text.length * 3 > scenarioBytes && utf8Length(text) > scenarioBytes))
      throw tooLarge(utf8Length(text));
    return new Trace(loaded(new this.module.Session(), text));
  }

  // A training run of a training file (JSON text or object): see
  // core/training/training.hpp. `corpora` holds the corpus files a text task
  // may name ({"literature.txt": text or bytes}): a Uint8Array reaches the
  // core as it is, so a file from disk that is not UTF-8 gets the core's line.
  // Throws ScenarioError with the core's message.
  training(file, corpora = {}) {
    const text = typeof file === 'string' ? file : JSON.stringify(file);
    if (typeof text !== 'string') throw new ScenarioError('training: expected JSON text or an object');
    const instance = new this.module.Training();
    for (const [name, bytes] of Object.entries(corpora)) {
      if (typeof bytes !== 'string' && !(bytes instanceof Uint8Array)) {
        instance.delete();
        throw new ScenarioError(`task.corpus: ${JSON.stringify(name)} is neither text nor bytes`);
      }
      instance.corpus(name, bytes);
    }
    // the core refuses a file over 64 KiB
    return new TrainingRun(loaded(instance, text));
  }

  // Lessons: JSON from the core (core/lessons/lessons.hpp), errors thrown.
  averagingLesson({ seed = 42, B = 4, T = 8, C = 2 } = {}) {
    return call(() => this.module.averagingLesson(seed, B, T, C));
  }

  scalingLesson({ seed = 1337, B = 4, T = 64, headSizes, values, factors }) {
    return call(() => this.module.scalingLesson(seed, B, T, headSizes, values, factors));
  }

  // Bytes the wasm heap holds right now (for leak checks).
  heapInUse() {
    return this.module.heapInUse();
  }
}


// A fresh Session or Training with `text` loaded; else deleted, and the
// core's message thrown as a ScenarioError.
function loaded(instance, text) {
  let message;
  try {
    message = instance.load(text);
  } catch (error) {
    message = internal(error);
  }
  if (message) {
    instance.delete();
    throw new ScenarioError(message);
  }
  return instance;
}

function utf8Length(text) {
  return new TextEncoder().encode(text).length;
}

// The core catches its own exceptions; anything else (a trap) is named, never
// a bare number or "undefined".
function internal(error) {
  return `internal error in the core: ${error instanceof Error ? error.message : typeof error}`;
}

function parsed(text) {
  const result = JSON.parse(text);
  if (result.error) throw new ScenarioError(result.error);
  return result;
}

// A call into the core that answers JSON or {"error": …}.
function call(f) {
  let text;
  try {
    text = f();
  } catch (error) {
    throw new ScenarioError(internal(error));
  }
  return parsed(text);
}

let traces = 0;

// A computed trace. Call dispose() when done: the numbers live in wasm memory.
export class Trace {
  constructor(session) {
    this.id = ++traces;
    this.session = session;
    this.summary = JSON.parse(session.summary());
  }

  // One batch element of one step of one head: {shape: [rows, cols], data}, or null.
  step(head, name, batch = 0) {
    const shape = this.summary.heads[head]?.steps[name];
    if (!shape) return null;
    return { shape, data: this.session.step(head, name, batch) };
  }

  // The mask, {shape: [Tq, Tkv], data} with 1 where a query may attend;
  // fetched once, when a view first needs it.
  get keep() {
    this.keepCache ??= { shape: [this.summary.query_length, this.summary.context_length], data: this.session.keep() };
    return this.keepCache;
  }

  // The layer's output for one batch element.
  out(batch = 0) {
    return { shape: this.summary.out, data: this.session.layerOut(batch) };
  }

  // A named tensor of the scenario, whole: {shape, data}, or null.
  tensor(name) {
    const info = this.summary.tensors.find((t) => t.name === name);
    return info ? { shape: info.shape, data: this.session.tensor(name) } : null;
  }

  // x (or the context) of one batch element: {shape: [T, C], data}.
  input(batch = 0, { context = false } = {}) {
    const whole = this.tensor(context ? this.summary.context : this.summary.x);
    const [rows, cols] = whole.shape.slice(-2);
    const start = this.summary.batched ? batch * rows * cols : 0;
    return { shape: [rows, cols], data: whole.data.subarray(start, start + rows * cols) };
  }

  // How one cell was computed, from the core: see core/attention/explain.hpp.
  explain(head, step, batch, row, column) {
    return call(() => this.session.explain(head, step, batch, row, column));
  }

  // The trace as JSON text (format v1); throws ScenarioError.
  json() {
    let text;
    try {
      text = this.session.traceJson();
    } catch (error) {
      throw new ScenarioError(internal(error));
    }
    if (text.startsWith('{"error"')) throw new ScenarioError(JSON.parse(text).error);
    return text;
  }

  // Runs this layer on the tokens in another order (no mask), with or
  // without positional encodings: see core/lessons/space.hpp.
  spaceLesson(permutation, positions) {
    return call(() => this.session.spaceLesson(permutation, positions));
  }

  // Each pair's angle (radians) at each position of a rotary head, as the
  // core turned q and k: {shape: [Tq, d_k / 2], data}, or null without rotary.
  angles(head) {
    const d = this.summary.heads[head]?.steps.q_rotated?.[1];
    if (!this.summary.rotary || !d) return null;
    return { shape: [this.summary.query_length, d / 2], data: this.session.angles(head) };
  }

  // One step of one head here and in another trace of the same shapes (the
  // same scenario at another rotary offset): {largest_difference,
  // largest_value, agrees}, from the core (core/lessons/position.hpp).
  compare(other, head, step) {
    let answer;
    try {
      answer = this.session.compare(other.session, head, step);
    } catch (error) {
      throw new ScenarioError(internal(error));
    }
    if (typeof answer === 'string') throw new ScenarioError(answer);
    return { largest_difference: answer[0], largest_value: answer[1], agrees: answer[2] === 1 };
  }

  // Masking after softmax, then renormalizing, for one head: see
  // core/lessons/renormalize.hpp.
  renormalizeLesson(head = 0) {
    return call(() => this.session.renormalizeLesson(head));
  }

  dispose() {
    if (this.session) this.session.delete();
    this.session = null;
  }
}

// A training run in wasm memory: step it, evaluate it, snapshot and restore
// it. Call dispose() when done.
export class TrainingRun {
  constructor(run) {
    this.run = run;
    this.info = call(() => run.info());
  }

  // Up to n optimizer steps; their losses.
  steps(n = 1) {
    return call(() => this.run.steps(n));
  }

  get stepsDone() {
    return this.run.stepsDone();
  }

  // {step, loss, accuracy, attention: {shape, data}, predictions, sample?,
  // top?, patterns?, scores?}: with top = k, each probe position's k most
  // probable next tokens, [[id, probability], …], most probable first
  // (core/tensor/top.hpp); with scores, the probe's previous-token and
  // induction cells ({previous: [[i, j], …], induction}) and each head's
  // score on them ([{previous, induction}], core/transformer/head_scores.hpp).
  evaluate({ top = 0, scores = false } = {}) {
    return call(() => this.run.evaluate(top, scores));
  }

  // The model on the learner's own sequence (token ids): attention,
  // predictions and what evaluate() adds when asked; no loss, no sample.
  attend(tokens, { top = 0, scores = false } = {}) {
    return call(() => this.run.attend(JSON.stringify(tokens), top, scores));
  }

  // A text task's characters (a string) as token ids; throws ScenarioError
  // with the core's line for an empty or long text or a character outside the vocabulary.
  encode(text) {
    return call(() => this.run.encode(text));
  }

  // Scenario v1 (an object) for one head on a sequence: the playground can open it.
  headScenario(tokens, layer, head) {
    return call(() => this.run.headScenario(JSON.stringify(tokens), layer, head));
  }

  // The whole remaining training as the CLI writes it (training-v1.md), as text.
  traceJson() {
    const text = this.run.traceJson();
    if (text.startsWith('{"error"')) throw new ScenarioError(JSON.parse(text).error);
    return text;
  }

  // The whole state kept: its index for restore().
  snapshot() {
    return call(() => this.run.snapshot());
  }

  restore(index) {
    const message = this.run.restore(index);
    if (message) throw new ScenarioError(message);
  }

  dispose() {
    if (this.run) this.run.delete();
    this.run = null;
  }
}
