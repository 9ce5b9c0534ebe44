// Scenario files: one the learner opens, checked off the main thread before
// it replaces what is shown, and one the page makes (a trained head).
import { checkOffThread, scenarioBytes, ScenarioError, tooLarge } from '../engine/engine.js';
import { quoteText } from '../state/state.js';
import { showError } from './page.js';
import { update } from './router.js';

// A scenario file opened in this tab lives in sessionStorage, so a reload keeps it.
const fileKey = 'attention-playground:file';
export let fileVersion = 0;

export function openedFile() {
  const text = sessionStorage.getItem(fileKey);
  if (!text) throw new ScenarioError('file: the opened scenario is no longer in this tab; open it again');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(`file: not valid JSON: ${error.message}`);
  }
}

export async function openFile(file) {
  if (!file) return;
  // the core's limit, checked before reading: a 1 GB file is never read into the tab
  if (file.size > scenarioBytes) {
    showError(`${quoteText(file.name)}: ${tooLarge(file.size).message}`);
    return;
  }
  const text = await file.text();
  try {
    // checked first, off the main thread: a bad file must neither replace
    // what is shown nor freeze the page while the core works through it
    await checkOffThread(text);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    showError(`${quoteText(file.name)}: ${error.message}`);
    return;
  }
  openScenarioText(text);
}

// A scenario made in the page (a trained head) opens as a file would.
// options: update()'s (where the view lands)
export function openScenarioText(text, settings = {}, options = {}) {
  sessionStorage.setItem(fileKey, text);
  fileVersion++;
  update({ file: true, train: null, lesson: null, sentence: null, mask: null, scale: null, temperature: null, batch: 0, head: 0, ...settings }, options);
}
