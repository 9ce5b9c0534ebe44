// One opening for a model file and a Hugging Face folder (web/engine/
// model-open.js): the module has one sequence of calls, begin, header for
// each file, feed(file, bytes), and openModel and openFolder both make it,
// each touching the weights' memory (Model.prepare) while it waits on a
// read. The calls each had before (open, feed(count), openFolder,
// folderHeader, feedShard) are gone.
//   node --test tests/wasm/opening.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { openModel } from '../../web/engine/model.js';
import { openFolder } from '../../web/engine/model-folder.js';
import { engine, modelCalls, root } from './model-support.mjs';

const proto = engine.module.Model.prototype;

// A Response whose body comes in `pieces` pieces, each after a few milliseconds:
// a disk or a network the opening waits on.
function slowResponse(bytes, pieces = 4) {
  let at = 0;
  const step = Math.ceil(bytes.length / pieces);
  const body = new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + step));
      at += step;
    },
  });
  return new Response(body, { headers: { 'content-length': String(bytes.length) } });
}

const bytes = readFileSync(join(root, 'tests', 'models', 'hf-f32.safetensors'));
const configText = '{"model_type": "gpt2", "n_head": 3}';

test('the module opens a model one way: begin, header, feed(file, bytes); the file-only and folder-only calls are gone', () => {
  for (const name of ['begin', 'header', 'feed', 'prepare', 'buffer', 'headerLength']) assert.equal(typeof proto[name], 'function', name);
  for (const name of ['open', 'openFolder', 'folderHeader', 'feedShard']) assert.equal(proto[name], undefined, name);
});

test('openModel and openFolder make the same calls, each preparing the weights while a read is awaited', async () => {
  const { result: file, calls: fileCalls } = await modelCalls(() => openModel(slowResponse(bytes), { engine, config: configText, readBytes: 1024, chunkBytes: 1024 }));
  const folder = { configText, indexText: '', files: [{ name: 'model.safetensors', source: slowResponse(bytes) }] };
  const { result: shards, calls: folderCalls } = await modelCalls(() => openFolder(folder, { engine, readBytes: 1024, chunkBytes: 1024 }));
  for (const [what, calls] of [['openModel', fileCalls], ['openFolder', folderCalls]]) {
    assert.equal(calls.begin, 1, `${what}: one begin`);
    assert.equal(calls.header, 1, `${what}: one header for its one file`);
    assert.ok(calls.feed >= 1, `${what}: fed`);
    assert.ok(calls.prepare >= 1, `${what}: the weights touched while a read was awaited`);
  }
  assert.deepEqual(Object.keys(fileCalls).sort(), Object.keys(folderCalls).sort(), 'the same calls');
  assert.deepEqual(shards.config, file.config);
  file.dispose();
  shards.dispose();
});
