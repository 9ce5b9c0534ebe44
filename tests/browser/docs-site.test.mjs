// A real documentation site: examples/mkdocs built with Debian's mkdocs, the
// playground copied under assets/, served under a sub-path with the strict
// Content-Security-Policy. Every figure reaches ready, answers a click on its
// player, and the console shows no error and no CSP violation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launch, openPage, root, serve, shot, siteDir, violations } from './browser.mjs';

let browser;
let server;
let url;
before(async () => {
  const work = mkdtempSync(join(tmpdir(), 'attention-mkdocs-'));
  cpSync(join(root, 'examples', 'mkdocs'), work, { recursive: true });
  cpSync(siteDir, join(work, 'docs', 'assets', 'attention-playground'), { recursive: true });
  execFileSync('mkdocs', ['build', '--strict', '--quiet', '-f', join(work, 'mkdocs.yml'), '-d', join(work, 'site')], { stdio: 'inherit' });
  browser = await launch();
  ({ server, url } = await serve({ root: join(work, 'site'), csp: true, prefix: '/courses/attention' }));
});
after(async () => {
  await browser?.close();
  server?.close();
});

test('the MkDocs page: every figure ready, each player answers a click, no error, no CSP violation', async () => {
  const page = await openPage(browser, `${url}index.html`);
  const figures = await page.$$('attention-playground');
  assert.equal(figures.length, 3);
  for (const figure of figures) {
    await figure.scrollIntoViewIfNeeded();  // they start near the viewport
    await page.waitForFunction((e) => e.dataset.state === 'ready', figure, { timeout: 20000 });
  }
  // the two with a player: a click on Play moves it to the next step
  for (const figure of figures.slice(0, 2)) {
    const before = await figure.evaluate((e) => e.step);
    await figure.evaluate((e) => e.addEventListener('stepchange', () => { e.dataset.moved = 'yes'; }));
    const play = await figure.$('.play');
    await play.click();
    await page.waitForFunction((e) => e.dataset.moved === 'yes', figure, { timeout: 10000 });
    assert.notEqual(await figure.evaluate((e) => e.step), before);
    await play.click();  // pause
  }
  // the third is a lesson with no controls: the scaling plot is there
  assert.equal(await figures[2].evaluate((e) => e.shadowRoot.querySelectorAll('.lesson-table tbody tr').length), 9);

  const iframe = await page.$('iframe');
  await iframe.scrollIntoViewIfNeeded();
  const frame = await iframe.contentFrame();
  await frame.waitForFunction(() => document.querySelector('attention-playground')?.dataset.state === 'ready', null, { timeout: 20000 });
  // the resizer gave the frame its content's height, not the 560 of the markup
  await page.waitForFunction(() => document.querySelector('iframe').height !== '560', null, { timeout: 10000 });
  const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  assert.equal(Number(await iframe.getAttribute('height')), content);
  await frame.click('attention-playground .play');
  await frame.waitForFunction(() => document.querySelector('attention-playground').step !== 'weights', null, { timeout: 10000 });

  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'docs-site-mkdocs');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
