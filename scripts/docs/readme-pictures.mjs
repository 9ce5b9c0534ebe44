// The README's two pictures, taken from the real page in headless Chromium
// (Debian's /usr/bin/chromium driven by playwright-core), 1280 px wide:
//   playground.png  the playground playing, caught in the middle of the out
//                   step: the out rows being built and the values travelling
//                   along the graph's arcs (the page's clock is held, so the
//                   frame is the same on every run)
//   model-view.png  the Model view on the bundled text-gpt: every head, the
//                   previous-token head drawn large, the next-token bars, the
//                   graph and the lenses open on the logit lens
// A picture is written only when its bytes changed. Any console error, page
// error or failed request stops the script.
// usage: node scripts/docs/readme-pictures.mjs [SITE_DIR] [OUT_DIR]
//   (defaults: build/site and docs/images)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

import { startServer } from '../serve.mjs';

const [siteDir = 'build/site', outDir = 'docs/images'] = process.argv.slice(2);
if (!existsSync(join(siteDir, 'index.html'))) {
  console.error(`usage: node scripts/docs/readme-pictures.mjs [SITE_DIR] [OUT_DIR]\nno ${join(siteDir, 'index.html')}: build the site first (make site)`);
  process.exit(64);
}
mkdirSync(outDir, { recursive: true });

const stepMs = 1600;  // web/state/player.js: one step's animation at speed 1
const holdMs = 700;   // a finished step held while playing

const server = await startServer({ root: siteDir, port: 0, csp: true });
const url = `http://localhost:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
    '--disable-component-update', '--disable-default-apps', '--disable-sync', '--no-first-run'],
});

const problems = [];
async function open(hash, { clock = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', reducedMotion: 'no-preference' });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`${hash}: console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`${hash}: page error: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${hash}: HTTP ${r.status()}: ${new URL(r.url()).pathname}`); });
  if (clock) await page.clock.install();
  await page.goto(`${url}#${hash}`);
  return page;
}

// Nothing hovered or focused: no tooltip, no focus ring in the picture.
async function still(page) {
  await page.mouse.move(1279, 799);
  await page.evaluate(() => document.activeElement?.blur());
}

async function playground() {
  const page = await open('preset=sun-rises-causal', { clock: true });
  await page.waitForSelector('#app[data-state="ready"]', { timeout: 60000 });
  // from here only runFor moves the page's time
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  await page.click('.step-button[data-step="weights"]');
  await page.clock.runFor(stepMs);
  await page.click('#play');
  await still(page);
  // the weights step held, then 40% into out: row 2 of 6 being built
  await page.clock.runFor(holdMs + Math.round(stepMs * 0.4));
  const [step, button] = await page.evaluate(() => [document.querySelector('.step-button[aria-current="step"]')?.dataset.step, document.querySelector('#play').textContent]);
  if (step !== 'out' || button !== 'Pause') throw new Error(`the player is not playing the out step: step ${step}, button ${button}`);
  const picture = await page.screenshot();
  await page.context().close();
  return picture;
}

async function modelView() {
  const page = await open('model=text-gpt&layer=0&head=2&lens=logit-lens');
  await page.waitForSelector('.lens-panel[data-lens="logit-lens"][data-state="ready"]', { timeout: 60000 });
  await page.click('.start-here-close');  // the first-visit guide: the picture shows the view itself
  await still(page);
  await page.evaluate(() => document.fonts.ready);
  // from under the text's chips down to the lenses' end
  const [top, bottom] = await page.evaluate(() => [
    document.querySelector('.token-chip').getBoundingClientRect().bottom + window.scrollY,
    document.querySelector('.lens-panel').getBoundingClientRect().bottom + window.scrollY,
  ]);
  const picture = await page.screenshot({ fullPage: true, clip: { x: 0, y: Math.round(top) + 4, width: 1280, height: Math.round(bottom - top) + 8 } });
  await page.context().close();
  return picture;
}

let failed = false;
try {
  const pictures = [['playground.png', await playground()], ['model-view.png', await modelView()]];
  if (problems.length) throw new Error(problems.join('\n'));
  for (const [name, picture] of pictures) {
    const path = join(outDir, name);
    const kb = `${(picture.length / 1024).toFixed(0)} KB`;
    if (existsSync(path) && readFileSync(path).equals(picture)) {
      console.log(`${path}: unchanged (${kb})`);
    } else {
      writeFileSync(path, picture);
      console.log(`${path}: written (${kb})`);
    }
  }
} catch (error) {
  console.error(`readme-pictures: ${error.message}`);
  failed = true;
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
