// The Model view (model/view.js) in the page: loaded when it first opens,
// kept while the page stays on it (its worker holds the model). What the
// learner changes goes into the link without redrawing the page; a link
// followed (back, forward) is handed to the view, which opens a model only
// when the link names another.
import { openScenarioText } from './file.js';
import { $, app } from './page.js';
import { flushHash, setState, state, writeHash, writeHashSoon } from './router.js';

let view = null;

export function disposeModel() {
  view?.dispose();
  view = null;
  $('lesson-body').classList.remove('model-body-wrap');
}

export async function renderModel() {
  app.dataset.view = 'model';
  $('lesson').hidden = false;
  $('lesson-title').textContent = 'A real GPT: every head of every layer';
  $('lesson-open').hidden = true;
  // the model view's modules load when it opens: a first visit skips them
  const { ModelView, defaultText } = await import('../model/view.js');
  if (!state.model) return;  // the learner moved on
  if (!view) {
    const body = $('lesson-body');
    body.textContent = '';
    body.dataset.lesson = 'model';
    view = new ModelView(body, {
      // typing: the link is written once the typing pauses, or the text field is left
      onState: ({ text, layer, head }, { typing = false } = {}) => {
        setState({ ...state, text: text === defaultText ? null : text, layer, head });
        if (typing) writeHashSoon();
        else writeHash('replace');
      },
      onOpenHead: ({ scenario }) => {
        disposeModel();
        openScenarioText(JSON.stringify(scenario), { model: null, text: null, layer: 0, step: 'qkv' });
      },
    });
    body.addEventListener('focusout', flushHash);
  }
  $('status').hidden = true;
  app.dataset.state = 'ready';
  await view.show({ model: state.model, text: state.text ?? defaultText, layer: state.layer, head: state.head });
}
