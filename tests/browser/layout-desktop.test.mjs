// At 1280 × 720 (light): a matrix's title keeps its shape together, the
// explanation of a hovered cell is on screen beside it, colour-bar labels sit
// apart on the bar's row, and a generated space's mark stays clear of its ␣.
// Screenshots to tests/screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, screenshotDir, shot, useBrowser } from './browser.mjs';

const env = useBrowser();
const desk = { viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' };
const steps = ['x', 'qkv', 'scores', 'scaled', 'masked', 'weights', 'out'];

async function step(page, name) {
  await page.click(`.step-button[data-step="${name}"]`);
  await page.waitForFunction((s) => document.querySelector('.step-button.current')?.dataset.step === s, name);
}

// Every matrix of every step of these, at 1280 × 720: its shape's lines and its legend's boxes.
const hashes = ['#preset=sun-rises-causal', '#preset=karpathy-value', '#preset=sun-rises-multihead', '#sentence=a%20b%20c%20d&embed=64&step=x'];
async function eachMatrix(check) {
  for (const hash of hashes) {
    const page = await openPage(env.browser, `${env.url}${hash}`, desk);
    assert.equal(await ready(page), 'ready', hash);
    for (const name of steps) {
      await step(page, name);
      const seen = await page.$$eval('.stage figure.heatmap', (figures) => figures.map((f) => {
        const shape = f.querySelector('.matrix-shape');
        const boxes = [...f.querySelectorAll('.legend > *')].map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0);
        const overlaps = [];
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
          if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5) overlaps.push(i);
        }));
        // the low label, the bar and the high label: one row
        const [low, bar, high] = [...f.querySelectorAll('.legend > *')].slice(0, 3).map((c) => c.getBoundingClientRect());
        const middle = (r) => (r.top + r.bottom) / 2;
        // a matrix narrower than two labels and the shortest bar (a 1-column v) may wrap its legend, never overlap it
        const room = f.getBoundingClientRect().width >= 100;
        return { matrix: f.dataset.matrix, shapeLines: shape ? shape.getClientRects().length : 1, overlaps,
          oneRow: !bar || !room || Math.max(middle(low), middle(bar), middle(high)) - Math.min(middle(low), middle(bar), middle(high)) < 3, bar: bar?.width ?? 24 };
      }));
      for (const s of seen) check(s, `${hash} ${name}: ${s.matrix}`);
    }
    if (hash === hashes[0]) { await step(page, 'qkv'); await shot(page, 'layout-desktop-titles-light'); }
    await page.context().close();
  }
}

test('a matrix\'s title never wraps inside its shape ("(6 ×" / "2)")', async () => {
  await eachMatrix((s, at) => assert.equal(s.shapeLines, 1, `${at}: the shape wraps`));
});

test('colour-bar labels never overlap, and sit on the row of their bar', async () => {
  await eachMatrix((s, at) => {
    assert.deepEqual(s.overlaps, [], `${at}: the legend overlaps`);
    assert.ok(s.oneRow, `${at}: the colour-bar labels stack`);
    assert.ok(s.bar >= 24, `${at}: the bar is ${s.bar} px`);
  });
});

test('hovering a cell on the first screen brings "How this number was computed" into view beside it', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal`, { ...desk, colorScheme });
    assert.equal(await ready(page), 'ready');
    for (const [name, matrix] of [['qkv', 'q'], ['scores', 'scores'], ['weights', 'weights'], ['out', 'out']]) {
      await step(page, name);
      await page.evaluate(() => window.scrollTo(0, 0));
      const canvas = await page.$(`.stage figure[data-matrix="${matrix}"] canvas`);
      const box = await canvas.boundingBox();
      assert.ok(box.y + box.height <= 720, `${name}: ${matrix} on the first screen`);
      const x = box.x + box.width * 0.55, y = box.y + box.height - 12;  // a cell of the last row (the weights have a Σ column on the right)
      await page.mouse.move(x - 3, y - 3);
      await page.mouse.move(x, y);
      await page.waitForFunction(() => document.querySelector('#detail h3'), null, { timeout: 5000 }).catch(() => assert.fail(`${name}: no explanation`));
      const seen = await page.evaluate(() => {
        const r = document.querySelector('.detail-wrap').getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, scrollY: window.scrollY, heading: document.querySelector('#detail h3').textContent };
      });
      assert.ok(seen.top >= 0 && seen.bottom <= 720, `${name}: the explanation at ${seen.top}–${seen.bottom}`);
      assert.equal(seen.scrollY, 0, `${name}: the cell stays where it was`);
      assert.match(seen.heading, new RegExp(`^${matrix} \\[5, `), name);
      if (name === 'weights') await page.screenshot({ path: `${screenshotDir}/layout-desktop-detail-${colorScheme}.png` });
      await page.mouse.move(5, 5);
    }
    await page.context().close();
  }
});

// The graph's tokens and One query's numbers, in the page's pixels: the
// exported SVG draws the canvas's layout in its own CSS pixels.
async function graphBottom(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  const whole = await (await import('node:fs/promises')).readFile(await download.path(), 'utf8');
  const svg = whole.slice(whole.indexOf('<g class="graph">'));  // the graph's part, in its canvas's own pixels
  const bottoms = [...svg.matchAll(/<rect class="(?:node|context-node)" x="[\d.-]+" y="([\d.-]+)" width="[\d.]+" height="([\d.]+)"/g),
    ...svg.matchAll(/<g class="edge-number"><rect x="[\d.-]+" y="([\d.-]+)" width="[\d.]+" height="([\d.]+)"/g)].map((m) => Number(m[1]) + Number(m[2]));
  assert.ok(bottoms.length > 0, 'the SVG holds the graph\'s tokens');
  await page.evaluate(() => window.scrollTo(0, 0));  // the export's click scrolled to its button
  const top = await page.$eval('figure[data-view="graph"] canvas', (c) => c.getBoundingClientRect().top);
  return top + Math.max(...bottoms);
}

test('the explanation held in view never covers the graph\'s tokens or One query\'s numbers', async () => {
  for (const hash of ['#preset=sun-rises-causal', `#sentence=${encodeURIComponent('I love my cat because it purrs')}`]) {
    const page = await openPage(env.browser, `${env.url}${hash}`, desk);
    assert.equal(await ready(page), 'ready');
    const tokens = await graphBottom(page);
    const box = await (await page.$('.stage figure[data-matrix="weights"] canvas')).boundingBox();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height - 12);
    await page.waitForFunction(() => document.querySelector('#detail h3'), null, { timeout: 5000 });
    const detail = await page.$eval('.detail-wrap', (d) => d.getBoundingClientRect().top);
    assert.ok(detail >= tokens, `${hash}: the explanation's top ${detail} under the graph's last row ${tokens}`);
    await page.context().close();
  }
});

test('a generated ␣ keeps its dotted mark apart, as its chip does: a clear line of pixels between them', async () => {
  const page = await openPage(env.browser, `${env.url}#model=text-gpt&text=${encodeURIComponent('To be, or not to be')}`, desk);
  await page.waitForSelector('.next-token-bars li', { timeout: 60000 });
  // the heatmap's own font and marker, on a canvas of its own: rows of ink under a ␣ and an n
  const rows = await page.evaluate(async (base) => {
    const { underline } = await import(`${base}views/marked-label.js`);
    const { defaults } = await import(`${base}views/heatmap-layout.js`);
    return ['␣', 'n'].map((text) => {
      const canvas = document.createElement('canvas');
      canvas.width = 40; canvas.height = 40;
      const g = canvas.getContext('2d');
      g.font = defaults.font;
      g.textBaseline = 'middle';
      g.textAlign = 'right';
      g.fillStyle = '#000';
      for (const y of [20, 20.25, 20.5, 20.75]) {
        g.clearRect(0, 0, 40, 40);
        g.fillText(text, 30, y);
        underline(g, text, 30, y, 'right');
        const data = g.getImageData(0, 0, 40, 40).data;
        const inked = [];
        for (let r = 0; r < 40; r++) {
          let ink = false;
          for (let c = 0; c < 40; c++) if (data[(r * 40 + c) * 4 + 3] > 40) ink = true;
          inked.push(ink);
        }
        const first = inked.indexOf(true), last = inked.lastIndexOf(true);
        const gaps = inked.slice(first, last + 1).filter((i) => !i).length;
        if (gaps === 0) return { text, y, gaps };
      }
      return { text, gaps: 1 };
    });
  }, env.url);
  for (const r of rows) assert.ok(r.gaps > 0, `${r.text}: its dots touch it (${JSON.stringify(r)})`);
  // the view after Generate: a space Generate wrote is ␣ in the chips and the heatmap's labels
  await page.click('.model-generate button.primary');
  await page.waitForFunction(() => document.querySelectorAll('.token-chip.generated').length > 0);
  const chips = await page.$$eval('.token-chip', (c) => c.map((x) => x.textContent));
  assert.ok(chips.includes('␣'));
  await page.locator('.model-head-panel figure.heatmap').scrollIntoViewIfNeeded();
  await shot(page, 'layout-desktop-generated-light');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
