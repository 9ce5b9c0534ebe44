// Where the Model view's file comes from: a same-site URL that redirects to
// another origin is refused naming that origin (on a site without a CSP, when
// the other origin lets the page read it) or saying it leaves the site (when
// it does not, or the strict CSP stops the hop), and the model shown stays; a redirect within the site
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

test('a same-site URL that redirects to another origin is refused naming it, and the model shown stays; a redirect within the site opens', async () => {
  // a site without a Content-Security-Policy: the other origin lets any page read it, the
  // response arrives and is refused by where it came from, before its body is read
  const open = await serve({ route });
  try {
    const page = await openPage(env.browser, `${open.url}#model=text-gpt&text=To%20be`);
    await page.waitForSelector('.model-view[data-state="ready"]', { timeout: 30000 });
    assert.equal(await thumbs(page), 8);
    await page.evaluate(() => { window.location.hash = '#model=away-cors.safetensors&text=To%20be'; });
    await page.waitForFunction(() => !document.querySelector('.model-status').hidden);
    assert.equal(await status(page), `"away-cors.safetensors": model: "/away-cors.safetensors" redirects to ${away()}, another origin; `
      + 'model files load from the page\'s own origin only; still showing text-gpt');
    assert.equal(await thumbs(page), 8);
    assert.equal(await page.textContent('.model-name'), 'Model: text-gpt');
    // one that does not let the page read it: the browser stops at the hop and hides where it led
    await page.evaluate(() => { window.location.hash = '#model=away.safetensors&text=To%20be'; });
    await page.waitForFunction(() => /"away\.safetensors"/.test(document.querySelector('.model-status').textContent));
    assert.equal(await status(page), '"away.safetensors": model: "/away.safetensors" redirects to another origin; '
      + 'model files load from the page\'s own origin only; still showing text-gpt');
    await page.context().close();
  } finally {
    open.server.close();
  }
  // under the strict CSP the hop is never made (connect-src 'self'), whatever the other origin allows
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
  assert.equal(elsewhere.asked, 2, 'the other origin was asked by the site without a CSP only (its two hops), never under the CSP');
  await page.context().close();
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
    await page.waitForFunction(() => !document.querySelector('.model-status').hidden, null, { timeout: 20000 });
    assert.equal(await status(page), `"text-gpt.safetensors": config.json: ${size} bytes exceed the limit of 1048576 (1 MiB); still showing text-gpt`, what);
    assert.equal(await page.textContent('.model-name'), 'Model: text-gpt', what);
    assert.equal(await thumbs(page), 8, what);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
