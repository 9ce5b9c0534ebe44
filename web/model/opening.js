// Opening a model in the Model view: a new worker reads the file or folder
// (with its progress bar and Cancel) while the model shown stays; then its
// tokenizer (engine/tokenizer.js's interface over its kind). The view
// (view.js) then shows it: its facts line (factsLine), its first text
// (ids-start.js), the family's panels (family.js) and a first run. A refusal
// is one line under the source (refusalLine), the model shown kept.
import { ModelError, ModelWorker } from '../engine/model-client.js';
import { tokenizerFor } from '../engine/tokenizer.js';
import { folderFacts, folderTokenizer } from './folder.js';
import { parametersText } from './parameters.js';
import { loadTokenizer } from './tokens.js';

const megabytes = (n) => `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} MB`;

// Which opening is the current one, and its progress: a component over the
// source box's progress bar (parts: {progressBox, progress, progressText}).
// A new opening stops the one before; only the current one may show what it opened.
export class Opening {
  constructor({ progressBox, progress, progressText }) {
    Object.assign(this, { progressBox, progress, progressText });
    this.current = null;
  }

  // A new opening (stop(): ends its work), saying `line` → its ticket.
  begin(line, stop) {
    this.current?.stop();
    const ticket = { stop };
    this.current = ticket;
    this.progressBox.hidden = false;
    this.progress.removeAttribute('value');
    this.progressText.textContent = line;
    return ticket;
  }

  isCurrent(ticket) {
    return this.current === ticket;
  }

  // Whether a model is being opened.
  get busy() {
    return this.current !== null;
  }

  // Bytes read of `label`.
  update(label, { received, total }) {
    this.progress.max = total || 1;
    this.progress.value = received;
    this.progressText.textContent = `${label}: ${megabytes(received)} of ${megabytes(total)}`;
  }

  // The current one is over (opened or refused): the bar hides.
  end() {
    this.current = null;
    this.progressBox.hidden = true;
  }

  // Stops the current one: → whether there was one.
  cancel() {
    if (!this.current) return false;
    this.current.stop();
    return true;
  }

  dispose() {
    this.current?.stop();
    this.current = null;
  }
}

// A new worker opens the model (source: a file, a Blob or a URL; folder:
// folder-source.js's readFolder answer, a Llama-family or BERT folder, in
// place of source). → {worker, info, tokenizer}, or null when another
// opening replaced it meanwhile; throws its refusal.
export async function openInWorker(opening, source, { config = '', name, label, folder = null }) {
  const worker = new ModelWorker();
  const ticket = opening.begin(`Opening ${label}…`, () => worker.terminate());
  try {
    const onProgress = (progress) => opening.update(label, progress);
    const info = folder ? await worker.openFolder(folder, { name, onProgress }) : await worker.open(source, { config, name, onProgress });
    if (!opening.isCurrent(ticket)) return null;
    performance.mark('model-opened');  // the file is in the worker: what follows is drawing
    // the kind's own tokenizer (GPT-2's, a folder's tokenizer.json, else none), behind one interface
    let library = info.tokenizer === 'gpt2' ? await loadTokenizer() : null;
    if (folder && !library) {  // a folder's tokenizer.json, or its typed ids' special tokens: facts of this model's info
      const read = await folderTokenizer(folder, info.maskToken);
      library = read.library;
      Object.assign(info, { maskId: null, ...read.facts });
    }
    if (!opening.isCurrent(ticket)) {  // left or replaced while the tokenizer loaded
      worker.terminate();
      return null;
    }
    opening.end();
    return { worker, info, tokenizer: tokenizerFor(info, { worker, library }) };
  } catch (error) {
    worker.terminate();
    if (opening.isCurrent(ticket)) throw error;
    return null;
  }
}

const kinds = { characters: ' (characters)', gpt2: ' (GPT-2’s BPE)' };

// The model's facts line ("a vocabulary of 81": how many tokens it knows, not how many the text has).
export function factsLine(info, tokenizer) {
  if (info.trace === 'folder') return folderFacts(info, tokenizer);
  const c = info.config;
  return `${c.layers} layers × ${c.heads} heads, embedding ${c.embed}, a vocabulary of ${c.vocab.toLocaleString('en')} tokens`
    + `${kinds[tokenizer.kind] ?? ''}, reads up to ${c.length} tokens, ${parametersText(info.counts)}`;
}

// The selected layer and head within a model of `config` (a link may name more).
export function headInModel({ layer, head }, config) {
  return { layer: Math.max(0, Math.min(layer, config.layers - 1)), head: Math.max(0, Math.min(head, config.heads - 1)) };
}

// An opening refused (label: what it opened, or null; still: the label of
// the model still shown, or null): its one line.
export function refusalLine(label, error, still) {
  const message = error instanceof ModelError ? error.message : `internal error: ${error?.message ?? error}`;
  return `${label === null ? '' : `${label}: `}${message}${still === null ? '' : `; still showing ${still}`}`;
}
