// The presets, fetched once each from scenarios/ beside this file, so the
// folder works under any path of any site. A name is looked up in the index
// first: an unknown one is one line naming the known ones, never a request
// that 404s in the host page's console.
import { ScenarioError } from './engine.js';
import { quoteText, trainingIds } from './state.js';

const cache = new Map();
let index = null;

export async function presetScenario(id) {
  const known = (await presetIndex()).map((p) => p.id);
  if (!known.includes(id)) throw new ScenarioError(`scenario: no preset ${quoteText(id)}; the presets are ${known.join(', ')}`);
  if (!cache.has(id)) {
    cache.set(id, (async () => {
      const response = await fetch(new URL(`scenarios/${id}.json`, import.meta.url));
      if (!response.ok) throw new ScenarioError(`preset: no scenario "${id}"`);
      return response.json();
    })());
    cache.get(id).catch(() => cache.delete(id));  // a failed fetch may be retried
  }
  return cache.get(id);
}

export function presetIndex() {
  index ??= (async () => {
    const response = await fetch(new URL('scenarios/index.json', import.meta.url));
    if (!response.ok) throw new ScenarioError(`cannot load the preset list (HTTP ${response.status})`);
    return response.json();
  })();
  index.catch(() => { index = null; });  // a failed fetch may be retried
  return index;
}

// A training preset's file (trainings/<id>.json) as text, for the trainer.
export async function trainingText(id) {
  if (!trainingIds.includes(id)) throw new ScenarioError(`training: no preset ${quoteText(id)}; the training presets are ${trainingIds.join(', ')}`);
  const response = await fetch(new URL(`trainings/${id}.json`, import.meta.url));
  if (!response.ok) throw new ScenarioError(`train: no training preset "${id}"`);
  return response.text();
}
