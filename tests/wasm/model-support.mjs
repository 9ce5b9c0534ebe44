// What the wasm tests of a model share: the models' module loaded once, the
// repository's root, and a count of the Embind calls some work makes on a
// Model (how the opening and a run are shown to cross once).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadModelEngine } from '../../web/engine/model.js';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
export const engine = await loadModelEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-model.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-model.wasm')),
});

// Every Embind call of a Model that `work` makes, by name, counted on the
// class's prototype until `work` (and the promise it returns) is done.
export async function modelCalls(work) {
  const proto = engine.module.Model.prototype;
  const saved = new Map();
  const calls = {};
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === 'constructor' || name === 'delete' || typeof proto[name] !== 'function') continue;
    saved.set(name, proto[name]);
    proto[name] = function (...args) {
      calls[name] = (calls[name] ?? 0) + 1;
      return saved.get(name).apply(this, args);
    };
  }
  try {
    return { result: await work(), calls };
  } finally {
    for (const [name, f] of saved) proto[name] = f;
  }
}
