// The Model view's engine in Chromium, under the strict CSP and a sub-path:
// a model File chosen in a page streams into the worker (File.slice()), runs
// and answers as in Node; a model by URL; a hostile file refused with its
// line, the worker still usable; no console error, no CSP violation. The
// views are the Model view's; this is what they will call.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { hostSite, launch, openPage, root, serve, violations } from './browser.mjs';

const env = {};
const models = join(root, 'tests', 'models');
before(async () => {
  env.dir = hostSite({
    'models.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>models</title>'
      + '<link rel="icon" href="data:,"><script type="module" src="models.js"></script></head>'
      + '<body><input type="file" id="file" aria-label="model file"></body></html>',
    'models.js': "import { ModelWorker, ModelError } from './assets/attention-playground/engine/model-client.js';\n"
      + 'window.ModelWorker = ModelWorker;\nwindow.ModelError = ModelError;\n',
  });
  for (const name of ['text-gpt', 'nano-tied-bias']) cpSync(join(models, `${name}.safetensors`), join(env.dir, `${name}.safetensors`));
  env.browser = await launch();
  Object.assign(env, await serve({ root: env.dir, csp: true, prefix: '/docs' }));
});
after(async () => {
  await env.browser?.close();
  env.server?.close();
});

test('a chosen File streams into the worker; run, guesses, head, encode, generate; a URL; a hostile file', async () => {
  const page = await openPage(env.browser, `${env.url}models.html`);
  await page.waitForFunction(() => typeof window.ModelWorker === 'function');
  await page.setInputFiles('#file', join(models, 'text-gpt.safetensors'));
  const got = await page.evaluate(async () => {
    const model = new window.ModelWorker();
    const progress = [];
    const file = document.getElementById('file').files[0];
    const info = await model.open(file, { onProgress: (p) => progress.push(p) });
    const tokens = await model.encode('To be, or not to be');
    const run = await model.run(tokens);
    const head = await model.headScenario(1, 2);
    const generated = await model.generate(tokens.slice(0, 5), 8, { temperature: 0.8, seed: 3 });
    const text = await model.decode(generated);
    const byUrl = await model.open('nano-tied-bias.safetensors');
    let refusal = '';
    try {
      await model.open(new File([new Uint8Array([1, 0, 0])], 'short.safetensors'));
    } catch (e) {
      refusal = `${e.name}: ${e.message}`;
    }
    let afterRefusal = '';
    try {
      await model.run([1]);
    } catch (e) {
      afterRefusal = e.message;
    }
    const again = await model.open(file);
    model.terminate();
    return {
      info, progress: progress.length, last: progress.at(-1), tokens, shape: run.attention.shape,
      attention: Array.from(run.attention.data.slice(0, 40)), lastTop: run.last.top, loss: run.loss,
      topK: run.top.k, typed: [run.attention.data.constructor.name, run.top.ids.constructor.name],
      head: { id: head.id, tokens: head.tokens }, generated, text, byUrl: byUrl.config, refusal, afterRefusal,
      again: again.config.parameters,
    };
  });
  const want = JSON.parse(readFileSync(join(root, 'tests', 'golden-models', 'text-gpt.trace.json'), 'utf8'));
  assert.deepEqual(got.info.config, want.config);
  assert.equal(got.info.tokenizer, 'characters');
  assert.ok(got.progress >= 1);
  assert.equal(got.last.received, got.last.total);
  assert.deepEqual(got.tokens, want.tokens);
  assert.deepEqual(got.shape, want.attention.shape);
  got.attention.forEach((a, i) => assert.ok(Math.abs(a - want.attention.data[i]) <= 1e-4, `attention[${i}]`));
  assert.deepEqual(got.lastTop.map(([id]) => id), want.last.top.map(([id]) => id));
  assert.ok(Math.abs(got.loss - want.loss) <= 1e-5);
  assert.equal(got.topK, 10);
  assert.deepEqual(got.typed, ['Float32Array', 'Int32Array']);
  assert.equal(got.head.id, 'text-gpt-layer-1-head-2');
  assert.equal(got.head.tokens.join(''), 'To be, or not to be');
  assert.equal(got.generated.length, 8);
  assert.equal(typeof got.text, 'string');
  assert.equal(got.byUrl.parameters, 26912);
  assert.equal(got.refusal, 'ModelError: header: the file is shorter than the 8-byte header length');
  assert.equal(got.afterRefusal, 'model: no model is open');  // a refused file leaves nothing half open
  assert.equal(got.again, want.config.parameters);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await violations(page), []);
  await page.context().close();
});
