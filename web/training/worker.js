// Training runs here, off the page's thread: the page animates at 60 fps
// while this worker steps the core. It paces itself (steps per second, or as
// fast as it goes), evaluates on the spec's schedule, and posts the losses and
// evaluations; the page only draws what arrives.
import { loadEngine, ScenarioError, trainerUrl } from '../engine/engine.js';

let engine = null;
let run = null;
let text = '';
let corpora = {};       // the corpus files a text task names, {name: bytes}
// what each evaluation carries beyond the trace's: a text task's three
// guesses per probe position, and every head's scores (head_scores.hpp)
let extras = { top: 0, scores: true };
let rate = 50;          // steps per second; 0: as fast as it goes
let playing = false;
let stopAfter = Infinity;  // an embedded figure's steps="…": training pauses there once
let stopAt = Infinity;
let clock = { at: 0, done: 0 };  // pacing: steps owed since `at`
let lastLive = -Infinity;        // when the live view was last computed

// A text task's step takes 20–100 ms and its evaluation (256 windows and a
// sample) many steps' worth: between evaluations the live view is the probe
// alone, at most this often.
const liveEvery = 250;  // ms

const post = (message) => self.postMessage(message);
const failed = (error) => post({ type: 'error', message: error instanceof ScenarioError ? error.message : `internal error in the trainer: ${error?.message ?? error}` });

// A new run replaces the old one only once the core has accepted its file:
// a refused file leaves the learner's current training as it was.
function load() {
  const next = engine.training(text, corpora);
  run?.dispose();
  run = next;
  extras = { top: run.info.task === 'text' ? 3 : 0, scores: true };
  stopAt = stopAfter;
  lastLive = -Infinity;
  post({ type: 'loaded', info: run.info, eval: run.evaluate(extras) });
}

// The model as it stands, between scheduled evaluations: a toy's whole
// evaluation (it is cheap), a text task's attention and guesses on the probe
// (no loss, no sample), or nothing when the last one is recent, unless the
// training stops here (a pause, a step, the end) and the page must show it.
// It never decides where a run diverged: it runs only when a batch happens
// to end, so a model it finds broken shows no live view, and the next
// training step or scheduled evaluation says so, at the same step however
// the batches fell (a Step at a time or as fast as it goes).
function liveView(now = false) {
  try {
    if (run.info.task !== 'text') return run.evaluate(extras);
    if (!now && performance.now() - lastLive < liveEvery) return undefined;
    lastLive = performance.now();
    return run.attend(run.info.probe.tokens, extras);
  } catch (error) {
    if (error instanceof ScenarioError && error.message.startsWith('training diverged at step ')) return undefined;
    throw error;
  }
}

// Steps until `due` steps are done or the training ends; an evaluation at
// every eval.every steps and at the last one, and one of "now" for the live
// view (always when `stopping`: a single step's).
function advance(due, stopping = false) {
  const { steps, every } = run.info;
  const end = Math.min(steps, stopAt);
  const losses = [];
  const evals = [];
  const started = performance.now();
  let finished = false;
  let live = null;
  try {
    while (run.stepsDone < end && losses.length < due) {
      losses.push(...run.steps(1));
      const done = run.stepsDone;
      if (done % every === 0 || done === steps) evals.push(run.evaluate(extras));
      if (performance.now() - started > 30) break;  // post often enough to draw
    }
    finished = run.stepsDone >= end;
    // a figure that stops early (steps="…") shows what its model writes there
    if (finished && run.info.samples && evals.at(-1)?.step !== run.stepsDone) evals.push(run.evaluate(extras));
    // the model now, unless the last evaluation is of it
    live = evals.at(-1)?.step === run.stepsDone ? null : liveView(stopping || finished);
  } catch (error) {
    // a run that diverges: the curves keep every step before the one that
    // broke, then the core's line ("training diverged at step N: …")
    if (losses.length) post({ type: 'progress', losses, evals, live: null, done: run.stepsDone, finished: false });
    throw error;
  }
  if (finished) stopAt = Infinity;  // Train goes on from here to the file's end
  if (losses.length) post({ type: 'progress', losses, evals, live, done: run.stepsDone, finished });
  return finished;
}

// Called from timers, outside the message handler's catch: errors end here.
function tick() {
  try {
    paced();
  } catch (error) {
    playing = false;
    failed(error);
  }
}

function paced() {
  if (!playing || !run) return;
  const now = performance.now();
  const due = rate === 0 ? Infinity : Math.floor(((now - clock.at) * rate) / 1000) - clock.done;
  let finished = false;
  if (due > 0) {
    const before = run.stepsDone;
    finished = advance(due);
    clock.done += run.stepsDone - before;
  }
  if (finished) {
    playing = false;
    post({ type: 'paused', finished: run.stepsDone >= run.info.steps });
    return;
  }
  setTimeout(tick, rate === 0 ? 0 : 16);
}

// "Inspect what you trained": the model as it stands, as a gpt-v1 model
// file the core writes in memory (wasm/training_bindings.cpp's modelFile: a
// Uint8Array copied out of the core's memory, or {"error"} JSON text). Its
// buffer is transferred to the page. A refusal is the inspect button's line,
// not the training's: the run stays as it was.
function modelFile() {
  if (!run) return;
  let written;
  try {
    written = run.run.modelFile();
  } catch (error) {
    written = JSON.stringify({ error: `internal error in the trainer: ${error?.message ?? error}` });
  }
  if (!(written instanceof Uint8Array)) {
    const problem = typeof written === 'string' && written.startsWith('{"error"') ? JSON.parse(written).error : 'the trainer wrote no model file';
    post({ type: 'model-file', error: `Inspect what you trained: ${problem}` });
    return;
  }
  self.postMessage({ type: 'model-file', bytes: written, step: run.stepsDone }, [written.buffer]);
}

self.addEventListener('message', async ({ data }) => {
  try {
    engine ??= await loadEngine({ moduleUrl: trainerUrl });
    switch (data.type) {
      case 'load': {
        const previous = { text, corpora };
        text = data.text;
        corpora = data.corpora ?? {};
        playing = false;
        try {
          load();
        } catch (error) {
          ({ text, corpora } = previous);  // Reset goes back to the run that is still there
          throw error;
        }
        break;
      }
      case 'reset':
        playing = false;
        load();
        break;
      case 'stop-after':
        stopAfter = data.steps ?? Infinity;
        stopAt = run && run.stepsDone < stopAfter ? stopAfter : Infinity;
        break;
      case 'speed':
        rate = data.rate;
        clock = { at: performance.now(), done: 0 };
        break;
      case 'play':
        if (!run || playing) break;
        playing = true;
        clock = { at: performance.now(), done: 0 };
        tick();
        break;
      case 'pause':
        playing = false;
        // the heads as the model stands where it stopped
        if (run && run.info.task === 'text') post({ type: 'progress', losses: [], evals: [], live: liveView(true), done: run.stepsDone, finished: false });
        post({ type: 'paused', finished: false });
        break;
      case 'step':
        if (run && !playing) advance(1, true);
        break;
      case 'attend': {
        // a text task's learner types characters: the core turns them into ids
        const tokens = typeof data.text === 'string' ? run.encode(data.text) : data.tokens;
        post({ type: 'attended', tokens, eval: run.attend(tokens, extras) });
        break;
      }
      case 'scenario':
        post({ type: 'scenario', scenario: run.headScenario(data.tokens, data.layer, data.head) });
        break;
      case 'model-file':
        modelFile();
        break;
      default:
        break;
    }
  } catch (error) {
    playing = false;
    failed(error);
  }
});
