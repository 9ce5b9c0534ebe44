// The Model view's folders (models-v2.md section 1): "Open a folder" beside
// the file picker, the source box as a drop zone (a folder, or files dropped
// together), several files picked at once that make a folder, and a
// same-origin #model= URL ending in "/" (files picked or dropped that are
// no folder's open as one model file). engine/folder-source.js (loaded
// when a folder is first opened) finds and checks the files; a refused
// folder is one line under the controls and the model shown stays. A
// Llama-family or BERT folder then opens in the models' wasm module
// (openFolderModel): its shards streamed into the worker, its text through
// its tokenizer.json (engine/hf-tokenizer.js, loaded then) or typed as ids.
import { quoteText } from '../state/state.js';
import { element, filePicker } from '../views/dom.js';
import { specialIds } from './ids-start.js';

const source = () => import('../engine/folder-source.js');

// Whether files picked together are a folder's (config.json and the weights
// of a folder) rather than one model file with its config.json.
function isFolder(files) {
  const names = new Set(files.map((f) => f.name));
  return names.has('config.json') && (names.has('model.safetensors') || names.has('model.safetensors.index.json'));
}

// A drop's entries and files, read while its event runs (a browser empties
// the DataTransfer once the handler returns; the entries stay readable).
function droppedItems(dataTransfer) {
  const items = [...(dataTransfer?.items ?? [])].filter((item) => item.kind === 'file');
  return { entries: items.map((item) => item.webkitGetAsEntry?.() ?? null), files: [...(dataTransfer?.files ?? [])] };
}

export class FolderSource {
  // controls: the box of its pickers (also the drop zone). host: what it
  // asks of the view: {opening (opening.js's Opening), starting() (another
  // model is asked for), open(source, options), refused(label, error),
  // showStatus(line)}.
  constructor(controls, host) {
    this.host = host;
    this.input = filePicker(controls, { label: 'Or open a model folder (config.json, model.safetensors, tokenizer.json)', name: 'model-folder',
      webkitdirectory: true, onFiles: (files) => this.openFiles(files) });
    element(controls, 'p', { className: 'note model-drop-note', textContent: 'Or drop a folder, or its files, on this box.' });
    controls.classList.add('model-drop-zone');
    controls.addEventListener('dragover', (event) => {
      if (![...(event.dataTransfer?.types ?? [])].includes('Files')) return;
      event.preventDefault();
      controls.classList.add('model-drop-over');
    });
    controls.addEventListener('dragleave', (event) => {
      if (!controls.contains(event.relatedTarget)) controls.classList.remove('model-drop-over');
    });
    controls.addEventListener('drop', (event) => {
      event.preventDefault();
      controls.classList.remove('model-drop-over');
      this.openDrop(droppedItems(event.dataTransfer));  // now: the DataTransfer is emptied once this returns
    });
  }

  // Files picked or dropped together: a folder's (config.json with the
  // weights), or one model file with its config.json if given.
  async openPicked(files) {
    if (isFolder(files)) return this.openFiles(files);
    const model = files.find((f) => !/\.json$/i.test(f.name));
    const config = files.find((f) => /\.json$/i.test(f.name));
    if (!model) return this.host.showStatus('Choose a model file (.safetensors), with its config.json beside it if it has one');
    // the worker reads the config.json once it has checked its size
    return this.host.open(model, { config: config ?? '', name: model.name, label: quoteText(model.name, 80), file: true });
  }

  // A folder's files (a folder picker's carry "folder/name"), or files picked together.
  openFiles(files, name = null) {
    name ??= files.find((f) => f.webkitRelativePath)?.webkitRelativePath.split('/')[0] ?? null;
    const label = name === null ? 'the files chosen' : quoteText(`${name}/`, 80);
    return this.open(label, async ({ filesPlace, readFolder }) => readSpecial(readFolder, filesPlace(files, name)), true);
  }

  // A drop (droppedItems'): a folder, or files (a folder's, or a model file).
  async openDrop(dropped) {
    try {
      const { droppedFiles } = await source();
      const { files, name } = await droppedFiles(dropped);
      if (name === null) return this.openPicked(files);
      return this.openFiles(files, name);
    } catch (error) {
      this.host.refused(null, error);
    }
  }

  // A same-origin folder URL (the page checked its origin); label: the link's text, quoted.
  openUrl(url, label) {
    return this.open(label, async ({ readFolder, urlPlace }) => readSpecial(readFolder, urlPlace(url)), false);
  }

  // Reads a folder (read(folder-source's module)), then opens what it holds.
  async open(label, read, file) {
    const { opening } = this.host;
    const ticket = opening.begin(`Reading ${label}…`, () => {});  // nothing to stop: a few small reads
    this.host.starting();
    let folder;
    try {
      folder = await read(await source());
    } catch (error) {
      if (opening.isCurrent(ticket)) this.host.refused(label, error);
      return;
    }
    if (!opening.isCurrent(ticket)) return;  // another model was asked for meanwhile
    opening.end();
    await this.openRead(folder, { label, file });
  }

  // A folder read opens in the core, whatever its family: its config.json,
  // its shards' headers, then their data in order (a gpt2 folder's shards
  // read as one model file).
  openRead(folder, { label, file }) {
    return this.host.open(null, { folder, name: folder.name ?? 'model', label, file });
  }
}

// A folder read, with the place it was read from kept: its other files are
// read once the model's facts are known (folderTokenizer).
async function readSpecial(readFolder, place) {
  const folder = await readFolder(place);
  folder.place = place;
  return folder;
}

// A folder's tokenizer.json as a tokenizer (engine/hf-tokenizer.js, loaded
// now), or none: its text is then typed as ids. → {library (the tokenizer,
// or null), facts: {tokenizer ('hf' or 'ids'), maskId ([MASK]'s id, or
// null), …}} for the model's info; typed ids of a masked LM (`maskToken`,
// from the model's facts) take the mask's, [CLS]'s and [SEP]'s ids from the
// folder's other files (ids-start.js's specialIds), with the line on one
// that could not be read.
export async function folderTokenizer(folder, maskToken) {
  if (folder.tokenizerText === null || folder.tokenizerText === undefined) {
    const special = folder.place ? await specialIds(folder, folder.place, maskToken) : {};
    const { mask = null, cls = null, sep = null, problem = '' } = special;
    return { library: null, facts: { tokenizer: 'ids', maskId: mask, clsId: cls, sepId: sep, specialProblem: problem } };
  }
  const { openTokenizer } = await import('../engine/hf-tokenizer.js');
  const library = await openTokenizer(folder.tokenizerText);
  return { library, facts: { tokenizer: 'hf', maskId: library.maskId } };
}

// The facts line of a folder's model: its family (the core's name of it),
// heads and the key/value heads they share; an encoder says whether it has
// its masked-LM head.
export function folderFacts(info, tokenizer) {
  const c = info.config;
  const heads = c.kv_heads === c.heads ? `${c.heads} heads` : `${c.heads} query heads sharing ${c.kv_heads} key/value head${c.kv_heads === 1 ? '' : 's'}`;
  const kind = info.causal ? 'each token reads the ones before it' : 'every token reads every token, both ways';
  const head = !info.causal ? (info.maskedLm ? ', with its masked-LM head' : ', without a head to predict with') : '';
  return `${info.familyName || info.architecture}: ${c.layers} layers × ${heads} of ${c.head_dim}, embedding ${c.embed}, `
    + `a vocabulary of ${c.vocab.toLocaleString('en')} tokens${tokenizer?.kind === 'hf' ? ' (its tokenizer.json)' : ''}, `
    + `reads up to ${c.length} tokens (${kind})${head}, ${info.counts.file.toLocaleString('en')} parameters`;
}

// The text field's label: a model without a tokenizer takes ids typed as
// numbers (tokenizer: engine/tokenizer.js's).
export function textLabel(tokenizer) {
  return tokenizer.typed ? 'Token ids' : 'Text';  // why, and how to type them: ids-start.js's note
}
