// The Model view opens a Hugging Face folder (models-v2.md section 1), under
// the strict CSP: picked with the folder picker, picked as several files,
// dropped (a folder entry, or files), or linked as a same-origin URL ending
// in "/". Every folder opens in the core: a Llama-family or BERT one
// (model-llama.test.mjs checks its numbers), and a GPT-2 one, whole or in
// shards, as the model file it holds with its config.json. A refused folder
// is one line under the controls naming the file, and the model shown
// stays: no config.json, one past 1 MiB, one that is not JSON, an index
// naming a missing shard or a path, a GPT-2 index whose shards both hold a
// tensor, a URL elsewhere (refused before any request), a FIFO among its
// files (refused by its size, unread).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, copyFileSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { folderRoute, modelsV2, openPage, root, shot, useBrowser, violations } from './browser.mjs';

const made = mkdtempSync(join(tmpdir(), 'model-folders-'));
// config.json served gzip-encoded (Content-Length the compressed size): a Llama's, and 2 MiB of spaces
const gzipped = {
  '/gzip/ok/config.json': gzipSync(readFileSync(join(modelsV2, 'llama-gqa', 'config.json'))),
  '/gzip/big/config.json': gzipSync(Buffer.alloc(2 << 20, ' ')),
};
const files = folderRoute({ '/models-v2/': modelsV2, '/made/': made, '/gzip/ok/': join(modelsV2, 'llama-gqa') });
function route(request, response) {
  // a folder whose config.json redirects to another origin (the strict CSP stops the hop: model-sources.test.mjs counts that none is made)
  if (request.url === '/away/config.json') return !!response.writeHead(302, { Location: 'http://127.0.0.1:9/config.json' }).end();
  const body = gzipped[new URL(request.url, 'http://localhost').pathname];
  if (!body) return files(request, response);
  response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': body.length, 'Cache-Control': 'no-cache' }).end(body);
  return true;
}
const env = useBrowser({ csp: true, route });

const hf = join(root, 'tests', 'models', 'hf-f32.safetensors');
const llama = join(modelsV2, 'llama-gqa');
const sharded = join(modelsV2, 'llama-mha-sharded');
const shards = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
const hostile = '<img src=x onerror=alert(1)>\u202e';

// Folders made for the tests: a GPT-2 one, a Llama with a tokenizer.json, and the refused ones.
function folder(name, files) {
  const dir = join(made, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    if (typeof content === 'string' && content.startsWith('copy:')) copyFileSync(content.slice(5), join(dir, file));
    else writeFileSync(join(dir, file), content);
  }
  return dir;
}

// A model file split as Hugging Face writes shards: consecutive tensors,
// each shard with its own header (and the file's metadata), and the index.
function shardsOf(path, count) {
  const bytes = readFileSync(path);
  const n = Number(bytes.readBigUInt64LE(0));
  const { __metadata__: metadata, ...header } = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const names = Object.keys(header);
  const per = Math.ceil(names.length / count);
  const out = {};
  const map = {};
  for (let s = 0; s < count; s++) {
    const file = `model-0000${s + 1}-of-0000${count}.safetensors`;
    const part = metadata ? { __metadata__: metadata } : {};
    const data = [];
    let offset = 0;
    for (const name of names.slice(s * per, (s + 1) * per)) {
      const { dtype, shape, data_offsets: [begin, end] } = header[name];
      part[name] = { dtype, shape, data_offsets: [offset, offset + end - begin] };
      data.push(bytes.subarray(8 + n + begin, 8 + n + end));
      offset += end - begin;
      map[name] = file;
    }
    const text = Buffer.from(JSON.stringify(part));
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(text.length));
    out[file] = Buffer.concat([length, text, ...data]);
  }
  out['model.safetensors.index.json'] = JSON.stringify({ metadata: {}, weight_map: map });
  return out;
}
const tokenizer = JSON.stringify({ version: '1.0', model: { type: 'BPE', vocab: { a: 0 }, merges: [] } });
const llamaConfig = readFileSync(join(llama, 'config.json'), 'utf8');
const index = (map) => JSON.stringify({ metadata: {}, weight_map: map });
before(() => {
  folder('gpt2', { 'config.json': JSON.stringify({ model_type: 'gpt2', n_head: 6, layer_norm_epsilon: 1e-5 }), 'model.safetensors': `copy:${hf}` });
  folder('gpt2-shards', { 'config.json': JSON.stringify({ model_type: 'gpt2', n_head: 6 }), ...shardsOf(hf, 2) });
  folder('gpt2-twice', {
    'config.json': JSON.stringify({ model_type: 'gpt2', n_head: 6 }),
    'model.safetensors.index.json': index({ 'wte.weight': 'model-00001-of-00002.safetensors', 'wpe.weight': 'model-00002-of-00002.safetensors' }),
    'model-00001-of-00002.safetensors': `copy:${hf}`, 'model-00002-of-00002.safetensors': `copy:${hf}`,
  });
  folder('tokenized', { 'config.json': llamaConfig, 'model.safetensors': `copy:${join(llama, 'model.safetensors')}`, 'tokenizer.json': tokenizer });
  const deeper = folder('tokenized/deeper', { 'config.json': '{' });  // a folder inside the folder: not the folder's
  void deeper;
  folder('noconfig', { 'model.safetensors': `copy:${join(llama, 'model.safetensors')}` });
  folder('notjson', { 'config.json': `{"model_type": "llama", ${hostile}`, 'model.safetensors': `copy:${join(llama, 'model.safetensors')}` });
  const big = folder('big', { 'model.safetensors': `copy:${join(llama, 'model.safetensors')}` });
  const out = openSync(join(big, 'config.json'), 'w');
  ftruncateSync(out, (1 << 20) + 1);
  closeSync(out);
  // a FIFO among a folder's files (Chromium lists it as a File of 0 bytes that reads as empty)
  execFileSync('mkfifo', [join(folder('fifo-config', { 'model.safetensors': `copy:${join(llama, 'model.safetensors')}` }), 'config.json')]);
  execFileSync('mkfifo', [join(folder('fifo-weights', { 'config.json': llamaConfig }), 'model.safetensors')]);
  const map = JSON.parse(readFileSync(join(sharded, 'model.safetensors.index.json'), 'utf8')).weight_map;
  folder('missing-shard', { 'config.json': readFileSync(join(sharded, 'config.json')), 'model.safetensors.index.json': index(map), [shards[0]]: `copy:${join(sharded, shards[0])}` });
  folder('path-entry', {
    'config.json': readFileSync(join(sharded, 'config.json')),
    'model.safetensors.index.json': index({ ...map, 'model.norm.weight': '../secret.safetensors' }),
    [shards[0]]: `copy:${join(sharded, shards[0])}`, [shards[1]]: `copy:${join(sharded, shards[1])}`,
  });
  folder('url-entry', { 'config.json': readFileSync(join(sharded, 'config.json')), 'model.safetensors.index.json': index({ 'lm_head.weight': 'https://example.org/x.safetensors' }) });
});

async function modelPage(hash = '#model=text-gpt&text=To%20be', options) {
  const page = await openPage(env.browser, `${env.url}${hash}`, options);
  page.asked = [];
  page.on('request', (r) => page.asked.push(r.url()));
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  return page;
}

// Does `action`, then waits for its outcome: a line, or a model opened.
async function outcome(page, action) {
  await page.evaluate(() => {
    document.querySelector('.model-status').hidden = true;
    document.querySelector('.model-view').dataset.state = 'before';
  });
  await action();
  await page.waitForFunction(() => {
    const view = document.querySelector('.model-view');
    return !document.querySelector('.model-status').hidden  // a link refused before any opening leaves the state as it was
      || (['ready', 'error'].includes(view.dataset.state) && (view.dataset.tokens
        || !document.querySelector('.model-text-error').hidden));  // opened, and its text refused (typed ids, a tokenizer's gap)
  }, null, { timeout: 60000 });
}

const status = (page) => page.textContent('.model-status');
const thumbs = (page) => page.$$eval('.model-thumb', (b) => b.length);
const pickFolder = (page, dir) => page.setInputFiles('.model-source input[webkitdirectory]', dir);
const pickFiles = (page, files) => page.setInputFiles('.model-source input[multiple]', files);

// A drop on the source box as a browser makes it: items whose webkitGetAsEntry
// gives a folder entry (its files read one level deep) or file entries.
async function drop(page, { folder: name = null, files }) {
  const contents = Object.fromEntries(Object.entries(files).map(([file, path]) => [file, [...readFileSync(path)]]));
  await page.evaluate(({ name, contents }) => {
    const fileEntry = (file, bytes) => ({ isFile: true, isDirectory: false, name: file, file: (ok) => ok(new File([new Uint8Array(bytes)], file)) });
    const entries = Object.entries(contents).map(([file, bytes]) => fileEntry(file, bytes));
    const nested = { isFile: false, isDirectory: true, name: 'nested', createReader: () => ({ readEntries: (ok) => ok([]) }) };
    const top = name === null ? entries : [{
      isFile: false, isDirectory: true, name,
      createReader() {
        const batches = [entries.slice(0, 1), [...entries.slice(1), nested], []];  // readEntries answers in batches
        return { readEntries: (ok) => ok(batches.shift()) };
      },
    }];
    const event = new Event('drop', { bubbles: true, cancelable: true });
    // as a browser's, the DataTransfer is empty once the drop's handlers have run
    let live = true;
    const items = top.map((entry) => ({ kind: 'file', webkitGetAsEntry: () => (live ? entry : null) }));
    Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], get files() { return []; }, get items() { return live ? items : []; } } });
    document.querySelector('.model-source').dispatchEvent(event);
    live = false;
  }, { name, contents });
}

async function keptTextGpt(page, what) {
  assert.equal(await page.textContent('.model-name'), 'Model: text-gpt', what);
  assert.equal(await thumbs(page), 8, what);
}

test('a folder picked, several files picked, a folder dropped, files dropped, a folder\'s URL: each opens, and a GPT-2 folder opens', async () => {
  const page = await modelPage('#model=text-gpt&text=1%2C7%2C3');
  const opened = async (name, tokens, heads) => {
    await page.waitForFunction((n) => document.querySelector('.model-name').textContent === n, `Model: ${name}`, { timeout: 60000 });
    assert.equal(await page.isHidden('.model-status'), true, await status(page));
    if (tokens) await page.waitForFunction((t) => document.querySelector('.model-view').dataset.tokens === t, tokens, { timeout: 60000 });
    if (heads) assert.equal(await thumbs(page), heads, name);
  };
  // the folder picker: a Llama with grouped-query attention, no tokenizer.json: ids typed
  await outcome(page, () => pickFolder(page, llama));
  await opened('"llama-gqa/"', '1,7,3', 2 * 4);
  assert.match(await page.textContent('.model-facts'), /^Llama: 2 layers × 4 query heads sharing 2 key\/value heads of 8, embedding 32, a vocabulary of 64 tokens, reads up to 32 tokens/);
  // several files picked at once with the file picker: the sharded Llama's
  await outcome(page, () => pickFiles(page, ['config.json', 'model.safetensors.index.json', ...shards].reverse().map((f) => join(sharded, f))));
  await opened('the files chosen', '1,7,3', 3 * 4);
  assert.match(await page.textContent('.model-facts'), /^Llama: 3 layers × 4 heads of 8,/);
  // a dropped folder (read one level deep: its folder inside is not read), with a tokenizer.json that has no id for the text
  await outcome(page, () => drop(page, { folder: 'qwen', files: {
    'config.json': join(modelsV2, 'qwen2-bias-bf16', 'config.json'), 'model.safetensors': join(modelsV2, 'qwen2-bias-bf16', 'model.safetensors'),
    'tokenizer.json': join(made, 'tokenized', 'tokenizer.json'),
  } }));
  await opened('"qwen/"');
  assert.match(await page.textContent('.model-facts'), /^Qwen2: 2 layers × 6 query heads sharing 2 key\/value heads of 8, embedding 48, a vocabulary of 80 tokens \(its tokenizer\.json\)/);
  assert.equal(await page.textContent('.model-text-error'), 'text: the folder\'s tokenizer.json has no token for any of it');
  // files dropped together: a BERT
  await outcome(page, () => drop(page, { files: { 'config.json': join(modelsV2, 'bert-mlm', 'config.json'), 'model.safetensors': join(modelsV2, 'bert-mlm', 'model.safetensors') } }));
  await opened('the files chosen', '1,7,3', 2 * 4);
  // a folder's URL: the shards asked for their size, then read by the worker
  await outcome(page, () => page.evaluate(() => { window.location.hash = '#model=models-v2/llama-mha-sharded/&text=1%2C7%2C3'; }));
  await opened('"models-v2/llama-mha-sharded/"', '1,7,3', 3 * 4);
  const path = (u) => new URL(u).pathname;
  const asked = page.asked.filter((u) => u.includes('/models-v2/')).map(path);
  assert.deepEqual(asked.slice(0, 6), [
    '/models-v2/llama-mha-sharded/config.json', '/models-v2/llama-mha-sharded/model.safetensors',
    '/models-v2/llama-mha-sharded/model.safetensors.index.json', `/models-v2/llama-mha-sharded/${shards[0]}`,
    `/models-v2/llama-mha-sharded/${shards[1]}`, '/models-v2/llama-mha-sharded/tokenizer.json',
  ]);
  assert.deepEqual(asked.slice(6), [`/models-v2/llama-mha-sharded/${shards[0]}`, `/models-v2/llama-mha-sharded/${shards[1]}`], 'each shard read once, in order');
  // a config.json served gzip-encoded is read as its decoded text
  await outcome(page, () => page.evaluate(() => { window.location.hash = '#model=gzip/ok/&text=1%2C7%2C3'; }));
  await opened('"gzip/ok/"', '1,7,3', 2 * 4);
  // a GPT-2 folder by URL opens in the core as its model file, n_head 6 from its config.json (3 in the file)
  await outcome(page, () => page.evaluate(() => { window.location.hash = '#model=made/gpt2/&text=3,1,4'; }));
  await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "made/gpt2/"');
  await page.fill('.model-text-field textarea', '3, 1, 4, 1, 5');
  await page.waitForFunction(() => document.querySelector('.model-view').dataset.tokens === '3,1,4,1,5');
  assert.equal(await thumbs(page), 2 * 6);
  const whole = await page.textContent('.model-facts');
  assert.match(whole, /^2 layers × 6 heads, embedding 24, a vocabulary of 31 tokens, /);
  // the same file in two shards with an index: the same model, its facts and its attention
  const attention = () => page.$$eval('.model-thumb canvas', (c) => c.map((x) => x.toDataURL()));
  const before = await attention();
  await outcome(page, () => pickFolder(page, join(made, 'gpt2-shards')));
  await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "gpt2-shards/"');
  await page.waitForFunction(() => document.querySelector('.model-view').dataset.tokens === '3,1,4,1,5');
  assert.equal(await page.isHidden('.model-status'), true, await status(page));
  assert.equal(await page.textContent('.model-facts'), whole);
  assert.deepEqual(await attention(), before);
  await shot(page, 'model-folder-gpt2-shards');
  await outcome(page, () => pickFolder(page, join(made, 'gpt2')));
  await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "gpt2/"');
  assert.equal(await thumbs(page), 2 * 6);
  // files dropped that are no folder's: one model file with its config.json, as the file picker opens them
  await outcome(page, () => drop(page, { files: { 'text-gpt.safetensors': join(root, 'web', 'models', 'text-gpt.safetensors') } }));
  await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "text-gpt.safetensors"');
  assert.equal(await thumbs(page), 8);
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

async function keptTextGptModel(page) {
  assert.equal(await page.textContent('.model-name'), 'Model: text-gpt');
  assert.equal(await thumbs(page), 8);
}

test('a refused folder: one line under the controls naming the file, the model shown kept, nothing of the user\'s text echoed raw', async () => {
  const page = await modelPage();
  const cases = [
    ['no config.json (picked)', () => pickFolder(page, join(made, 'noconfig')),
      '"noconfig/": config.json: none in the folder "noconfig"; a model folder holds config.json beside model.safetensors; still showing text-gpt'],
    ['no config.json (URL)', () => page.evaluate(() => { window.location.hash = '#model=made/noconfig/&text=To%20be'; }),
      '"made/noconfig/": config.json: none at "/made/noconfig/"; a model folder holds config.json beside model.safetensors; still showing text-gpt'],
    ['config.json past 1 MiB (picked)', () => pickFolder(page, join(made, 'big')),
      '"big/": config.json: 1048577 bytes exceed the limit of 1048576 (1 MiB); still showing text-gpt'],
    ['config.json past 1 MiB (URL)', () => page.evaluate(() => { window.location.hash = '#model=made/big/&text=To%20be'; }),
      '"made/big/": config.json: 1048577 bytes exceed the limit of 1048576 (1 MiB); still showing text-gpt'],
    ['config.json past 1 MiB, gzip-encoded (its size unknown until read)', () => page.evaluate(() => { window.location.hash = '#model=gzip/big/&text=To%20be'; }),
      '"gzip/big/": config.json: more than 1048576 bytes, the limit (1 MiB); still showing text-gpt'],
    ['config.json a FIFO', () => pickFolder(page, join(made, 'fifo-config')),
      '"fifo-config/": "config.json": 0 bytes; an empty file, or not a regular file (a FIFO, a socket or a device); still showing text-gpt'],
    ['model.safetensors a FIFO', () => pickFolder(page, join(made, 'fifo-weights')),
      '"fifo-weights/": "model.safetensors": 0 bytes; an empty file, or not a regular file (a FIFO, a socket or a device); still showing text-gpt'],
    ['config.json not JSON', () => pickFolder(page, join(made, 'notjson')),
      '"notjson/": config.json: not valid JSON; still showing text-gpt'],
    ['an index naming a missing shard (picked)', () => pickFolder(page, join(made, 'missing-shard')),
      `"missing-shard/": model.safetensors.index.json: its shard "${shards[1]}" is not in the folder "missing-shard"; still showing text-gpt`],
    ['an index naming a missing shard (URL)', () => page.evaluate(() => { window.location.hash = '#model=made/missing-shard/&text=To%20be'; }),
      `"made/missing-shard/": model.safetensors.index.json: its shard "${shards[1]}" is not at "/made/missing-shard/"; still showing text-gpt`],
    ['an index entry with a path (picked)', () => pickFolder(page, join(made, 'path-entry')),
      '"path-entry/": model.safetensors.index.json: weight_map["model.norm.weight"] is "../secret.safetensors", not the name of a file in the same folder; still showing text-gpt'],
    ['an index entry with a path (URL)', () => page.evaluate(() => { window.location.hash = '#model=made/path-entry/&text=To%20be'; }),
      '"made/path-entry/": model.safetensors.index.json: weight_map["model.norm.weight"] is "../secret.safetensors", not the name of a file in the same folder; still showing text-gpt'],
    ['an index entry with a URL', () => page.evaluate(() => { window.location.hash = '#model=made/url-entry/&text=To%20be'; }),
      '"made/url-entry/": model.safetensors.index.json: weight_map["lm_head.weight"] is "https://example.org/x.safetensors", not the name of a file in the same folder; still showing text-gpt'],
    ['a GPT-2 index whose two shards both hold every tensor', () => pickFolder(page, join(made, 'gpt2-twice')),
      '"gpt2-twice/": wte.weight: in two shards, "model-00001-of-00002.safetensors" and "model-00002-of-00002.safetensors"; still showing text-gpt'],
    ['a folder URL elsewhere', () => page.evaluate(() => { window.location.hash = '#model=https://example.org/llama/&text=To%20be'; }),
      'model: "https://example.org/llama/" is not on this site; model files load from the page\'s own origin only; still showing text-gpt'],
    ['a folder URL whose config.json redirects to another origin', () => page.evaluate(() => { window.location.hash = '#model=away/&text=To%20be'; }),
      '"away/": config.json: "/away/config.json" redirects to another origin; model files load from the page\'s own origin only; still showing text-gpt'],
    ['a drop of two folders', () => page.evaluate(() => {
      const folder = (name) => ({ isFile: false, isDirectory: true, name, createReader: () => ({ readEntries: (ok) => ok([]) }) });
      const event = new Event('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], files: [], items: [folder('a'), folder('b')].map((e) => ({ kind: 'file', webkitGetAsEntry: () => e })) } });
      document.querySelector('.model-source').dispatchEvent(event);
    }), 'drop: one folder at a time, or the files of one folder; still showing text-gpt'],
  ];
  for (const [what, action, line] of cases) {
    await outcome(page, action);
    assert.equal(await status(page), line, what);
    assert.doesNotMatch(await status(page), /\n/, what);
    assert.equal(await page.evaluate(() => document.querySelector('.model-status').previousElementSibling?.className), 'model-progress', `${what}: the line is under the controls`);
    await keptTextGpt(page, what);
  }
  assert.equal(page.asked.filter((u) => /secret|example\.org/.test(u)).length, 0, 'nothing was asked of another origin or outside the folder');
  assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0);
  await shot(page, 'model-folder-refused');
  // the 404s of files a folder lacks, and the CSP stopping the redirect's hop, only
  assert.deepEqual(page.problems.filter((p) => !/404|Connecting to 'http:\/\/127\.0\.0\.1:9\/config\.json' violates/.test(p)), []);
  assert.deepEqual(await violations(page), [`connect-src: ${env.url}away/config.json`], 'the browser names the URL asked, not where it led');
  await page.context().close();
});

test('a link straight to a folder: a BERT encoder opens and shows its attention; a GPT-2 folder in shards opens in the element', async () => {
  const page = await modelPage('#model=models-v2/bert-base-model-f16/&text=2%2C17%2C33');
  await page.waitForFunction(() => document.querySelector('.model-view').dataset.tokens === '2,17,33', null, { timeout: 60000 });
  assert.equal(await thumbs(page), 2 * 3);
  assert.match(await page.textContent('.model-facts'), /every token reads every token, both ways\), without a head to predict with/);
  assert.equal(await page.isHidden('.next-tokens'), true, 'a BERT without its head guesses nothing');
  await page.context().close();
  const frame = await openPage(env.browser);
  // the element's error event does not bubble: a listener in the capture phase hears it
  await frame.context().addInitScript(() => {
    window.__errors = [];
    window.addEventListener('error', (event) => event.detail && window.__errors.push(event.detail.message), true);
  });
  await frame.goto(`${env.url}embed.html#view=model&model=made/gpt2-shards/`);
  await frame.waitForFunction(() => document.querySelector('attention-playground').dataset.state === 'ready', null, { timeout: 30000 });
  assert.equal(await frame.$eval('attention-playground', (e) => e.shadowRoot.querySelectorAll('.model-thumb').length), 2 * 6);
  assert.deepEqual(await frame.evaluate(() => window.__errors), []);
  await frame.context().close();
});

test('screenshots: a GPT-2 folder in shards and a refused folder at 1280 × 720 and 390 × 844, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const [width, height] of [[1280, 720], [390, 844]]) {
      const page = await modelPage('#model=text-gpt&text=To%20be', { viewport: { width, height }, colorScheme });
      await outcome(page, () => page.evaluate(() => { window.location.hash = '#model=made/gpt2-shards/&text=3,1,4'; }));
      assert.equal(await page.textContent('.model-name'), 'Model: "made/gpt2-shards/"');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, `no sideways scroll at ${width}`);
      // the window as the learner sees it, the source box at its top
      const view = (name) => page.evaluate(() => document.querySelector('.model-source').scrollIntoView())
        .then(() => page.screenshot({ path: join(root, 'tests', 'screenshots', `${name}-${width}-${colorScheme}.png`) }));
      await view('model-folder-gpt2-shards');
      await outcome(page, () => pickFolder(page, join(made, 'path-entry')));
      await view('model-folder-refused');
      await page.context().close();
    }
  }
});
