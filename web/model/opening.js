// Opening a model in the Model view: a new worker reads the file or folder
// (with its progress bar) while the model shown stays; then its tokenizer,
// its facts line, its first text (typed ids: ids-start.js), the family's
// panels, the page's guide to it, and a first run. A refusal is one
// line under the source, the model shown kept. The view's open(),
// refused() and cancelOpening() are these.
import { ModelError, ModelWorker } from '../engine/model-client.js';
import { defaultText } from './defaults.js';
import { adaptToFamily, familyOf } from './family.js';
import { folderFacts, folderTokenizer, textLabel } from './folder.js';
import { startText } from './ids-start.js';
import { parametersText } from './parameters.js';
import { tokenizerFor } from '../engine/tokenizer.js';
import { loadTokenizer } from './tokens.js';

const megabytes = (n) => `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} MB`;

// A new worker opens the model; the one shown stays until it has.
// folder: folder-source.js's readFolder answer (a Llama-family or BERT folder), in place of source.
export async function openModel(view, source, { config = '', name, label, file = false, folder = null }) {
  view.loading?.worker.terminate();
  const worker = new ModelWorker();
  const loading = { worker };
  view.loading = loading;
  view.progressBox.hidden = false;
  view.progress.removeAttribute('value');
  view.progressText.textContent = `Opening ${label}…`;
  view.showStatus('');  // the last opening's line is not this one's
  view.folder.clear();
  view.box.dataset.state = 'loading';
  try {
    const onProgress = ({ received, total }) => {
      view.progress.max = total || 1;
      view.progress.value = received;
      view.progressText.textContent = `${label}: ${megabytes(received)} of ${megabytes(total)}`;
    };
    const info = folder ? await worker.openFolder(folder, { name, onProgress }) : await worker.open(source, { config, name, onProgress });
    if (view.loading !== loading) return;
    performance.mark('model-opened');  // the file is in the worker: what follows is drawing
    // the kind's own tokenizer (GPT-2's, a folder's tokenizer.json, else none), behind one interface
    const library = info.tokenizer === 'gpt2' ? await loadTokenizer() : folder ? await folderTokenizer(folder, info) : null;
    if (view.loading !== loading) {  // left or replaced while the tokenizer loaded
      worker.terminate();
      return;
    }
    view.worker?.terminate();
    Object.assign(view, { worker, info, label, family: familyOf(info), tokenizer: tokenizerFor(info, { worker, library }) });
    if (file) view.settings.model = null;  // a file cannot be in a link
    view.loading = null;
    view.progressBox.hidden = true;
    view.showStatus('');
    const c = info.config;
    view.warpers.setVocabulary(c.vocab);
    Object.assign(view.settings, view.warpers.value);
    view.name.textContent = `Model: ${label}`;
    // "a vocabulary of 81": how many tokens it knows, not how many the text has
    view.facts.textContent = `${c.layers} layers × ${c.heads} heads, embedding ${c.embed}, a vocabulary of ${c.vocab.toLocaleString('en')} tokens`
      + `${info.tokenizer === 'characters' ? ' (characters)' : info.tokenizer === 'gpt2' ? ' (GPT-2’s BPE)' : ''}, reads up to ${c.length} tokens, ${parametersText(info.counts)}`;
    if (folder) view.facts.textContent = folderFacts(info);
    view.textLabel.textContent = textLabel(info);
    // the views drew the last model: hidden until this one has read the text
    view.result = null;
    view.position = null;
    view.body.hidden = view.chips.list.hidden = view.stale.hidden = true;
    delete view.box.dataset.tokens;
    keepHeadInModel(view);
    view.generated.opened();
    startText(view, { folder, defaultText });  // typed ids: a starter valid for this model, and why ids
    adaptToFamily(view, defaultText);  // an encoder's fill-in, its text; the panels a family shows
    // the page's guide describes this model from now, whether or not it can read the text
    view.startHere?.opened(view.settings.model);
    view.tryList?.opened({ model: view.settings.model, label, info, family: view.family, folder: !!folder, place: view.familyLine && !view.familyLine.hidden ? view.familyLine : view.facts });
    view.onState(view.settings);
    await view.run();
  } catch (error) {
    worker.terminate();
    if (view.loading === loading) refused(view, label, error);
  }
}

// The selected layer and head within the open model (a link may name more).
export function keepHeadInModel(view) {
  const c = view.info.config;
  view.settings.layer = Math.max(0, Math.min(view.settings.layer, c.layers - 1));
  view.settings.head = Math.max(0, Math.min(view.settings.head, c.heads - 1));
}

// An opening refused (label: what it opened, or null): its line, the model shown kept.
export function refused(view, label, error) {
  view.loading = null;
  view.progressBox.hidden = true;
  view.box.dataset.state = view.worker ? 'ready' : 'error';
  const message = error instanceof ModelError ? error.message : `internal error: ${error?.message ?? error}`;
  view.showStatus(`${label === null ? '' : `${label}: `}${message}${view.worker ? `; still showing ${view.label}` : ''}`);
}

export function cancelOpening(view) {
  if (!view.loading) return;
  view.loading.worker.terminate();
  refused(view, null, new ModelError('Opening was cancelled'));
}
