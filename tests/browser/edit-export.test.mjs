// Edit in place, and every export: pictures, the scenario (which loads back
// to the same trace), the trace, and a PyTorch script that Debian's torch
// runs to the same numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { openPage, ready, root, shot, useBrowser } from './browser.mjs';

const env = useBrowser();

async function saved(page, button) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return { name: download.suggestedFilename(), path: await download.path() };
}

async function cell(page, name, keys = []) {
  const index = await page.$$eval('.heatmap .matrix-name', (n, wanted) => n.findIndex((x) => x.textContent.startsWith(wanted)), name);
  const canvas = (await page.$$('.heatmap canvas'))[index];
  await canvas.focus();
  for (const key of keys) await page.keyboard.press(key);
  return Number((await page.textContent('#detail h3')).split('=').pop().trim().replace('−', '-'));
}

// 2e-5 + 1e-4·|expected|
function assertClose(actual, expected, where) {
  assert.equal(actual.length, expected.length, where);
  actual.forEach((a, i) => {
    const e = expected[i] === null ? -Infinity : expected[i];
    const value = a === null ? -Infinity : a;
    if (!Number.isFinite(e)) assert.equal(value, e, `${where}[${i}]`);
    else assert.ok(Math.abs(value - e) <= 2e-5 + 1e-4 * Math.abs(e), `${where}[${i}]: ${value} vs ${e}`);
  });
}

test('an edited cell of x changes the output, and the edit lives in the URL', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=out`);
  await ready(page);
  const before = await cell(page, 'out', ['ArrowDown']);
  await page.click('.step-button[data-step="x"]');
  const x = (await page.$$('.heatmap canvas'))[0];
  await x.click({ position: { x: 60, y: 30 } });  // a single click on x types into the cell
  await page.fill('.cell-editor', '2.5');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash.includes('edits='));
  await ready(page);
  assert.match(await page.textContent('#title'), /\(edited\)$/);
  // focus stays on the matrix that was edited, not on <body>
  await page.waitForFunction(() => document.activeElement?.closest('figure.heatmap')?.querySelector('.matrix-name')?.textContent.startsWith('x'));
  await page.click('.step-button[data-step="out"]');
  const after = await cell(page, 'out', ['ArrowDown']);
  assert.notEqual(after, before);
  await shot(page, 'edit-out');

  // a bad value is refused in place, nothing recomputes
  await page.click('.step-button[data-step="qkv"]');
  const w = (await page.$$('.heatmap canvas'))[0];
  await w.focus();
  await page.keyboard.press('Enter');
  await page.fill('.cell-editor', '1e9');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('.cell-editor', 'aria-invalid'), 'true');
  assert.equal(await page.textContent('.cell-error'), 'a finite number from −1,000,000 to 1,000,000');
  await page.keyboard.press('Escape');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('an exported scenario with edits loads back to the same trace', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=bank-projected&step=weights&edits=x.5=0.75,W_key.1=-2`);
  await ready(page);
  const scenario = await saved(page, '#export-scenario');
  assert.equal(scenario.name, 'bank-projected-edited.json');
  const first = JSON.parse(readFileSync((await saved(page, '#export-trace')).path, 'utf8'));
  assert.equal(first.tensors.x.data[5], 0.75);
  assert.equal(first.tensors.W_key.data[1], -2);

  const fresh = await openPage(env.browser, env.url);
  await ready(fresh);
  await fresh.setInputFiles('#open-file', scenario.path);
  await fresh.waitForFunction(() => location.hash.includes('file=1'));
  await ready(fresh);
  assert.equal(await fresh.$eval('#mode-file', (r) => r.checked), true);
  const again = JSON.parse(readFileSync((await saved(fresh, '#export-trace')).path, 'utf8'));
  assert.deepEqual(again, first);
  await fresh.reload();  // the opened file survives a reload of the tab
  assert.equal(await ready(fresh), 'ready');
  await shot(fresh, 'export-loaded-back');
  await page.context().close();
  await fresh.context().close();
});

test('a file that is not a scenario is refused and the view is kept', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises`);
  await ready(page);
  await page.setInputFiles('#open-file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "id": "bad"}') });
  await page.waitForSelector('#status:not([hidden])');
  assert.equal(await page.textContent('#status'), '"bad.json": tensors: required');
  assert.equal(await page.getAttribute('#app', 'data-state'), 'ready');
  assert.equal(await page.$eval('#preset', (s) => s.value), 'sun-rises');
  await page.context().close();
});

test('PNG and SVG exports picture the matrices and the graph', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=weights`);
  await ready(page);
  const png = readFileSync((await saved(page, '#export-png')).path);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // at 2× whatever the screen (1× here): twice the widest figure, plus margins
  const pngWidth = png.readUInt32BE(16), pngHeight = png.readUInt32BE(20);
  const widest = await page.$$eval('.stage canvas, figure[data-view="graph"] canvas', (c) => Math.max(...c.map((x) => x.getBoundingClientRect().width)));
  assert.ok(pngWidth >= 2 * widest, `${pngWidth} px wide for figures up to ${widest} CSS px`);
  const tall = await page.$$eval('.stage canvas, figure[data-view="graph"] canvas', (c) => c.reduce((h, x) => h + x.getBoundingClientRect().height, 0));
  assert.ok(pngHeight >= 2 * tall + 2 * 50, `${pngHeight} px tall: the title and captions add to ${tall} CSS px of figures`);
  const svg = readFileSync((await saved(page, '#export-svg')).path, 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((svg.match(/class="cell"/g) ?? []).length, 72);  // masked and weights, 6 × 6 each
  assert.equal((svg.match(/class="edge"/g) ?? []).length, 21);
  await page.context().close();
});

test('the PyTorch script, run by Debian\'s torch, prints the core\'s numbers', async () => {
  for (const hash of ['#preset=karpathy-value', '#sentence=the%20cat%20sat%20on%20the%20mat&heads=2&mask=none&temperature=2', '#preset=sun-rises-multihead-projected&edits=W_out.2=-1',
    '#preset=rotary-sun-rises&edits=x.3=2.5']) {
    const page = await openPage(env.browser, env.url + hash);
    await ready(page);
    const script = await saved(page, '#export-pytorch');
    const trace = JSON.parse(readFileSync((await saved(page, '#export-trace')).path, 'utf8'));
    const printed = JSON.parse(execFileSync('/usr/bin/python3', [script.path], { encoding: 'utf8', maxBuffer: 1 << 26 }));
    assert.equal(printed.heads.length, trace.heads.length);
    printed.heads.forEach((head, h) => {
      assertClose(head.weights, trace.heads[h].weights.data, `${hash} heads[${h}].weights`);
      assertClose(head.out, trace.heads[h].out.data, `${hash} heads[${h}].out`);
    });
    assertClose(printed.out, trace.out.data, `${hash} out`);
    await page.context().close();
  }
});

test('screen, legend and SVG export colour a cell the same: scaled keeps the scores\' scale', async () => {
  const page = await openPage(env.browser, `${env.url}#preset=sun-rises-causal&step=scaled`, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  const figure = await page.$('.stage figure.heatmap[data-matrix="scaled"]');
  // scaled states its divisor: √head_size, head_size 2
  assert.equal(await figure.$eval('.matrix-name', (n) => n.textContent), 'scaled = scores ÷ √2 ≈ 1.41');
  const legend = await figure.$$eval('.legend-label', (l) => l.map((x) => x.textContent));
  const { path } = await saved(page, '#export-svg');
  const svg = readFileSync(path, 'utf8');
  const group = svg.slice(svg.indexOf('data-name="scaled"'));
  const [, x, y, fill] = /<rect class="cell" x="([\d.]+)" y="([\d.]+)" width="[\d.]+" height="[\d.]+" fill="rgb\(([^)]+)\)"/.exec(group);
  const pixel = await figure.$eval('canvas', (c, [px, py]) => {
    const ratio = c.width / c.getBoundingClientRect().width;
    return Array.from(c.getContext('2d').getImageData(Math.round((px + 2) * ratio), Math.round((py + 2) * ratio), 1, 1).data).slice(0, 3);
  }, [Number(x), Number(y)]);
  assert.deepEqual(pixel, fill.split(',').map(Number), 'canvas and SVG paint cell (0, 0) alike');
  // the legend states the bound the colours use: the scores', since scaled morphs from them
  const trace = JSON.parse(readFileSync(join(root, 'tests', 'golden', 'sun-rises-causal.trace.json'), 'utf8'));
  const bound = Math.max(...trace.heads[0].scores.data.flat(3).map(Math.abs));
  assert.equal(Number(legend.at(-1).replace('−', '-')), Number(bound.toFixed(2)));
  await page.context().close();
});
