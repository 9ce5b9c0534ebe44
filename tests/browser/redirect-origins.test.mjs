// A same-site link that redirects to another origin sends that origin
// nothing: the pages' own Content-Security-Policy <meta> (connect-src 'self',
// scripts/site-headers.mjs) stops the hop before the request, and every
// model fetch is the page's (a worker's would escape the <meta>). A second
// origin (another port of 127.0.0.1, answering anything with CORS allowed)
// records what reaches it, for a model file, a folder's config.json, a shard
// and a tokenizer.json, the site served by `make serve` (scripts/serve.mjs,
// no CSP header) and by a plain static server (no header of ours at all).
// Each is refused in one line naming the file, as embed.html's scenario
// file is; a redirect within the site opens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

import { policy } from '../../scripts/site-headers.mjs';
import { folderRoute, launch, modelsV2, openPage, serve, siteDir } from './browser.mjs';

// The second origin: what reached it, and a readable answer to anything.
const received = [];
let elsewhere;
const away = () => `http://127.0.0.1:${elsewhere.address().port}`;

const sharded = join(modelsV2, 'llama-mha-sharded');
const last = 'model-00002-of-00002.safetensors';
const lastSize = statSync(join(sharded, last)).size;
const files = folderRoute({
  '/away-shard/': sharded, '/away-tokenizer/': join(modelsV2, 'llama-gqa'), '/here-tokenizer/': join(modelsV2, 'llama-gqa'),
});
const to = (response, location) => !!response.writeHead(302, { Location: location, 'Cache-Control': 'no-cache' }).end();

// The site's redirects: one of each kind of file, and one within the site.
function route(request, response) {
  const path = new URL(request.url, 'http://localhost').pathname;
  if (path === '/away/model.safetensors') return to(response, `${away()}/model.safetensors`);
  if (path === '/away-config/config.json') return to(response, `${away()}/config.json`);
  if (path === '/away-tokenizer/tokenizer.json') return to(response, `${away()}/tokenizer.json`);
  // the last shard's size is answered (HEAD), its bytes are elsewhere: the hop comes when its turn to stream does
  if (path === `/away-shard/${last}`) {
    if (request.method === 'HEAD') return !!response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': lastSize }).end();
    return to(response, `${away()}/${last}`);
  }
  if (path === '/here/model.safetensors') return to(response, '/models/text-gpt.safetensors');
  if (path === '/away/scenario.json') return to(response, `${away()}/scenario.json`);
  return files(request, response);
}

// A static host: the site's files with their types and nothing else (no
// Content-Security-Policy header), and the same redirects.
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml' };
function staticHost() {
  const server = createServer((request, response) => {
    if (route(request, response)) return;
    let file = normalize(join(siteDir, decodeURIComponent(new URL(request.url, 'http://localhost').pathname)));
    if (!file.startsWith(siteDir + sep) && file !== siteDir) return response.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) return response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Content-Length': statSync(file).size });
    if (request.method === 'HEAD') return response.end();
    createReadStream(file).pipe(response);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, url: `http://localhost:${server.address().port}/` })));
}

let browser;
const sites = {};
before(async () => {
  elsewhere = createServer((request, response) => {
    received.push(`${request.method} ${request.url} (from ${request.headers.origin ?? request.headers.referer ?? 'no origin'})`);
    response.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/octet-stream' }).end('{}');
  });
  await new Promise((done) => elsewhere.listen(0, '127.0.0.1', done));
  browser = await launch();
  sites['make serve'] = await serve({ route });
  sites['a static host'] = await staticHost();
});
after(async () => {
  await browser?.close();
  for (const site of Object.values(sites)) site.server.close();
  elsewhere?.close();
});

const line = (link, label, path) => `"${link}": ${label}: "${path}" redirects to another origin; model files load from the page's own origin only; still showing text-gpt`;
const cases = [
  ['a model file', 'away/model.safetensors', line('away/model.safetensors', 'model', '/away/model.safetensors')],
  ['a folder\'s config.json', 'away-config/', line('away-config/', 'config.json', '/away-config/config.json')],
  ['a shard', 'away-shard/', line('away-shard/', last, `/away-shard/${last}`)],
  ['a tokenizer.json', 'away-tokenizer/', line('away-tokenizer/', 'tokenizer.json', '/away-tokenizer/tokenizer.json')],
];

const status = (page) => page.textContent('.model-status');

for (const where of ['make serve', 'a static host']) {
  test(`served by ${where}: a link that redirects to another origin sends it nothing, for a model file, a config.json, a shard, a tokenizer.json`, async () => {
    const { url } = sites[where];
    const page = await openPage(browser, `${url}#model=text-gpt&text=To%20be`);
    await page.waitForSelector('.model-view[data-state="ready"]', { timeout: 30000 });
    for (const [what, link, expected] of cases) {
      received.length = 0;
      await page.evaluate(() => { document.querySelector('.model-status').hidden = true; });
      await page.evaluate((link) => { window.location.hash = `#model=${link}&text=To%20be`; }, link);
      await page.waitForFunction(() => !document.querySelector('.model-status').hidden, null, { timeout: 60000 });
      assert.deepEqual(received, [], `${what}: the other origin received nothing`);
      assert.equal(await status(page), expected, what);
      assert.equal(await page.textContent('.model-name'), 'Model: text-gpt', what);
    }
    // a redirect within the site: opened
    await page.evaluate(() => { window.location.hash = '#model=here/model.safetensors&text=To%20be'; });
    await page.waitForFunction(() => document.querySelector('.model-name').textContent === 'Model: "here/model.safetensors"'
      && document.querySelector('.model-view').dataset.state === 'ready', null, { timeout: 60000 });
    assert.equal(await page.isHidden('.model-status'), true, await status(page));
    assert.deepEqual(received, []);
    await page.context().close();
    // embed.html's scenario file: stopped too, one line
    const embed = await openPage(browser, `${url}embed.html#scenario=away/scenario.json&view=both`);
    await embed.waitForFunction(() => document.querySelector('attention-playground')?.dataset.state === 'error', null, { timeout: 60000 });
    assert.deepEqual(received, [], 'a scenario file: the other origin received nothing');
    assert.match(await embed.evaluate(() => document.querySelector('attention-playground').shadowRoot.textContent),
      /scenario: cannot load "\/away\/scenario\.json" \(a network error, or a redirect to another origin\)/);
    await embed.context().close();
    // what stopped the hops: the page's <meta>, no header
    const home = await fetch(url);
    assert.equal(home.headers.get('content-security-policy'), null, 'no policy header: the page\'s <meta> alone');
    assert.ok((await home.text()).includes(`<meta http-equiv="Content-Security-Policy" content="${policy}">`), 'the page carries the policy');
  });
}

test('embed.html carries the same policy as index.html, the one scripts/site-headers.mjs holds', () => {
  for (const file of ['index.html', 'embed.html'])
    assert.ok(readFileSync(join(siteDir, file), 'utf8').includes(`<meta http-equiv="Content-Security-Policy" content="${policy}">`), file);
});
