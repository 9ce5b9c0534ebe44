// A Hugging Face model folder's files (models-v2.md section 1), found and
// checked before anything is opened: config.json first (capped, parsed),
// then model.safetensors, or model.safetensors.index.json and every shard it
// lists, once each, in the order first listed; tokenizer.json when present.
// The folder is the learner's files (picked with a folder picker, picked
// several at once, or dropped) or a same-origin URL ending in "/" (each file
// fetched beside it, refused when a redirect leaves the origin:
// model-fetch.js). What comes back names every file in reading order, as a
// Blob or as a URL with a factory of its Response; nothing of the weights is
// read here. Problems are one ModelError line naming the file. Loaded when a
// folder is first opened.
import { blobText, declaredSize, responseText } from './capped-text.js';
import { configLimit, ModelError } from './model.js';
import { fetchModel } from './model-fetch.js';
import { tokenizerLimit } from './hf-tokenizer-check.js';
import { quoteText } from '../state/state.js';

export const limits = {
  config: configLimit,      // 1 MiB: a config.json is a few hundred bytes
  index: 4 << 20,           // the core's index_limit (folder_read.cpp); a 405B model's index is under 2 MB
  tokenizer: tokenizerLimit,  // 32 MiB, as a tokenizer.json opened alone; Llama 3's and Qwen's are 9 and 7 MB
};

const index = 'model.safetensors.index.json';

// Opens a folder: {name (the folder's, for labels), config (parsed),
// configText, modelType, files: [{name, size (bytes; null when a server
// does not say), blob} or {name, size, url, open() → Response}] in reading
// order, index (the parsed index, or null), indexText ('' without one),
// tokenizerText (or null)}.
export async function readFolder(place) {
  const configText = await place.text('config.json', limits.config);
  if (configText === null) throw new ModelError(`config.json: none ${place.where}; a model folder holds config.json beside model.safetensors`);
  const config = parseObject('config.json', configText);
  const modelType = config.model_type;
  // the core reads or refuses the family from config.json, before a shard is read
  if (typeof modelType !== 'string') throw new ModelError('config.model_type: missing; config.json names the model\'s family there');
  let files;
  let map = null;
  let indexText = '';
  const single = await place.file('model.safetensors');
  if (single) files = [single];
  else {
    indexText = await place.text(index, limits.index);
    if (indexText === null) throw new ModelError(`model.safetensors: none ${place.where}, nor ${index} with its shards`);
    map = parseObject(index, indexText);
    files = [];
    for (const name of shardNames(map)) {
      const shard = await place.file(name);
      if (!shard) throw new ModelError(`${index}: its shard ${quoteText(name, 80)} is not ${place.where}`);
      files.push(shard);
    }
  }
  const tokenizerText = await place.text('tokenizer.json', limits.tokenizer);
  return { name: place.name, config, configText, modelType, files, index: map, indexText, tokenizerText };
}

// The shards an index lists (weight_map: tensor → file), each once, in the
// order first listed; a name that is not a file of the same folder is refused.
export function shardNames(map) {
  const weights = map.weight_map;
  if (weights === null || typeof weights !== 'object' || Array.isArray(weights))
    throw new ModelError(`${index}: weight_map is missing or not an object of tensor names and shard files`);
  const names = [];
  for (const [tensor, file] of Object.entries(weights)) {
    const where = `${index}: weight_map[${quoteText(tensor, 80)}]`;
    if (typeof file !== 'string') throw new ModelError(`${where} is not a file name`);
    if (!plainName(file)) throw new ModelError(`${where} is ${quoteText(file, 80)}, not the name of a file in the same folder`);
    if (!names.includes(file)) names.push(file);
  }
  if (names.length === 0) throw new ModelError(`${index}: weight_map lists no shard`);
  return names;
}

// A file of the same folder: no path, no parent, no drive or scheme, no control character.
function plainName(name) {
  return name.length > 0 && name.length <= 255 && name !== '.' && name !== '..' && !/[/\\:\u0000-\u001f\u007f]/.test(name);
}

function parseObject(name, text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ModelError(`${name}: not valid JSON`);  // the parser's message would quote the file
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ModelError(`${name}: not a JSON object`);
  return value;
}

// The learner's files as a folder: the files of one folder (a folder
// picker's webkitRelativePath "folder/name"; files deeper are not the
// folder's), or files picked or dropped together. `name`: the folder's.
export function filesPlace(files, name = null) {
  const byName = new Map();
  for (const file of files) {
    const path = (file.webkitRelativePath || file.name).split('/');
    if (path.length > 2) continue;  // in a folder inside the folder
    if (path.length === 2) name ??= path[0];
    if (byName.has(file.name)) throw new ModelError(`${quoteText(file.name, 80)}: two files of that name; open one folder`);
    byName.set(file.name, file);
  }
  // A FIFO, socket or device in a picked folder is a File of size 0 that
  // reads as empty (Chromium's): refused by its size before any read, as
  // the CLI refuses what is not a regular file.
  const get = (n) => {
    const file = byName.has(n) ? byName.get(n) : null;
    if (file?.size === 0) throw new ModelError(`${quoteText(n, 80)}: 0 bytes; an empty file, or not a regular file (a FIFO, a socket or a device)`);
    return file;
  };
  return {
    name,
    where: name === null ? 'among the files' : `in the folder ${quoteText(name, 80)}`,
    async text(n, limit) {
      const file = get(n);
      return file ? blobText(file, n, limit) : null;
    },
    async file(n) {
      const file = get(n);
      return file ? { name: n, size: file.size, blob: file } : null;
    },
  };
}

// A same-origin folder URL (ending in "/"; checked by the page before this).
// Each file is fetched beside it (its name encoded: "%2e%2e" stays a name);
// a weights file is asked for its size only (HEAD), and read when opened.
export function urlPlace(href) {
  const base = new URL(href);
  if (!base.pathname.endsWith('/')) throw new ModelError(`model: ${quoteText(base.pathname, 80)} is not a folder; a folder's URL ends in "/"`);
  const urlOf = (n) => new URL(encodeURIComponent(n), base).href;
  const parts = base.pathname.split('/');
  let name = parts[parts.length - 2] || base.host;
  try {
    name = decodeURIComponent(name);
  } catch {
    // not valid percent-encoding: the name as written
  }
  return {
    name,
    where: `at ${quoteText(base.pathname, 80)}`,
    async text(n, limit) {
      const response = await fetchModel(urlOf(n), { label: n, missing: true });
      return response ? responseText(response, n, limit) : null;
    },
    async file(n) {
      const url = urlOf(n);
      const response = await fetchModel(url, { label: n, method: 'HEAD', missing: true });
      if (!response) return null;
      return { name: n, size: declaredSize(response), url, open: () => fetchModel(url, { label: n }) };
    },
  };
}

// What a drop holds as files: a dropped folder's own files (one level: its
// folders are not read), or the files dropped together. `dropped`:
// {entries (webkitGetAsEntry's, which Chromium, Firefox and Safari give),
// files}, taken from the drop's DataTransfer while its event runs (a browser
// empties it once the handler returns). {files, name} (name: the folder's,
// or null).
export async function droppedFiles({ entries, files }) {
  if (entries.length === 0 || entries.some((entry) => entry === null)) return { files, name: null };  // no entries: the files as they are
  const folders = entries.filter((entry) => entry.isDirectory);
  if (folders.length > 1 || (folders.length === 1 && entries.length > 1))
    throw new ModelError('drop: one folder at a time, or the files of one folder');
  if (folders.length === 0) return { files: await Promise.all(entries.map(fileOf)), name: null };
  const children = await folderEntries(folders[0]);
  return { files: await Promise.all(children.filter((entry) => entry.isFile).map(fileOf)), name: folders[0].name };
}

function fileOf(entry) {
  return new Promise((resolve, reject) => entry.file(resolve, () => reject(new ModelError(`${quoteText(entry.name, 80)}: cannot be read`))));
}

// A directory entry's entries: readEntries answers a batch at a time, [] at the end.
async function folderEntries(directory) {
  const reader = directory.createReader();
  const all = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, () => reject(new ModelError(`${quoteText(directory.name, 80)}: the folder cannot be read`))));
    if (batch.length === 0) return all;
    all.push(...batch);
    if (all.length > 10000) throw new ModelError(`${quoteText(directory.name, 80)}: more than 10,000 files; a model folder holds a few`);
  }
}
