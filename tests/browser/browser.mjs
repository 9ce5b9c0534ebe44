// Shared set-up of the browser tests: Debian's Chromium driven by
// playwright-core, the built site served on a free localhost port, and a
// page that records console errors and CSP violations.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { after, before } from 'node:test';

import { chromium } from 'playwright-core';

import { startServer } from '../../scripts/serve.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const siteDir = process.env.ATTENTION_SITE_DIR ?? join(root, 'build', 'site');
export const screenshotDir = join(root, 'tests', 'screenshots');
mkdirSync(screenshotDir, { recursive: true });

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-default-apps', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

// One browser and one server for a test file: env.browser, env.url.
export function useBrowser(serveOptions = {}) {
  const env = {};
  before(async () => {
    env.browser = await launch();
    Object.assign(env, await serve(serveOptions));
  });
  after(async () => {
    await env.browser?.close();
    env.server?.close();
  });
  return env;
}

export async function serve(options = {}) {
  const server = await startServer({ root: siteDir, port: 0, ...options });
  return { server, url: `http://localhost:${server.address().port}${options.prefix ?? ''}/` };
}

// A route (serve's `route` option) that serves test folders beside the
// site: {'/models-v2/': dir} answers /models-v2/llama-gqa/config.json from
// dir/llama-gqa/config.json (GET and HEAD, 404 when absent, nothing outside dir).
export function folderRoute(folders) {
  return (request, response) => {
    let path;
    try {
      path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      return false;
    }
    const prefix = Object.keys(folders).find((p) => path.startsWith(p));
    if (!prefix) return false;
    const base = folders[prefix];
    const file = normalize(join(base, path.slice(prefix.length)));
    const headers = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
    if (!file.startsWith(base + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
      return true;
    }
    const bytes = readFileSync(file);
    response.writeHead(200, { ...headers, 'Content-Type': file.endsWith('.json') ? 'application/json' : 'application/octet-stream', 'Content-Length': bytes.length });
    response.end(request.method === 'HEAD' ? undefined : bytes);
    return true;
  };
}

// The shared model folders (models-v2.md), copied under tests/models-v2/.
export const modelsV2 = join(root, 'tests', 'models-v2');

// A page that collects what went wrong: console errors, page errors, and
// every CSP violation in any frame (window.__violations).
export async function openPage(browser, url, contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI || 'inline'}`));
  });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  // requests that failed, by path: a figure must not leave a 404 in a host's console
  page.failed = [];
  page.on('response', (r) => { if (r.status() >= 400) page.failed.push(`HTTP ${r.status()}: ${new URL(r.url()).pathname}`); });
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  if (url) await page.goto(url);
  return page;
}

export async function ready(page, selector = '#app') {
  await page.waitForSelector(`${selector}[data-state="ready"], ${selector}[data-state="error"]`, { timeout: 60000 });
  return page.getAttribute(selector, 'data-state');
}

// CSP violations reported in the page and all its frames.
export async function violations(page) {
  const all = [];
  for (const frame of page.frames()) all.push(...(await frame.evaluate(() => window.__violations ?? []).catch(() => [])));
  return all;
}

// A documentation-like site in a fresh folder: the built site copied under
// assets/attention-playground/, plus the files given ({path: text}).
export function hostSite(files) {
  const dir = mkdtempSync(join(tmpdir(), 'attention-host-'));
  cpSync(siteDir, join(dir, 'assets', 'attention-playground'), { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

export function shot(page, name) {
  return page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

// WCAG contrast ratio of two colours, [r, g, b] arrays or CSS rgb() text.
export function contrast(a, b) {
  const rgb = (c) => (typeof c === 'string' ? c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number) : c);
  const luminance = (c) => rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
