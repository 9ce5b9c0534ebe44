// The training view (training/view.js) in the page: loaded when it first
// opens, kept while its preset stays, and parked (parked.js) while
// "Inspect what you trained" shows its model.
import { trainingText } from '../engine/presets.js';
import { openScenarioText } from './file.js';
import { $, app } from './page.js';
import { park, unpark } from './parked.js';
import { state, update } from './router.js';
import { element } from '../views/dom.js';

// The training view keeps its worker while the preset stays: a render for
// any other reason must not restart a training.
let training = null;

export function disposeTraining() {
  training?.view.dispose();
  training = null;
}

// The run as it stands, kept for Back (or its tab) while the Model view shows its model.
async function inspect(trained) {
  const mine = training;
  const { inspectTrained } = await import('./model.js');  // the Model view's wiring loads when first used
  if (training !== mine || !state.train) return;  // the learner moved on meanwhile
  park(state, $('lesson-body'), { training: mine, dispose: () => mine.view.dispose() });
  training = null;
  inspectTrained(trained);
}

export async function renderTraining() {
  app.dataset.view = 'train';
  $('lesson').hidden = false;
  $('lesson-title').textContent = state.train?.startsWith('text-') ? 'Watch a GPT learn to write' : 'Watch attention learn';
  $('lesson-open').hidden = true;
  if (training?.preset === state.train) return;
  disposeTraining();
  const body = $('lesson-body');
  const parked = unpark(state, body);  // back from the Model view: the same run
  if (parked) {
    ({ training } = parked);
    body.dataset.lesson = 'train';
    ready();
    return;
  }
  // the training view's modules load when it opens: a first visit skips them
  const { TrainingView } = await import('../training/view.js');
  if (!state.train || training) return;  // the learner moved on, or another render got here first
  body.textContent = '';
  body.dataset.lesson = 'train';
  const container = element(body, 'div', { className: 'lesson-content' });
  training = {
    preset: state.train,
    view: new TrainingView(container, {
      preset: state.train,
      loadPreset: trainingText,
      onPreset: (id) => update({ train: id }),
      openScenario: (text) => openScenarioText(text, { step: 'weights' }),
      inspect,
    }),
  };
  ready();
}

function ready() {
  $('status').hidden = true;
  app.dataset.state = 'ready';
}
