// Generate in the models' wasm module keeps keys and values (lens-v1.md
// section 5) and gives the very tokens the native core gives: the shipped
// text-gpt and Llama-family folders, at windows that slide past the
// context. tests/fixtures/generate_windows.json holds the native tokens;
// tests/models/test_generate.cpp checks that the native core's cached and
// recomputing paths both still give them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadModelEngine, openModel } from '../../web/engine/model.js';
import { openFolder } from '../../web/engine/model-folder.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const engine = await loadModelEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-model.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-model.wasm')),
});
const fixture = JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'generate_windows.json'), 'utf8'));

// a model file as a Blob, or a folder as the page hands it over
async function openCase(path) {
  const at = join(root, path);
  if (path.endsWith('.safetensors')) return openModel(new Blob([readFileSync(at)]), { engine });
  const text = (file) => (existsSync(join(at, file)) ? readFileSync(join(at, file), 'utf8') : '');
  const files = readdirSync(at).filter((f) => f.endsWith('.safetensors')).map((f) => ({ name: f, source: new Blob([readFileSync(join(at, f))]) }));
  return openFolder({ configText: text('config.json'), indexText: text('model.safetensors.index.json'), files }, { engine });
}

test('generate past the context: the native core\'s tokens, on text-gpt and Llama-family folders', async () => {
  assert.ok(fixture.cases.some((c) => c.model === 'web/models/text-gpt.safetensors'));
  assert.ok(fixture.cases.some((c) => c.model.startsWith('tests/models-v2/llama')));
  for (const c of fixture.cases) {
    const model = await openCase(c.model);
    assert.ok(c.prompt.length + c.count > model.config.length, `${c.model}: the window slides`);
    const got = model.generate(c.prompt, c.count, { temperature: c.temperature, seed: c.seed, topK: c.top_k, topP: c.top_p });
    assert.deepEqual(got, c.tokens, `${c.model}: T ${c.temperature}, top_k ${c.top_k}, top_p ${c.top_p}, seed ${c.seed}`);
    model.dispose();
  }
});
