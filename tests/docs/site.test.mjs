// The built documentation site in headless Chromium, served under a
// sub-path with the playground's strict Content-Security-Policy as a header:
// the front page and every tutorial at 1280 and 390 px wide, light and dark.
// Every figure reaches ready, the page never scrolls sideways, and there is
// no console error, no failed request, no CSP violation and no axe finding.
// Also: no page carries an inline script or style (furo's are replaced by
// files, docs/_templates/), the theme toggle works and the figures follow
// it, and the search page finds pages. Screenshots: tests/screenshots/docs/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { axe, docsDir, figureStates, launch, openDocsPage, screenshotDir, serveDocs, violations } from './browser.mjs';

assert.ok(existsSync(join(docsDir, 'index.html')), `no ${docsDir}/index.html: run make docs`);

// ---- no inline script or style anywhere in the site

// The parts of a page a strict CSP refuses: an inline <script> (one without
// src), a <style>, a style="" attribute, an on…="" handler. One line each.
function inlineParts(html) {
  const found = [];
  const text = html.replace(/<!--[\s\S]*?-->/g, '').replace(/(<(script|style)\b[^>]*>)([\s\S]*?)<\/\2>/gi, '$1</$2>');
  for (const [tag] of text.matchAll(/<[a-z][^\s/>]*(?:\s+[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*\s*\/?>/gi)) {
    const name = /^<([^\s/>]+)/.exec(tag)[1].toLowerCase();
    const attributes = [...tag.matchAll(/\s([^\s=>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?/g)].map((m) => m[1].toLowerCase());
    // a data block (<script type="application/json">, a figure's weights) runs nothing
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1].toLowerCase() ?? '';
    const data = /^application\/([a-z.+-]+\+)?json$/.test(type);
    if (name === 'script' && !attributes.includes('src') && !data) found.push(`inline script: ${tag}`);
    if (name === 'style') found.push(`inline style element: ${tag}`);
    if (attributes.includes('style')) found.push(`style attribute: ${tag.slice(0, 120)}`);
    for (const handler of attributes.filter((a) => /^on[a-z]+$/.test(a))) found.push(`${handler} handler: ${tag.slice(0, 120)}`);
  }
  return found;
}

function htmlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => join(e.parentPath ?? e.path, e.name)).sort();
}

test('the inline check finds each kind of inline part', () => {
  const html = '<!-- <script>ignored</script> --><script src="a.js"></script><script>theme()</script><style>p{}</style>'
    + '<script type="application/json">{"weights": []}</script><script type="module">import "./a.js";</script>'
    + '<svg style="display: none;"></svg><button onclick="go()">Go</button><p class="style">style="text"</p>';
  assert.deepEqual(inlineParts(html), [
    'inline script: <script>', 'inline style element: <style>', 'inline script: <script type="module">',
    'style attribute: <svg style="display: none;">', 'onclick handler: <button onclick="go()">',
  ]);
});

test('no page of the built site has an inline script, a <style>, a style attribute or an event handler', () => {
  const pages = htmlFiles(docsDir);
  assert.ok(pages.length > 30, `the site's pages: ${pages.length}`);
  const found = pages.flatMap((page) => inlineParts(readFileSync(page, 'utf8')).map((line) => `${relative(docsDir, page)}: ${line}`));
  assert.deepEqual(found, []);
});

test('every page loads the element from the site\'s own playground, by a relative path', () => {
  for (const page of htmlFiles(docsDir).filter((p) => !relative(docsDir, p).startsWith('playground/'))) {
    const html = readFileSync(page, 'utf8');
    const [script] = [...html.matchAll(/<script type="module" src="([^"]+)"><\/script>/g)].map((m) => m[1]);
    const depth = relative(docsDir, page).split('/').length - 1;
    assert.equal(script, `${'../'.repeat(depth)}playground/attention-playground.js`, relative(docsDir, page));
  }
});

// ---- the pages in the browser

let browser;
let server;
let url;
before(async () => {
  browser = await launch();
  ({ server, url } = await serveDocs());
});
after(async () => {
  await browser?.close();
  server?.close();
});

const pages = ['index.html', ...readdirSync(join(docsDir, 'tutorials')).filter((f) => f.endsWith('.html')).sort().map((f) => `tutorials/${f}`)];
const looks = [
  { name: '1280-light', viewport: { width: 1280, height: 900 }, colorScheme: 'light' },
  { name: '1280-dark', viewport: { width: 1280, height: 900 }, colorScheme: 'dark' },
  { name: '390-light', viewport: { width: 390, height: 844 }, colorScheme: 'light' },
  { name: '390-dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' },
];

// axe's findings inside the figures' shadow trees: the element's (web/), not
// the site's; checked in their own test below.
const figureFindings = [];

for (const path of pages) {
  for (const look of looks) {
    test(`${path} at ${look.name}: every figure ready, no sideways scroll, no error, no failed request, no CSP violation, axe-clean`, async () => {
      const page = await openDocsPage(browser, `${url}${path}`, { viewport: look.viewport, colorScheme: look.colorScheme });
      try {
        const states = await figureStates(page);
        for (const figure of states) assert.equal(figure.state, 'ready', `${figure.tag}: ${figure.message}`);
        // once every figure has drawn itself, at its own size
        await page.evaluate(() => window.scrollTo(0, 0));
        const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        assert.ok(scrollWidth <= innerWidth, `the page scrolls sideways: ${scrollWidth} px in ${innerWidth}`);
        // each figure within the article's column
        const wide = await page.$$eval('article attention-playground', (figures) => figures
          .map((e) => [e.outerHTML.slice(0, 80), e.getBoundingClientRect().right, e.closest('article').getBoundingClientRect().right])
          .filter(([, right, column]) => right > column + 1));
        assert.deepEqual(wide, [], 'figures wider than the column');
        await page.screenshot({ path: join(screenshotDir, `${path.replace(/\//g, '-').replace(/\.html$/, '')}-${look.name}.png`), fullPage: true });
        // before axe, whose own checks write styles the policy refuses
        assert.deepEqual(await violations(page), []);
        assert.deepEqual(page.problems, []);
        assert.deepEqual(page.failed, []);
        const found = await axe(page);
        figureFindings.push(...found.figures.map((line) => `${path} at ${look.name}: ${line}`));
        assert.deepEqual(found.page, []);
      } finally {
        await page.context().close();
      }
    });
  }
}

// The element's own findings, inside its shadow roots: e.g. a lesson card's
// <pre> that scrolls sideways in the docs' column must take keyboard focus
// (scrollable-region-focusable).
test('axe finds nothing inside the figures either, at any width, light or dark', () => {
  assert.deepEqual(figureFindings, []);
});

test('the theme toggle: light, dark, auto in turn, kept across pages; a figure without a theme follows it', async () => {
  const page = await openDocsPage(browser, `${url}index.html`, { viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  try {
    assert.equal(await page.evaluate(() => document.body.dataset.theme), 'auto');
    const toggle = page.locator('.theme-toggle-content .theme-toggle');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await toggle.click();  // auto in a light system: dark next
    assert.equal(await page.evaluate(() => document.body.dataset.theme), 'dark');
    assert.notEqual(await background(), light);
    assert.equal(await page.evaluate(() => localStorage.getItem('theme')), 'dark');
    // every figure the author gave no theme now draws dark
    await page.waitForFunction(() => [...document.querySelectorAll('attention-playground[data-follows-page]')].every((e) => e.getAttribute('theme') === 'dark'));
    // another page opens dark before it paints: theme.js read the choice
    await page.goto(`${url}tutorials/playground.html`);
    assert.equal(await page.evaluate(() => document.body.dataset.theme), 'dark');
    await toggle.click();
    assert.equal(await page.evaluate(() => document.body.dataset.theme), 'light');
    await toggle.click();
    assert.equal(await page.evaluate(() => document.body.dataset.theme), 'auto');
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.context().close();
  }
});

test('the search page finds pages under the CSP', async () => {
  const page = await openDocsPage(browser, `${url}search.html?q=attention`, { viewport: { width: 1280, height: 900 } });
  try {
    await page.waitForSelector('#search-results ul.search li', { timeout: 30000 });
    const found = await page.$$eval('#search-results ul.search li a', (links) => links.map((a) => a.getAttribute('href')));
    assert.ok(found.length >= 3, `pages found: ${found}`);
    await page.click('#search-results ul.search li a');
    await page.waitForLoadState();
    assert.match(page.url(), /\/courses\/attention\/docs\/.+\.html/);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(page.problems, []);
    assert.deepEqual(page.failed, []);
  } finally {
    await page.context().close();
  }
});
