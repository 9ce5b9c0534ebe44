// A folder's tokenizer.json in Chromium (web/engine/hf-tokenizer.js), under
// the strict CSP and a sub-path: the module and the vendored
// @huggingface/tokenizers load as ES modules from the site itself (no request
// to another origin, no wasm), tokenize with the BERT fixture as in Node, and
// a bad file is the one line; the playground's first visit loads none of it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';

import { hostSite, launch, openPage, ready, root, serve, violations } from './browser.mjs';

const env = {};
before(async () => {
  env.dir = hostSite({
    'tokenizer.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tokenizer</title>'
      + '<link rel="icon" href="data:,"><script type="module" src="tokenizer.js"></script></head><body></body></html>',
    // the page imports nothing until asked, as the Model view will
    'tokenizer.js': "window.openIt = () => import('./assets/attention-playground/engine/hf-tokenizer.js');\n",
  });
  cpSync(join(root, 'tests', 'fixtures', 'tokenizers', 'bert-wordpiece.json'), join(env.dir, 'tokenizer.json'));
  env.browser = await launch();
  Object.assign(env, await serve({ root: env.dir, csp: true, prefix: '/docs' }));
});
after(async () => {
  await env.browser?.close();
  env.server?.close();
});

test('the BERT fixture tokenizes in the page with the vendored library, every request to the site itself', async () => {
  const page = await openPage(env.browser, `${env.url}tokenizer.html`);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.waitForFunction(() => typeof window.openIt === 'function');
  const got = await page.evaluate(async () => {
    const { openTokenizer, ModelError } = await window.openIt();
    const bert = await openTokenizer(await fetch('tokenizer.json'));
    const fromFile = await openTokenizer(new File([await (await fetch('tokenizer.json')).text()], 'tokenizer.json'));
    let refusal = '';
    try {
      await openTokenizer('{"model": {"type": "WordLevel", "vocab": {}}}');
    } catch (e) {
      refusal = `${e instanceof ModelError} ${e.message}`;
    }
    return {
      kind: bert.kind, vocab: bert.vocab, maskId: bert.maskId,
      encoded: bert.encode('The cat is playing.'),
      masked: bert.encode('The [MASK] sat.').ids,
      decoded: bert.decode([2, 5, 6, 1, 10, 11, 13, 3]),
      file: fromFile.encode('PLAYED').ids,
      refusal,
    };
  });
  assert.deepEqual(got, {
    kind: 'WordPiece', vocab: 17, maskId: 4,
    encoded: { ids: [2, 5, 6, 1, 10, 11, 13, 3], tokens: ['[CLS]', 'the', 'cat', '[UNK]', 'play', '##ing', '.', '[SEP]'] },
    masked: [2, 5, 4, 7, 13, 3],
    decoded: '[CLS] the cat [UNK] playing. [SEP]',
    file: [2, 10, 12, 3],
    refusal: 'true tokenizer.json: model.type "WordLevel" is not one the page reads (BPE or WordPiece)',
  });
  const origin = new URL(env.url).origin;
  const paths = requests.map((u) => new URL(u)).map((u) => (u.origin === origin ? u.pathname : u.href));
  assert.deepEqual(paths.filter((p) => !p.startsWith('/docs/')), [], 'every request to the site');
  assert.ok(paths.includes('/docs/assets/attention-playground/vendor/huggingface-tokenizers/tokenizers.js'), paths.join('\n'));
  assert.ok(paths.includes('/docs/assets/attention-playground/engine/hf-tokenizer.js'));
  assert.deepEqual(paths.filter((p) => p.endsWith('.wasm')), [], 'a tokenizer needs no wasm');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(page.failed, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});

test('the playground\'s first visit loads neither the tokenizer module nor the library', async () => {
  const page = await openPage(env.browser);
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(`${env.url}assets/attention-playground/index.html`);
  assert.equal(await ready(page), 'ready');
  assert.ok(requests.some((p) => p.endsWith('/engine/engine.js')), requests.join('\n'));
  assert.deepEqual(requests.filter((p) => /hf-tokenizer|typed-ids|huggingface-tokenizers/.test(p)), []);
  await page.context().close();
});
