// Shared set-up of the documentation site's browser tests: the built site
// (ATTENTION_DOCS_DIR, default build/docs) served under a sub-path with the
// playground's strict Content-Security-Policy as a header, Debian's Chromium
// (tests/browser/browser.mjs: launch, openPage, violations), axe, and the
// figures of a page waited for.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { launch, openPage, root, violations } from '../browser/browser.mjs';

export { launch, openPage, root, violations };

export const docsDir = process.env.ATTENTION_DOCS_DIR ?? join(root, 'build', 'docs');
export const screenshotDir = join(root, 'tests', 'screenshots', 'docs');
mkdirSync(screenshotDir, { recursive: true });

// A documentation site's sub-path, as a course's site would host it.
export const prefix = '/courses/attention/docs';

// The built docs on a free localhost port: {server, url} (url ends in /).
export async function serveDocs(options = {}) {
  const server = await startServer({ root: docsDir, port: 0, csp: true, prefix, ...options });
  return { server, url: `http://localhost:${server.address().port}${options.prefix ?? prefix}/` };
}

// A page as openPage makes it, also recording requests that never got an
// answer (refused, blocked) in page.failed. A request the page cancels
// itself (net::ERR_ABORTED: the model reader cancels a download's body it
// no longer needs, web/engine/model-fetch.js) is no failure.
export async function openDocsPage(browser, url, contextOptions = {}) {
  const page = await openPage(browser, null, contextOptions);
  page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText ?? '';
    if (error !== 'net::ERR_ABORTED') page.failed.push(`failed: ${new URL(r.url()).pathname} (${error})`);
  });
  if (url) await page.goto(url);
  return page;
}

// Every <attention-playground> of the page scrolled into view (they start
// when near the viewport) and waited for until ready or error; their states.
export async function figureStates(page, timeout = 120000) {
  const figures = await page.$$('attention-playground');
  const states = [];
  for (const figure of figures) {
    await figure.scrollIntoViewIfNeeded();
    await page.waitForFunction((e) => ['ready', 'error'].includes(e.dataset.state), figure, { timeout });
    states.push(await figure.evaluate((e) => ({
      state: e.dataset.state,
      tag: e.outerHTML.slice(0, e.outerHTML.indexOf('>') + 1),
      message: e.shadowRoot?.querySelector('.message, [role="alert"]')?.textContent ?? '',
    })));
  }
  return states;
}

// axe's WCAG 2.1 A and AA findings on the page, one line each: {page, figures},
// the page's own (the theme, the text) and those inside a figure's shadow
// tree (the element's, web/); both [] when clean. The script goes in through
// the debugger protocol: the CSP refuses an inline one.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export async function axe(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
  const found = { page: [], figures: [] };
  for (const v of result.violations) {
    // a node inside a shadow tree is named by a path: [[host, selector inside]]
    const inShadow = (n) => n.target.some((part) => Array.isArray(part));
    const name = (n) => n.target.map((part) => (Array.isArray(part) ? part.join(' >> ') : part)).join(' ');
    for (const [where, nodes] of [['page', v.nodes.filter((n) => !inShadow(n))], ['figures', v.nodes.filter(inShadow)]])
      if (nodes.length) found[where].push(`${v.id}: ${v.help} (${nodes.map(name).slice(0, 5).join('; ')})`);
  }
  return found;
}
