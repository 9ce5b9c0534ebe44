// A host whose Content-Security-Policy blocks workers (worker-src 'none'):
// the figures that need one (training, the Model view) end in one line that
// says so, never a figure stuck on its loading line or "undefined".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { hostSite, launch, openPage, serve } from './browser.mjs';

const policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'none'";
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<title>Blocked workers</title>
<script type="module" src="assets/attention-playground/attention-playground.js"></script></head>
<body><main>
<attention-playground id="train" view="train" training="previous-token" steps="5" autoplay></attention-playground>
<attention-playground id="model" view="model" model="text-gpt" text="To be"></attention-playground>
</main></body></html>`;

let browser;
let served;
before(async () => {
  served = await serve({ root: hostSite({ 'index.html': page }) });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  served?.server.close();
});

for (const id of ['train', 'model']) {
  test(`a ${id} figure under worker-src 'none': one line naming the blocked worker`, async () => {
    const tab = await openPage(browser, `${served.url}index.html`);
    const figure = await tab.$(`#${id}`);
    await tab.waitForFunction((e) => e.dataset.state === 'error', figure, { timeout: 30000 });
    const text = await figure.evaluate((e) => e.shadowRoot.textContent);
    assert.match(text, /could not start.*worker-src 'self'/);
    assert.doesNotMatch(text, /undefined/);
    await tab.context().close();
  });
}
