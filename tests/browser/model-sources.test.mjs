// Where the Model view's file comes from: a same-site URL that redirects to
// another origin is refused saying it leaves the site, and the other origin
// receives nothing: the page's own Content-Security-Policy <meta> stops the
// hop (served with no policy header, or with the strict one); on an author's
// page without a policy the element makes the hop and refuses it after,
// naming the origin when that origin lets the page read it; the model shown
// stays; a redirect within the site
// opens; a model served gzip-encoded (Content-Length the compressed size)
// opens with the numbers of the file itself; a config.json past 1 MiB is
// refused by its size before it is read, in one line naming config.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { loadModelEngine, openModel } from '../../web/engine/model.js';
import { openPage, root, serve, shot, useBrowser, violations } from './browser.mjs';

const shipped = readFileSync(join(root, 'web', 'models', 'text-gpt.safetensors'));
const wasm = join(root, 'build', 'wasm');

// Another origin (another port of 127.0.0.1): a model it lets any page read, and one it does not.
let elsewhere;
before(async () => {
  elsewhere = createServer((request, response) => {
    elsewhere.asked++;
    const cors = request.url === '/cors.safetensors' ? { 'Access-Control-Allow-Origin': '*' } : {};
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': shipped.length, ...cors }).end(shipped);
  });
  elsewhere.asked = 0;
  await new Promise((done) => elsewhere.listen(0, '127.0.0.1', done));
});
after(() => elsewhere?.close());
const away = () => `http://127.0.0.1:${elsewhere.address().port}`;

const gzipped = gzipSync(shipped);
const routes = {
  '/away-cors.safetensors': (response) => response.writeHead(302, { Location: `${away()}/cors.safetensors` }).end(),
  '/away.safetensors': (response) => response.writeHead(302, { Location: `${away()}/plain.safetensors` }).end(),
  '/here.safetensors': (response) => response.writeHead(302, { Location: '/models/text-gpt.safetensors' }).end(),
  // an author's page with no policy of its own, embedding the element
  '/author.html': (response) => response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>An author's page</title>
    <script type="module" src="/attention-playground.js"></script>
    <attention-playground id="far" view="model" model="/away-cors.safetensors"></attention-playground>`),
  '/gzip.safetensors': (response) => response.writeHead(200, {
    'Content-Type': 'application/octet-stream', 'Content-Encoding': 'gzip', 'Content-Length': gzipped.length, 'Cache-Control': 'no-cache',
  }).end(gzipped),
};
function route(request, response) {
  const answer = routes[new URL(request.url, 'http://localhost').pathname];
  answer?.(response);
  return !!answer;
}
const env = useBrowser({ csp: true, route });

const node = {};
before(async () => {
  const engine = await loadModelEngine({ moduleUrl: new URL(`file://${join(wasm, 'attention-model.js')}`), wasmBinary: readFileSync(join(wasm, 'attention-model.wasm')) });
  node.model = await openModel(new Blob([shipped]), { engine, name: 'text-gpt' });
});

async function modelPage(hash) {
  const page = await openPage(env.browser, `${env.url}${hash}`);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('.model-view')?.dataset.state), null, { timeout: 30000 });
  return page;
}

const status = (page) => page.textContent('.model-status');
const thumbs = (page) => page.$$eval('.model-thumb', (b) => b.length);

test('a same-site URL that redirects to another origin is refused, the other origin receiving nothing, and the model shown stays; a redirect within the site opens', async () => {
  // served with no policy header (make serve): the page's <meta> stops the hop, whatever the other origin allows
  const open = await serve({ route });
  try {
    const page = await openPage(env.browser, `${open.url}#model=text-gpt&text=To%20be`);
    await page.waitForSelector('.model-view[data-state="ready"]', { timeout: 30000 });
    assert.equal(await thumbs(page), 8);
    for (const path of ['away-cors.safetensors', 'away.safetensors']) {
      await page.evaluate((path) => { window.location.hash = `#model=${path}&text=To%20be`; }, path);
      await page.waitForFunction((path) => document.querySelector('.model-status').textContent.startsWith(`"${path}"`), path);
      assert.equal(elsewhere.asked, 0, `${path}: the other origin received nothing from the page`);
      assert.equal(await status(page), `"${path}": model: "/${path}" redirects to another origin; model files load from the page's own origin only; still showing text-gpt`);
      assert.equal(await thumbs(page), 8);
      assert.equal(await page.textContent('.model-name'), 'Model: text-gpt');
    }
    await page.context().close();
  } finally {
    open.server.close();
  }
  // under the strict CSP header too
  const page = await modelPage('#model=text-gpt&text=To%20be');
  for (const path of ['away-cors.safetensors', 'away.safetensors']) {
    await page.evaluate((path) => { window.location.hash = `#model=${path}&text=To%20be`; }, path);
    await page.waitForFunction((path) => document.querySelector('.model-status').textContent.startsWith(`"${path}"`), path);
    assert.equal(await status(page), `"${path}": model: "/${path}" redirects to another origin; model files load from the page's own origin only; still showing text-gpt`);
    assert.equal(await thumbs(page), 8);
    assert.equal(await page.textContent('.model-name'), 'Model: text-gpt');
  }
  await shot(page, 'model-redirect-refused');
  // a redirect within the site: opened
  await page.evaluate(() => { window.location.hash = '#model=here.safetensors&text=To%20be'; });
  await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "here.safetensors"' && document.querySelector('.model-view').dataset.state === 'ready');
  assert.equal(await page.isHidden('.model-status'), true);
  assert.equal(await page.getAttribute('.model-view', 'data-tokens'), node.model.encode('To be').join(','));
  assert.equal(elsewhere.asked, 0, 'the other origin received nothing, under the <meta> alone or the header too');
  await page.context().close();
});

test('on an author\'s page without a policy, the element makes the hop and refuses it after, naming the origin that let it read', async () => {
  const open = await serve({ route });
  try {
    const page = await openPage(env.browser, `${open.url}author.html`);
    await page.waitForFunction(() => document.querySelector('#far')?.dataset.state === 'error', null, { timeout: 30000 });
    assert.equal(await page.$eval('#far', (e) => e.shadowRoot.querySelector('.model-status').textContent),
      `"/away-cors.safetensors": model: "/away-cors.safetensors" redirects to ${away()}, another origin; model files load from the page's own origin only`);
    assert.equal(elsewhere.asked, 1, 'the hop was made: the author\'s page has no policy to stop it (README: add one)');
    await page.context().close();
  } finally {
    open.server.close();
  }
  elsewhere.asked = 0;
});

test('a model served gzip-encoded opens: its size is the decoded bytes the header declares, not Content-Length', async () => {
  assert.ok(gzipped.length < shipped.length, `${gzipped.length} of ${shipped.length} bytes`);
  const page = await modelPage('#model=gzip.safetensors&text=To%20be');
  assert.equal(await page.getAttribute('.model-view', 'data-state'), 'ready', await status(page));
  assert.equal(await page.isHidden('.model-status'), true);
  assert.equal(await page.textContent('.model-name'), 'Model: "gzip.safetensors"');
  assert.equal(await thumbs(page), 8);
  const tokens = node.model.encode('To be');
  const run = node.model.run(tokens);
  assert.equal(await page.getAttribute('.model-view', 'data-tokens'), tokens.join(','));
  const shown = await page.$$eval('.next-token-bars li .next-token-p', (p) => p.map((x) => x.textContent));
  assert.equal(shown.length, 10);
  const { k, probabilities } = run.top;
  const at = tokens.length - 1;
  assert.ok(probabilities[at * k] > probabilities[at * k + 9], 'the bars are the core\'s guesses, most probable first');
  assert.equal(await page.evaluate(() => document.querySelector('.model-progress progress').value), shipped.length - 8 - shipped.readUInt32LE(0),
    'the bar counted the decoded data');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

test('a config.json past 1 MiB is refused by its size before it is read, naming config.json; one past V8\'s longest string too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'model-sources-'));
  const model = join(dir, 'text-gpt.safetensors');
  writeFileSync(model, shipped);
  const page = await modelPage('#model=text-gpt&text=To%20be');
  for (const [size, what] of [[600_000_000, 'past V8\'s longest string (a sparse file)'], [(1 << 20) + 1, 'just past 1 MiB']]) {
    const config = join(dir, `${size}`, 'config.json');
    mkdirSync(join(dir, `${size}`));
    const out = openSync(config, 'w');
    ftruncateSync(out, size);
    closeSync(out);
    await page.evaluate(() => { document.querySelector('.model-status').hidden = true; });
    await page.setInputFiles('.model-source input[type="file"]', [model, config]);
    await page.waitForFunction(() => !document.querySelector('.model-status').hidden, null, { timeout: 60000 });
    assert.equal(await status(page), `"text-gpt.safetensors": config.json: ${size} bytes exceed the limit of 1048576 (1 MiB); still showing text-gpt`, what);
    assert.equal(await page.textContent('.model-name'), 'Model: text-gpt', what);
    assert.equal(await thumbs(page), 8, what);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
