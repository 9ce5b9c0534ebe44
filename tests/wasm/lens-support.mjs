// What the two lens tests share (lens.test.mjs, lens-resid.test.mjs): the
// models' wasm module loaded once, the golden folder, the native CLI, and
// each model file or Hugging Face folder opened as the page opens it, once.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { openModel } from '../../web/engine/model.js';
import { openFolder } from '../../web/engine/model-folder.js';
import { engine, root } from './model-support.mjs';

export { engine, root };
export const cli = join(root, 'build', 'native', 'attention-cli');
export const goldenDir = join(root, 'tests', 'golden-lens');

// A model file or a folder (a path from the repository's root), opened once.
const opened = new Map();
export async function modelAt(path) {
  if (opened.has(path)) return opened.get(path);
  const full = join(root, path);
  let model;
  if (statSync(full).isDirectory()) {
    const text = (file) => (existsSync(join(full, file)) ? readFileSync(join(full, file), 'utf8') : '');
    const files = readdirSync(full).filter((f) => f.endsWith('.safetensors'))
      .map((f) => ({ name: f, source: new Blob([readFileSync(join(full, f))]) }));
    model = await openFolder({ configText: text('config.json'), indexText: text('model.safetensors.index.json'), files },
      { engine, name: path });
  } else {
    model = await openModel(new Blob([readFileSync(full)]), { engine, name: path });
  }
  opened.set(path, model);
  return model;
}
