// engine/folder-source.js and engine/capped-text.js in Node, on Files and
// Responses made here: what a folder gives (the reading order of shards,
// files deeper than the folder and files the index does not list left out,
// tokenizer.json), and each refusal as one line naming the file: caps by a
// declared size and by the bytes of a body of unknown size, index entries
// that are not plain names of the same folder, a missing shard, a config that
// is not JSON (its text never echoed), two files of one name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { blobText, responseText } from '../../web/engine/capped-text.js';
import { filesPlace, limits, readFolder, shardNames } from '../../web/engine/folder-source.js';
import { tokenizerLimit } from '../../web/engine/hf-tokenizer-check.js';

const shared = join(fileURLToPath(new URL('../models-v2/', import.meta.url)));
const file = (name, content, path = undefined) => {
  const f = new File([content], name);
  if (path) Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
};
const on = (dir, name) => file(name, readFileSync(join(shared, dir, name)), `${dir}/${name}`);
const refusal = async (promise) => {
  try {
    await promise;
  } catch (error) {
    assert.equal(error.name, 'ModelError');
    assert.doesNotMatch(error.message, /\n/);
    return error.message;
  }
  assert.fail('not refused');
};

test('a sharded folder: config first, the shards in the order the index first lists them, files deeper or unlisted left out', async () => {
  const dir = 'llama-mha-sharded';
  const files = ['model-00002-of-00002.safetensors', 'config.json', 'model.safetensors.index.json', 'model-00001-of-00002.safetensors'].map((n) => on(dir, n));
  files.push(file('config.json', '{', `${dir}/sub/config.json`), file('notes.safetensors', 'x', `${dir}/notes.safetensors`));
  const folder = await readFolder(filesPlace(files));
  assert.equal(folder.name, dir);
  assert.equal(folder.modelType, 'llama');
  assert.equal(folder.config.num_hidden_layers, 3);
  assert.deepEqual(folder.files.map((f) => [f.name, f.size]), [['model-00001-of-00002.safetensors', 65664], ['model-00002-of-00002.safetensors', 73944]]);
  assert.ok(folder.files.every((f) => f.blob instanceof Blob));
  assert.equal(folder.tokenizerText, null);
  const single = await readFolder(filesPlace([on('bert-mlm', 'config.json'), on('bert-mlm', 'model.safetensors'), file('tokenizer.json', '{"model":{}}', 'bert-mlm/tokenizer.json')]));
  assert.deepEqual(single.files.map((f) => f.name), ['model.safetensors']);
  assert.equal(single.tokenizerText, '{"model":{}}');
  assert.equal(single.index, null);
});

test('index entries that are not a file of the same folder are refused naming the entry; each shard once', () => {
  for (const bad of ['../x.safetensors', '/etc/passwd', 'sub/x.safetensors', 'a\\b', 'C:x', 'https://example.org/x', '.', '..', '', 'a\u0000b', 'x'.repeat(256)]) {
    assert.throws(() => shardNames({ weight_map: { 'lm_head.weight': bad } }), (e) => e.message.startsWith('model.safetensors.index.json: weight_map["lm_head.weight"] is') && e.message.endsWith('not the name of a file in the same folder'), JSON.stringify(bad));
  }
  assert.throws(() => shardNames({ weight_map: { w: 3 } }), /weight_map\["w"\] is not a file name$/);
  assert.throws(() => shardNames({ weight_map: [] }), /weight_map is missing or not an object/);
  assert.throws(() => shardNames({}), /weight_map is missing/);
  assert.throws(() => shardNames({ weight_map: {} }), /lists no shard/);
  assert.deepEqual(shardNames({ weight_map: { a: 'b.safetensors', c: 'a.safetensors', d: 'b.safetensors', e: '%2e%2e' } }), ['b.safetensors', 'a.safetensors', '%2e%2e']);
});

test('refusals name the file: no config.json, past its cap, not JSON (never echoed), no family, missing shard, two of a name', async () => {
  const weights = file('model.safetensors', readFileSync(join(shared, 'llama-gqa', 'model.safetensors')));  // picked as files: no folder
  assert.equal(await refusal(readFolder(filesPlace([weights]))), 'config.json: none among the files; a model folder holds config.json beside model.safetensors');
  const big = file('config.json', new Uint8Array(limits.config + 1));
  assert.equal(await refusal(readFolder(filesPlace([big, weights]))), 'config.json: 1048577 bytes exceed the limit of 1048576 (1 MiB)');
  assert.equal(await refusal(readFolder(filesPlace([file('config.json', '{"a": <script>alert(1)</script>'), weights]))), 'config.json: not valid JSON');
  assert.equal(await refusal(readFolder(filesPlace([file('config.json', '[1]'), weights]))), 'config.json: not a JSON object');
  // a model_type the page has no list of: the core reads or refuses it (tests/wasm/folders.test.mjs), naming it escaped
  assert.equal((await readFolder(filesPlace([file('config.json', '{"model_type": "t5\u202e<b>"}'), weights]))).modelType, 't5\u202e<b>');
  assert.equal(await refusal(readFolder(filesPlace([file('config.json', '{}'), weights]))), 'config.model_type: missing; config.json names the model\'s family there');
  assert.equal(await refusal(readFolder(filesPlace([on('llama-gqa', 'config.json')]))),
    'model.safetensors: none in the folder "llama-gqa", nor model.safetensors.index.json with its shards');
  const dir = 'llama-mha-sharded';
  assert.equal(await refusal(readFolder(filesPlace(['config.json', 'model.safetensors.index.json', 'model-00001-of-00002.safetensors'].map((n) => on(dir, n))))),
    'model.safetensors.index.json: its shard "model-00002-of-00002.safetensors" is not in the folder "llama-mha-sharded"');
  assert.equal(await refusal(readFolder(filesPlace([on(dir, 'config.json'), file('model.safetensors.index.json', '{"weight_map": ')]))), 'model.safetensors.index.json: not valid JSON');
  assert.throws(() => filesPlace([file('config.json', '{}'), file('config.json', '{}')]), { name: 'ModelError', message: '"config.json": two files of that name; open one folder' });
});

test('capped text: a declared size past the cap is refused before the body is read; a body of unknown size (gzip) is cut at the cap', async () => {
  let pulled = 0;
  const endless = () => new ReadableStream({ pull(c) { pulled++; c.enqueue(new Uint8Array(1 << 16)); } });
  const declared = new Response(endless(), { headers: { 'Content-Length': String(limits.config + 1) } });
  assert.equal(await refusal(responseText(declared, 'config.json', limits.config)), 'config.json: 1048577 bytes exceed the limit of 1048576 (1 MiB)');
  const read = pulled;
  assert.ok(read <= 2, `${read} chunks pulled before the refusal (the stream's own read-ahead only)`);
  const gzipped = new Response(endless(), { headers: { 'Content-Length': '100', 'Content-Encoding': 'gzip' } });
  assert.equal(await refusal(responseText(gzipped, 'tokenizer.json', 1 << 20)), 'tokenizer.json: more than 1048576 bytes, the limit (1 MiB)');
  assert.ok(pulled - read <= 20, `${pulled - read} chunks of 64 KiB read for a 1 MiB cap`);
  assert.equal(await responseText(new Response('{"a": 1}'), 'config.json', 8), '{"a": 1}');
  assert.equal(await blobText(new Blob(['12345678']), 'config.json', 8), '12345678');
  assert.match(await refusal(blobText(new Blob(['123456789']), 'config.json', 8)), /^config\.json: 9 bytes exceed the limit of 8 /);
});

test('a folder\'s tokenizer.json has the page\'s one limit (32 MiB), refused from its size before it is read', async () => {
  assert.equal(limits.tokenizer, tokenizerLimit);
  const dir = 'llama-gqa';
  let read = false;
  const huge = file('tokenizer.json', '', `${dir}/tokenizer.json`);
  Object.defineProperty(huge, 'size', { value: tokenizerLimit + 1 });
  for (const way of ['text', 'arrayBuffer', 'stream', 'slice']) huge[way] = () => { read = true; throw new Error('read'); };
  const files = ['config.json', 'model.safetensors'].map((n) => on(dir, n)).concat(huge);
  assert.equal(await refusal(readFolder(filesPlace(files))), 'tokenizer.json: 33554433 bytes exceed the limit of 33554432 (32 MiB)');
  assert.equal(read, false);
});

test('a folder\'s index has the core\'s limit (4 MiB), refused from its size before it is read', async () => {
  assert.equal(limits.index, 4 << 20);  // index_limit in core/models/folder_read.cpp
  const dir = 'llama-mha-sharded';
  let read = false;
  const huge = file('model.safetensors.index.json', '', `${dir}/model.safetensors.index.json`);
  Object.defineProperty(huge, 'size', { value: (4 << 20) + 1 });
  for (const way of ['text', 'arrayBuffer', 'stream', 'slice']) huge[way] = () => { read = true; throw new Error('read'); };
  const files = [on(dir, 'config.json'), huge];
  assert.equal(await refusal(readFolder(filesPlace(files))), 'model.safetensors.index.json: 4194305 bytes exceed the limit of 4194304 (4 MiB)');
  assert.equal(read, false);
});
