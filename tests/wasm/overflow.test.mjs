// A forward whose activations overflow float32 is refused in wasm as it is
// natively, naming the layer and the norm: a GPT whose embedding is scaled
// by 1e30 (finite in float32, its variance is not) gave all-zero logits and
// uniform attention, and attribution a sum that was not its logit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadModelEngine, ModelError, openModel } from '../../web/engine/model.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const engine = await loadModelEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-model.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-model.wasm')),
});

// A safetensors file of float32 tensors [name, shape, value of the k-th number].
function safetensors(tensors, metadata = { n_head: '1' }) {
  const header = {};
  let offset = 0;
  const parts = [];
  for (const [name, shape, value] of tensors) {
    const n = shape.reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + 4 * n] };
    parts.push(Float32Array.from({ length: n }, (_, k) => value(k)));
    offset += 4 * n;
  }
  header.__metadata__ = metadata;
  const text = new TextEncoder().encode(JSON.stringify(header));
  const file = new Uint8Array(8 + text.length + offset);
  new DataView(file.buffer).setBigUint64(0, BigInt(text.length), true);
  file.set(text, 8);
  let at = 8 + text.length;
  for (const p of parts) {
    file.set(new Uint8Array(p.buffer), at);
    at += p.byteLength;
  }
  return file;
}

// V 3, Tmax 4, d 4, one head, one block with ln_1, ln_f; the embedding ±scale
function model(scale) {
  const small = (k) => 0.01 * ((k % 5) - 2);
  return safetensors([
    ['wte.weight', [3, 4], (k) => (k % 2 ? -scale : scale) * (1 + k / 16)],
    ['wpe.weight', [4, 4], small],
    ['h.0.ln_1.weight', [4], () => 1], ['h.0.ln_1.bias', [4], () => 0],
    ['h.0.attn.c_attn.weight', [4, 12], small], ['h.0.attn.c_proj.weight', [4, 4], small],
    ['ln_f.weight', [4], () => 1], ['ln_f.bias', [4], () => 0],
  ]);
}

const line = "overflow: layer 0's ln_1 (LayerNorm): the variance is not finite in float32 (row 0); the weights or inputs are too large";

test('an embedding of 1e30 is refused naming the layer and the norm: run, lenses, generate', async () => {
  const m = await openModel(new Blob([model(1e30)]), { engine });
  const refused = (e) => e instanceof ModelError && e.message === line;
  assert.throws(() => m.run([0, 1, 2]), refused);
  for (const what of ['scores', 'logit-lens', 'attribution']) assert.throws(() => m.lens({ what, tokens: [0, 1, 2] }), refused, what);
  assert.throws(() => m.lens({ what: 'ablate', tokens: [0, 1, 2], heads: [[0, 0]] }), refused);
  assert.throws(() => m.generate([0, 1], 2), refused);
  m.dispose();
});

test('the same model at 1e15 runs, and attribution sums to its logit', async () => {
  const m = await openModel(new Blob([model(1e15)]), { engine });
  assert.equal(m.run([0, 1, 2]).length ?? 3, 3);
  const a = m.lens({ what: 'attribution', tokens: [0, 1, 2] });
  assert.ok(Number.isFinite(a.logit) && Math.abs(a.sum - a.logit) <= 1e-3 + 1e-3 * Math.abs(a.logit), JSON.stringify(a));
  m.dispose();
});
