// The models' wasm module on requests whose size the core bounds before any
// work (issue 29), as the native CLI does with the same core: the printed
// model trace limited as a scenario's trace is (the page's own run of the
// same tokens still runs), and a mask buffer declared at 64 GiB refused from
// the header, before a byte of it is asked for.
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

// A safetensors file of float32 tensors [name, shape, bytes of data] (each number 0.01 unless `bytes` is given).
function safetensors(tensors, metadata = { n_head: '1' }) {
  const header = {};
  let offset = 0;
  for (const [name, shape, bytes] of tensors) {
    const n = bytes ?? 4 * shape.reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + n] };
    offset += n;
  }
  header.__metadata__ = metadata;
  const text = new TextEncoder().encode(JSON.stringify(header));
  const data = tensors.every(([, , bytes]) => bytes === undefined) ? new Float32Array(offset / 4).fill(0.01) : new Float32Array(0);
  const file = new Uint8Array(8 + text.length + data.byteLength);
  new DataView(file.buffer).setBigUint64(0, BigInt(text.length), true);
  file.set(text, 8);
  file.set(new Uint8Array(data.buffer), 8 + text.length);
  return { file, size: 8 + text.length + offset };
}

test('traceJson is limited as a scenario trace is; the run itself keeps its own limits', async () => {
  // one head of one block on 4,097 tokens: 16,785,409 attention weights to print
  const { file } = safetensors([['wte.weight', [3, 1]], ['wpe.weight', [4097, 1]],
    ['h.0.attn.c_attn.weight', [3, 1]], ['h.0.attn.c_proj.weight', [1, 1]]]);
  const model = await openModel(new Blob([file]), { engine });
  const run = model.run(new Array(4097).fill(0));
  assert.equal(run.attention.shape.join(), '1,1,4097,4097');
  assert.throws(() => model.traceJson(), (e) => e instanceof ModelError && e.message ===
    'tokens: 4097 tokens would print 16785409 attention weights (layers · heads · T²), beyond the limit of 16777216 numbers in a trace');
  model.run([0, 1, 2]);
  assert.equal(JSON.parse(model.traceJson()).tokens.join(), '0,1,2');
  model.dispose();
});

test('a mask buffer declared at 64 GiB is refused from the header, naming it', () => {
  const { file, size } = safetensors([['wte.weight', [2, 1], 8], ['wpe.weight', [2, 1], 8],
    ['h.0.attn.bias', [1, 1, 131072, 131072], 131072 * 131072 * 4]]);
  const model = new engine.module.Model();
  const put = (bytes) => model.buffer(bytes.length).set(bytes);
  model.begin('file', '', '');
  put(file.subarray(0, 8));
  const { length } = JSON.parse(model.headerLength(size));
  put(file.subarray(8, 8 + length));
  assert.equal(JSON.parse(model.header(size)).error,
    "h.0.attn.bias: shape [1, 1, 131072, 131072], a mask buffer of at most [1, 1, 2, 2] (wpe.weight's 2 positions)");
  model.delete();
});
