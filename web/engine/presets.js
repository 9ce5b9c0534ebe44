// Where scenarios and training files come from: the presets, fetched once
// each from the site's scenarios/ (../scenarios/ from this file, beside the
// element's script), so the folder works under any path
// of any site, and a host site's own files, from its own origin only. A name is looked up in the index
// first: an unknown one is one line naming the known ones, never a request
// that 404s in the host page's console.
import { ScenarioError } from './engine.js';
import { quoteText, trainingIds } from '../state/state.js';

const cache = new Map();
let index = null;

export async function presetScenario(id) {
  const known = (await presetIndex()).map((p) => p.id);
  if (!known.includes(id)) throw new ScenarioError(`scenario: no preset ${quoteText(id)}; the presets are ${known.join(', ')}`);
  if (!cache.has(id)) {
    cache.set(id, (async () => {
      const response = await fetch(new URL(`../scenarios/${id}.json`, import.meta.url));
      if (!response.ok) throw new ScenarioError(`preset: no scenario "${id}"`);
      return response.json();
    })());
    cache.get(id).catch(() => cache.delete(id));  // a failed fetch may be retried
  }
  return cache.get(id);
}

export function presetIndex() {
  index ??= (async () => {
    const response = await fetch(new URL('../scenarios/index.json', import.meta.url));
    if (!response.ok) throw new ScenarioError(`cannot load the preset list (HTTP ${response.status})`);
    return response.json();
  })();
  index.catch(() => { index = null; });  // a failed fetch may be retried
  return index;
}

// A training preset's file (trainings/<id>.json) as text, for the trainer.
export async function trainingText(id) {
  if (!trainingIds.includes(id)) throw new ScenarioError(`training: no preset ${quoteText(id)}; the training presets are ${trainingIds.join(', ')}`);
  const response = await fetch(new URL(`../trainings/${id}.json`, import.meta.url));
  if (!response.ok) throw new ScenarioError(`train: no training preset "${id}"`);
  return response.text();
}

// The corpora shipped beside the training presets (trainings/<name>, with
// their licence note, CORPORA.md): what a text task's task.corpus may name.
export const corpusNames = ['literature.txt'];
const corpora = new Map();

function shippedCorpus(name) {
  if (!corpora.has(name)) {
    corpora.set(name, (async () => {
      const response = await fetch(new URL(`../trainings/${name}`, import.meta.url));
      if (!response.ok) throw new ScenarioError(`task.corpus: cannot load ${quoteText(name)} (HTTP ${response.status})`);
      return new Uint8Array(await response.arrayBuffer());
    })());
    corpora.get(name).catch(() => corpora.delete(name));  // a failed fetch may be retried
  }
  return corpora.get(name);
}

// The shipped corpus a training file's text task names, as bytes for the
// trainer ({name: Uint8Array}); {} when it names none of them, and the core
// then says which it lacks.
export async function trainingCorpora(text) {
  let name;
  try {
    name = JSON.parse(text)?.task?.corpus;
  } catch {
    return {};  // the core names what is wrong with the file
  }
  return corpusNames.includes(name) ? { [name]: await shippedCorpus(name) } : {};
}

// Which scenario URLs a figure loads: the page's own origin, by a relative or
// absolute URL, over http(s). A link to embed.html can carry any URL, so
// data:, blob:, javascript: and other origins are refused before any request.
export function scenarioUrl(text, kind = 'scenario') {
  let url;
  try {
    url = new URL(text, document.baseURI);
  } catch {
    throw new ScenarioError(`${kind}: ${quoteText(text)} is neither a preset id nor a URL`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.origin !== window.location.origin)
    throw new ScenarioError(`${kind}: ${quoteText(text)} is not on this site; ${kind} files load from the page's own origin only`);
  return url;
}

// A scenario or training file of the host site, as text: refused before any
// request when it is elsewhere, after a redirect to another origin (the
// pages' policy stops the hop itself: a network error here), and before
// reading the body when the server declares it larger than the core takes.
export async function sameOriginText(kind, text, limit) {
  const url = scenarioUrl(text, kind);
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new ScenarioError(`${kind}: cannot load ${quoteText(url.pathname)} (a network error, or a redirect to another origin)`);
  }
  const final = response.url ? new URL(response.url) : url;
  if (final.origin !== url.origin) {
    response.body?.cancel().catch(() => {});
    throw new ScenarioError(`${kind}: ${quoteText(url.pathname)} redirects to ${final.origin}, another origin; ${kind} files load from the page's own origin only`);
  }
  if (!response.ok) throw new ScenarioError(`${kind}: cannot load ${quoteText(url.pathname)} (HTTP ${response.status})`);
  const declared = Number(response.headers.get('Content-Length') ?? 0);
  if (declared > limit) throw new ScenarioError(`${kind}: ${declared} bytes exceed the limit of ${limit}`);
  return response.text();
}

// The models the Model view opens by name: the lecture ladder's GPT, trained
// by the core (web/models/). Anything else is a model file's URL on this site.
export const modelPresets = { 'text-gpt': new URL('../models/text-gpt.safetensors', import.meta.url).href };

// A model's URL from a preset id or a same-origin URL; a ScenarioError otherwise.
export function modelSource(text) {
  return Object.hasOwn(modelPresets, text) ? modelPresets[text] : scenarioUrl(text, 'model').href;
}
