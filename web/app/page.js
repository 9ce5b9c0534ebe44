// What every view of the page shares: its elements by id, the status line
// for errors, the notice for what a link got wrong, and the engine once it
// has loaded (main.js sets it).
import { ScenarioError } from '../engine/engine.js';

export const $ = (id) => document.getElementById(id);
export const app = $('app');

export let engine = null;

export function setEngine(loaded) {
  engine = loaded;
}

export function showError(message) {
  const box = $('status');
  box.textContent = message;
  box.hidden = false;
}

export function showNotice(message) {
  const box = $('notice');
  box.textContent = message;
  box.hidden = !message;
}

// Whatever goes wrong, the learner sees it: never a page stuck loading. The
// core's refusals are the learner's to fix and need no apology.
export function fail(error) {
  if (error instanceof ScenarioError || error instanceof RangeError) {
    showError(error.message);
  } else {
    console.error(error);
    showError(`Something went wrong: ${error instanceof Error ? error.message : String(error)}`);
  }
  app.dataset.state = 'error';
}
