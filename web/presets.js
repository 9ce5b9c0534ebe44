// The presets, fetched once each from scenarios/ beside this file, so the
// folder works under any path of any site.
import { ScenarioError } from './engine.js';

const cache = new Map();

export async function presetScenario(id) {
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

export async function presetIndex() {
  const response = await fetch(new URL('scenarios/index.json', import.meta.url));
  if (!response.ok) throw new Error(`cannot load the preset list (HTTP ${response.status})`);
  return response.json();
}

// A training preset's file (trainings/<id>.json) as text, for the trainer.
export async function trainingText(id) {
  const response = await fetch(new URL(`trainings/${id}.json`, import.meta.url));
  if (!response.ok) throw new ScenarioError(`train: no training preset "${id}"`);
  return response.text();
}
