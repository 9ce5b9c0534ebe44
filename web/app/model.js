// The Model view (model/view.js) in the page: loaded when it first opens,
// kept while the page stays on it (its worker holds the model). What the
// learner changes goes into the link without redrawing the page; a link
// followed (back, forward) is handed to the view, which opens a model only
// when the link names another. A model file from the learner's disk cannot
// travel in a link: the link says file=1, and followed it opens the default
// model with a line saying why. A model trained in the page ("Inspect what
// you trained") comes as a model file in memory and opens the same way.
import { openScenarioText } from './file.js';
import { $, app, showNotice } from './page.js';
import { defaultModel } from '../model/defaults.js';
import { linkNotice } from '../state/state.js';
import { flushHash, linkProblems, setLinkProblems, setState, state, update, writeHash, writeHashSoon } from './router.js';

let view = null;
// a trained model's file (training/inspect.js) waiting for the view to open it
let trained = null;

// "Inspect what you trained": bytes, a gpt-v1 model file the trainer wrote;
// name: its file name; label: what the view calls it; text: what it reads
// first. The Model view opens it as it opens a file picked from disk (file=1),
// on the head scores, the lens that finds each head's role, and lands there:
// the lens panel in view (the router scrolls to it) and its heading in focus.
export function inspectTrained({ bytes, name, label, text }) {
  trained = { file: new File([bytes], name, { type: 'application/octet-stream' }), label };
  update({ lesson: null, train: null, preset: null, model: defaultModel, file: true, text, layer: 0, head: 0,
    temperature: null, top_k: null, top_p: null, generated: null, lens: 'scores', ablate: null, mode: null, at: null, token: null },
  { land: '.lens-panel' });
}

// The lens panel drawn (lens/hook.js loads it when first opened) before the
// router lands on it; its heading takes the focus, the scroll is the router's.
async function focusLenses() {
  await view.lens.update();
  const heading = view.box.querySelector('.lens-panel h3');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}
// the view shows a model file opened from disk (not one it is still opening)
const showsFile = () => view?.settings.model === null && !view.loading;

export function disposeModel() {
  view?.dispose();
  view = null;
  $('lesson-body').classList.remove('model-body-wrap');
  $('lesson-embed').hidden = $('lesson-embed-code').hidden = true;
  $('lesson-embed').setAttribute('aria-expanded', 'false');
}

export async function renderModel() {
  app.dataset.view = 'model';
  $('lesson').hidden = false;
  $('lesson-title').textContent = 'A real GPT: every head of every layer';
  $('lesson-open').hidden = true;
  const made = trained;  // taken now: a learner who moves on leaves it behind
  trained = null;
  // the model view's modules load when it opens: a first visit skips them
  const { ModelView, defaultModel, defaultText, defaultTemperature, titleOf } = await import('../model/view.js');
  if (!state.model) return;  // the learner moved on
  if (view) $('lesson-title').textContent = titleOf(view.family);  // the model shown's kind: a link followed keeps it
  $('lesson-embed').hidden = false;
  if (!view) {
    const body = $('lesson-body');
    body.textContent = '';
    body.dataset.lesson = 'model';
    const made = view = new ModelView(body, {
      startHere: true,
      // "A real BERT: …" once a BERT opens
      onFamily: (family) => { if (view === made && state.model) $('lesson-title').textContent = titleOf(family); },
      // the view's model is null once a file from disk is shown;
      // typing: the link is written once the typing pauses, or the text field is left
      onState: ({ model, text, layer, head, temperature, topK, topP, generated, lens, ablate, mode, at, token }, { typing = false } = {}) => {
        if (view !== made || !state.model) return;  // a view left: the page shows something else
        setState({
          ...state, model: model ?? defaultModel, file: model === null || null, text: text === defaultText ? null : text, layer, head,
          temperature: temperature === defaultTemperature ? null : temperature, top_k: topK || null, top_p: topP === 1 ? null : topP,
          generated: generated ?? null,  // which tokens Generate wrote (model/generated.js)
          // the lenses (web/lens/): closed, none ablated, zero, the last position and the model's choice are the defaults
          lens: lens ?? null, ablate: ablate || null, mode: mode === 'mean' ? mode : null, at: at ?? null, token: token ?? null,
        });
        if (typing) writeHashSoon();
        else writeHash('replace');
      },
      onOpenHead: ({ scenario }) => {
        disposeModel();
        // opens on the weights (views/zoom-rows.js numbers the last queries'
        // rows) and lands on the player, the head's matrices under it
        openScenarioText(JSON.stringify(scenario), { model: null, text: null, layer: 0, step: 'weights', temperature: null, top_k: null, top_p: null, generated: null,
          lens: null, ablate: null, mode: null, at: null, token: null }, { land: '.stage' });
      },
    });
    body.addEventListener('focusout', flushHash);
  }
  let model = state.model;
  if (made) {
    await view.openFile(made.file, { label: made.label, text: state.text, lens: state.lens });
    model = null;
  } else if (state.file && showsFile()) model = null;  // the file shown stays: null opens nothing new
  else if (state.file) {
    model = defaultModel;
    setState({ ...state, model, file: null });
    writeHash('replace');
    setLinkProblems([...linkProblems, `file: a model file opened from someone's disk cannot travel in a link; opened ${defaultModel}, the default model`]);
    showNotice(linkNotice(linkProblems));
  }
  $('status').hidden = true;
  app.dataset.state = 'ready';
  if (made && !view.worker) return;  // refused: the view's line says why
  await view.show({
    model, text: state.text ?? defaultText, layer: state.layer, head: state.head,
    temperature: state.temperature ?? defaultTemperature, topK: state.top_k ?? 0, topP: state.top_p ?? 1, generated: state.generated,
    lens: state.lens, ablate: state.ablate ?? '', mode: state.mode ?? 'zero', at: state.at, token: state.token,
  });
  if (made && view?.worker) await focusLenses();
}
