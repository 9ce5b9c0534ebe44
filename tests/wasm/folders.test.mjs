// The models' wasm module on Hugging Face folders (models-v2.md), through
// web/engine/model-folder.js as the Model view's worker uses it: the five
// folders of tests/models-v2 (Llama with grouped heads, a Llama in two
// shards, Qwen2 with biases in BF16, BERT with its masked-LM head, a BERT
// encoder in F16) streamed in equal their golden traces within the spec's
// tolerances, in one chunk and in odd ones; what differs per family is on
// the model's info; Generate, a rotary head's scenario, BERT's guesses at
// its masked position; a bad folder gets one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadModelEngine, ModelError, openModel } from '../../web/engine/model.js';
import { openFolder } from '../../web/engine/model-folder.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const engine = await loadModelEngine({
  moduleUrl: new URL(`file://${join(wasmDir, 'attention-model.js')}`),
  wasmBinary: readFileSync(join(wasmDir, 'attention-model.wasm')),
});
const cli = join(root, 'build', 'native', 'attention-cli');
const folders = ['llama-gqa', 'llama-mha-sharded', 'qwen2-bias-bf16', 'bert-mlm', 'bert-base-model-f16'];
const folderPath = (name) => join(root, 'tests', name.startsWith('distilbert-') ? 'models-v3' : 'models-v2', name);
const golden = (name) => JSON.parse(readFileSync(join(root, 'tests', 'golden-models-v2', `${name}.trace.json`), 'utf8'));

// A folder on disk as the page hands it over: config.json's and the index's text, each file a Blob.
function folderOf(name, change = {}) {
  const dir = folderPath(name);
  const text = (file) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '');
  const files = readdirSync(dir).filter((f) => f.endsWith('.safetensors')).map((f) => ({ name: f, source: new Blob([readFileSync(join(dir, f))]) }));
  return { configText: text('config.json'), indexText: text('model.safetensors.index.json'), files, ...change };
}
const open = (folder, options = {}) => openFolder(folder, { engine, ...options });

function largest(a, b) {
  assert.equal(a.length, b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

for (const name of folders) {
  test(`${name}: streamed in, its model trace is PyTorch's`, async () => {
    const want = golden(name);
    let progress = null;
    const model = await open(folderOf(name), { name, onProgress: (p) => { progress = p; } });
    assert.deepEqual(model.config, want.config);
    assert.equal(progress.received, progress.total);
    const run = model.run(want.tokens);
    assert.deepEqual(run.attention.shape, want.attention.shape);
    assert.ok(largest(run.attention.data, want.attention.data) <= 1e-4, 'attention within 1e-4');
    // the trace as the CLI writes it, `last` at the golden's position
    const trace = JSON.parse(model.traceJson(want.last?.position ?? want.tokens.length - 1));
    assert.deepEqual(trace.config, want.config);
    assert.ok(largest(trace.attention.data, want.attention.data) <= 1e-4);
    if (want.last) {
      assert.equal(trace.last.position, want.last.position);
      const logits = want.last.logits.data;
      assert.ok(trace.last.logits.data.every((x, i) => Math.abs(x - logits[i]) <= 1e-4 + 1e-4 * Math.abs(logits[i])), 'logits');
      assert.deepEqual(trace.last.top.map(([id]) => id), want.last.top.map(([id]) => id));
      const guesses = model.guessesAt(want.last.position);
      assert.deepEqual(guesses.top.map(([id]) => id), want.last.top.map(([id]) => id));
      assert.ok([...guesses.logits].every((x, i) => Math.abs(x - logits[i]) <= 1e-4 + 1e-4 * Math.abs(logits[i])));
    } else {
      assert.equal(trace.last, undefined);
      assert.equal(run.last, null);
      assert.throws(() => model.guessesAt(0), { name: 'ModelError', message: 'model: this BERT has no masked-LM head to predict with' });
    }
    if (want.loss !== undefined) {
      assert.ok(Math.abs(run.loss - want.loss) <= 1e-5 * Math.max(1, Math.abs(want.loss)), `loss ${run.loss} against ${want.loss}`);
      assert.ok(Math.abs(trace.loss - want.loss) <= 1e-5 * Math.max(1, Math.abs(want.loss)));
    } else {
      assert.equal(run.loss, null);
    }
    // the same folder in 1,000-byte chunks: the same numbers, bit for bit
    const chunked = await open(folderOf(name), { chunkBytes: 1000 });
    chunked.run(want.tokens);
    const text = model.traceJson();
    assert.equal(chunked.traceJson(), text);
    chunked.dispose();
    if (existsSync(cli)) {
      const native = execFileSync(cli, ['model', folderPath(name), '--tokens', want.tokens.join(',')], { encoding: 'utf8' });
      assert.equal(text, native);
    }
    model.dispose();
  });
}

test('what differs per family is on the info: family, kv heads, head size, causal, masked-LM head', async () => {
  const llama = await open(folderOf('llama-gqa'));
  assert.deepEqual(
    ['family', 'architecture', 'kvHeads', 'headDim', 'causal', 'maskedLm', 'logits'].map((k) => llama.info[k]),
    ['llama', 'llama', 2, 8, true, false, true]);
  assert.equal(llama.info.rotary.theta, JSON.parse(folderOf('llama-gqa').configText).rope_theta ?? 10000);
  assert.equal(llama.info.tokenizer, 'ids');
  assert.ok(llama.parameters > 0);
  llama.dispose();
  const qwen = await open(folderOf('qwen2-bias-bf16'));
  assert.deepEqual([qwen.info.family, qwen.info.architecture, qwen.info.kvHeads], ['llama', 'qwen2', 2]);
  qwen.dispose();
  const bert = await open(folderOf('bert-mlm'));
  assert.deepEqual([bert.info.family, bert.info.causal, bert.info.maskedLm, bert.info.logits, bert.info.rotary], ['bert', false, true, true, null]);
  bert.dispose();
  const encoder = await open(folderOf('bert-base-model-f16'));
  assert.deepEqual([encoder.info.maskedLm, encoder.info.logits], [false, false]);
  encoder.dispose();
});

test("each family's facts come from the core: its name, [MASK] and a starter for a masked LM, GPT-2's for a model file", async () => {
  const facts = (info) => ['family', 'architecture', 'familyName', 'maskToken', 'starter'].map((k) => info[k]);
  const distil = await open(folderOf('distilbert-mlm'));
  assert.deepEqual(facts(distil.info), ['distilbert', 'distilbert', 'DistilBERT', '[MASK]', 'the cat sat on the [MASK].']);
  assert.deepEqual([distil.info.causal, distil.info.maskedLm], [false, true]);
  // the refusals name the model by its facts, not as a BERT
  assert.throws(() => distil.generate([2, 3], 1), { name: 'ModelError', message: 'generate: a DistilBERT encoder sees both ways; it does not write the next token' });
  distil.dispose();
  const headless = await open(folderOf('distilbert-model-f16'));
  headless.run([1, 2, 3]);
  assert.throws(() => headless.guessesAt(0), { name: 'ModelError', message: 'model: this DistilBERT has no masked-LM head to predict with' });
  headless.dispose();
  const bert = await open(folderOf('bert-mlm'));
  assert.deepEqual(facts(bert.info), ['bert', 'bert', 'BERT', '[MASK]', 'the cat sat on the [MASK].']);
  bert.dispose();
  const qwen = await open(folderOf('qwen2-bias-bf16'));
  assert.deepEqual(facts(qwen.info), ['llama', 'qwen2', 'Qwen2', '', '']);
  qwen.dispose();
  const gpt = await openModel(new Blob([readFileSync(join(root, 'tests', 'models', 'text-gpt.safetensors'))]), { engine });
  assert.deepEqual(facts(gpt.info), ['gpt2', 'gpt2', 'GPT-2', '', '']);
  gpt.dispose();
});

test('a Llama folder generates, tempers and gives a rotary head as a scenario; BERT does not generate', async () => {
  const want = golden('llama-gqa');
  const model = await open(folderOf('llama-gqa'), { name: 'llama-gqa' });
  const run = model.run(want.tokens, { temperature: 0.5, warpers: { topK: 5 } });
  assert.equal(run.tempered.topK, 5);
  const ids = model.generate(want.tokens, 4, { temperature: 1, seed: 7 });
  assert.equal(ids.length, 4);
  assert.ok(ids.every((id) => Number.isInteger(id) && id >= 0 && id < want.config.vocab));
  assert.deepEqual(model.generate(want.tokens, 4, { temperature: 1, seed: 7 }), ids, 'the same seed, the same tokens');
  assert.throws(() => model.generate(want.tokens, 4, { temperature: 0 }), { name: 'ModelError', message: /^temperature: / });
  model.run(want.tokens);
  const head = model.headScenario(1, 3);
  assert.equal(head.id, 'llama-gqa-layer-1-head-3');
  assert.ok(head.attention.rotary, 'a Llama head rotates');
  assert.throws(() => model.encode('text'), { name: 'ModelError', message: /tokenizer\.json/ });
  if (existsSync(cli)) {
    const native = execFileSync(cli, ['head', folderPath('llama-gqa'), '--tokens', want.tokens.join(','), '--layer', '1', '--head', '3'], { encoding: 'utf8' });
    assert.deepEqual(head, JSON.parse(native));
  }
  model.dispose();
  const bert = await open(folderOf('bert-mlm'), { name: 'bert-mlm' });
  bert.run(golden('bert-mlm').tokens);
  assert.throws(() => bert.generate([2, 3], 1), { name: 'ModelError', message: /does not write the next token/ });
  const scenario = bert.headScenario(0, 1);
  assert.equal(scenario.attention.rotary, undefined);
  assert.ok(!scenario.attention.mask || scenario.attention.mask === 'none', `BERT's head sees both ways (${scenario.attention.mask})`);
  bert.dispose();
});

test('a bad folder is one line naming the place, and the module is usable after', async () => {
  const line = async (folder) => {
    const error = await open(folder).then(() => null, (e) => e);
    assert.ok(error instanceof ModelError, `expected a ModelError, got ${error}`);
    assert.match(error.message, /^[^\n]{1,300}$/);
    return error.message;
  };
  const config = JSON.parse(folderOf('llama-gqa').configText);
  const heap = engine.heapInUse();
  assert.match(await line(folderOf('llama-gqa', { configText: JSON.stringify({ ...config, hidden_act: 'relu' }) })), /hidden_act/);
  assert.match(await line(folderOf('llama-gqa', { configText: JSON.stringify({ ...config, model_type: 'gpt9' }) })), /model_type/);
  // a family the core does not read, refused from config.json (the page passes any model_type on), its name escaped
  assert.equal(await line(folderOf('llama-gqa', { configText: '{"model_type": "t5\u202e<b>"}' })),
    'config.model_type: "t5\\u202E<b>" is not one the core reads (llama, mistral, qwen2, bert, distilbert, gpt2)');
  assert.match(await line(folderOf('llama-gqa', { configText: JSON.stringify({ ...config, num_key_value_heads: 3 }) })), /num_key_value_heads/);
  assert.match(await line(folderOf('llama-gqa', { configText: '{"model_type": ' })), /^config: not valid JSON at line 1/);
  // a shard the index lists that is not there; a shard cut short; another file's header
  const sharded = folderOf('llama-mha-sharded');
  assert.match(await line({ ...sharded, files: sharded.files.slice(0, 1) }), /model-00002-of-00002\.safetensors/);
  const bytes = readFileSync(join(folderPath('llama-gqa'), 'model.safetensors'));
  assert.match(await line(folderOf('llama-gqa', { files: [{ name: 'model.safetensors', source: new Blob([bytes.subarray(0, bytes.length - 10)]) }] })), /model\.safetensors/);
  const other = readFileSync(join(folderPath('qwen2-bias-bf16'), 'model.safetensors'));
  assert.match(await line(folderOf('llama-gqa', { files: [{ name: 'model.safetensors', source: new Blob([other]) }] })), /model\./);
  assert.equal(engine.heapInUse(), heap, 'a refused folder leaves nothing held');
  const want = golden('llama-gqa');
  const model = await open(folderOf('llama-gqa'));
  assert.throws(() => model.run([...want.tokens, 64]), { name: 'ModelError', message: /^tokens\[12\]: 64 is outside \[0, 64\)/ });
  const run = model.run(want.tokens);
  assert.ok(largest(run.attention.data, want.attention.data) <= 1e-4, 'the module still runs');
  model.dispose();
  assert.equal(engine.heapInUse(), heap, 'a folder opened, run and disposed leaves nothing held');
});

test('a skipped buffer that declares 8 GiB is refused from its header, before its bytes are read', async () => {
  // the audit's shard: llama-gqa's with each layer's rotary_emb.inv_freq declared [2^31 - 1] F32 after its
  // data, served as a body of unknown size that would give zeros for ever; the page read it all before
  const bytes = readFileSync(join(folderPath('llama-gqa'), 'model.safetensors'));
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const data = bytes.length - 8 - n;
  const declared = (2 ** 31 - 1) * 4;
  header['model.layers.0.self_attn.rotary_emb.inv_freq'] = { dtype: 'F32', shape: [2 ** 31 - 1], data_offsets: [data, data + declared] };
  const text = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  const start = Buffer.concat([length, text, bytes.subarray(8 + n)]);
  let given = 0;
  const body = new ReadableStream({
    pull(controller) {
      const chunk = given === 0 ? start : new Uint8Array(1 << 20);
      given += chunk.length;
      controller.enqueue(new Uint8Array(chunk));
    },
  });
  const folder = folderOf('llama-gqa', { files: [{ name: 'model.safetensors', source: new Response(body) }] });
  const error = await open(folder).then(() => null, (e) => e);
  assert.ok(error instanceof ModelError, `expected a ModelError, got ${error}`);
  assert.equal(error.message, 'model.layers.0.self_attn.rotary_emb.inv_freq: 2147483647 numbers, beyond the 8 this skipped buffer may hold (config\'s head_dim 8)');
  assert.ok(given < 64 << 20, `${given} bytes read before the refusal`);
});

test('every number crossing into the folder calls is checked: −1, 2³², NaN and a shard out of range are named', () => {
  const model = new engine.module.Model();
  const error = (text) => JSON.parse(text).error;
  assert.equal(error(model.feed(0, 0)), 'model: no file is being opened');
  assert.equal(error(model.header(10)), 'model: no folder is being opened');
  const folder = folderOf('llama-gqa');
  assert.deepEqual(JSON.parse(model.begin('folder', folder.configText, '')), { files: ['model.safetensors'] });
  const bytes = readFileSync(join(folderPath('llama-gqa'), 'model.safetensors'));
  model.buffer(8).set(bytes.subarray(0, 8));
  const { length } = JSON.parse(model.headerLength(bytes.length));
  model.buffer(length).set(bytes.subarray(8, 8 + length));
  assert.deepEqual(JSON.parse(model.header(bytes.length)), { planned: true, dataBytes: [bytes.length - 8 - length] });
  model.buffer(4);
  assert.equal(error(model.feed(1, 0)), 'shard: 1 is outside [0, 1)');
  // an error drops the opening: each bad number is checked on a fresh one
  const again = () => {
    model.begin('folder', folder.configText, '');
    model.buffer(8).set(bytes.subarray(0, 8));
    model.headerLength(bytes.length);
    model.buffer(length).set(bytes.subarray(8, 8 + length));
    model.header(bytes.length);
    model.buffer(4);
  };
  for (const [shard, n, line] of [[-1, 0, 'shard: -1 is not a whole number from 0 to 4294967295'], [4294967296, 0, 'shard: 4294967296 is not a whole number from 0 to 4294967295'],
    [0, NaN, 'bytes: NaN is not a whole number from 0 to 4294967295'], [0, 5, 'model: 5 bytes fed from a buffer of 4']]) {
    again();
    assert.equal(error(model.feed(shard, n)), line);
    assert.equal(model.ready(), false);
  }
  again();
  assert.equal(error(model.header(bytes.length)), 'folder: more headers than the folder\'s 1 shard(s)');
  assert.equal(error(model.traceAt(0)), 'model: nothing run');
  assert.equal(model.guessesAt(-1).error, 'position: -1 is not a whole number from 0 to 4294967295');
  model.delete();
});

test('a Mistral folder: its sliding window refuses a run or a Generate that reads more tokens than it, in one line', async () => {
  const config = JSON.parse(folderOf('llama-gqa').configText);
  const mistral = await open(folderOf('llama-gqa', { configText: JSON.stringify({ ...config, model_type: 'mistral', sliding_window: 8 }) }));
  assert.equal(mistral.info.architecture, 'mistral');
  assert.equal(mistral.info.family, 'llama');
  const tokens = [1, 7, 3, 9, 2, 11];
  mistral.run(tokens);
  assert.equal(mistral.generate(tokens, 2, { seed: 3 }).length, 2, 'eight tokens: within the window');
  assert.throws(() => mistral.generate(tokens, 3), { name: 'ModelError', message: /^count: 9 tokens, but config\.sliding_window is 8/ });
  assert.throws(() => mistral.run([...tokens, ...tokens]), { name: 'ModelError', message: /^tokens: 12 tokens, but config\.sliding_window is 8/ });
  mistral.dispose();
  // a window as long as max_position_embeddings: Generate reads the last 32 tokens at most, so it never passes it
  const whole = await open(folderOf('llama-gqa', { configText: JSON.stringify({ ...config, model_type: 'mistral', sliding_window: config.max_position_embeddings }) }));
  assert.equal(whole.generate(tokens, 30, { seed: 3 }).length, 30);
  whole.dispose();
});

test('a run belongs to its model: a feed with no load under way keeps both, opening another drops the run, a failed feed takes the run with the model', () => {
  const model = new engine.module.Model();
  const error = (text) => JSON.parse(text).error;
  const folder = folderOf('llama-gqa');
  const bytes = readFileSync(join(folderPath('llama-gqa'), 'model.safetensors'));
  const header = () => {
    model.buffer(8).set(bytes.subarray(0, 8));
    const { length } = JSON.parse(model.headerLength(bytes.length));
    model.buffer(length).set(bytes.subarray(8, 8 + length));
    model.header(bytes.length);
    return 8 + length;
  };
  model.begin('folder', folder.configText, '');
  const start = header();
  const data = bytes.subarray(start);
  model.buffer(data.length).set(data);
  assert.equal(JSON.parse(model.feed(0, data.length)).done, true);
  assert.equal(JSON.parse(model.run('[1,2,3]', 10, 1, 0, 1)).length, 3);
  // a file's feed while a folder is open: refused, the model and its run kept
  assert.equal(error(model.feed(0, 0)), 'model: no file is being opened');
  assert.equal(model.ready(), true);
  assert.equal(JSON.parse(model.traceAt(2)).tokens.length, 3);
  // another opening drops the run with the model it ran on
  model.begin('folder', folder.configText, '');
  assert.equal(model.ready(), false);
  assert.equal(error(model.traceAt(0)), 'model: nothing run');
  // a load that fails takes everything: nothing open, nothing run, no trap
  header();
  model.buffer(4);
  assert.equal(error(model.feed(0, 5)), 'model: 5 bytes fed from a buffer of 4');
  assert.equal(error(model.run('[1]', 10, 1, 0, 1)), 'model: nothing open');
  assert.equal(error(model.traceAt(0)), 'model: nothing run');
  model.delete();
});

test('a gpt2 folder through the folder calls is the model file with its config.json: the same config and attention', async () => {
  const bytes = readFileSync(join(root, 'tests', 'models', 'hf-f32.safetensors'));
  const configText = '{"model_type": "gpt2", "n_head": 3}';
  const file = await openModel(new Blob([bytes]), { engine, config: configText });
  const folder = await open({ configText, indexText: '', files: [{ name: 'model.safetensors', source: new Blob([bytes]) }] }, { name: 'gpt2' });
  assert.deepEqual(folder.config, file.config);
  const a = folder.run([5, 1, 3]), b = file.run([5, 1, 3]);
  assert.deepEqual(a.attention.shape, b.attention.shape);
  assert.deepEqual(Array.from(a.attention.data), Array.from(b.attention.data));
  assert.equal(folder.traceJson(), file.traceJson());
});
