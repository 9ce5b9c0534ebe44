// A Web Worker that runs scenarios the page did not make (an opened file, a
// scenario URL) in its own copy of the core, so that a bad one is refused
// without freezing the page: the main thread only ever runs scenarios the
// core has accepted here, and those are bounded (README.md, "Limits").
import { loadEngine, ScenarioError } from './engine.js';

let engine = null;

self.addEventListener('message', async ({ data: { id, text } }) => {
  try {
    engine ??= await loadEngine();
    engine.run(text).dispose();
    self.postMessage({ id, message: '' });
  } catch (error) {
    const message = error instanceof ScenarioError ? error.message : `internal error in the checker: ${error?.message ?? error}`;
    self.postMessage({ id, message });
  }
});
