// embed.html's hash is a link anyone can craft (issue 17): it takes the
// page's hash limit with the page's notice, and its "Open in the playground"
// link goes only to this site. Screenshots of each notice at 1280 and 390 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, shot, useBrowser } from './browser.mjs';

const env = useBrowser();

// embed.html at `hash`, once its element is ready or has failed:
// {state, notice (null when hidden), link (the "Open in the playground" href)}.
async function openEmbed(hash, viewport = { width: 1280, height: 720 }) {
  const page = await openPage(env.browser, `${env.url}embed.html${hash}`, { viewport });
  const state = await ready(page, 'attention-playground');
  const seen = await page.evaluate(() => {
    const notice = document.getElementById('notice');
    const element = document.querySelector('attention-playground');
    return {
      notice: notice && !notice.hidden ? notice.textContent : null,
      link: element.shadowRoot.querySelector('a.open')?.href ?? null,
      message: element.shadowRoot.querySelector('.message')?.textContent ?? null,
      drawn: element.shadowRoot.querySelectorAll('canvas').length,
    };
  });
  return { page, state, ...seen };
}

test('embed.html with a hash over 16,384 characters: the page\'s notice, and its default view', async () => {
  // a caption far over its 400 characters: applied, it would be the element's error
  const hash = `#scenario=bank-raw&caption=${'a'.repeat(17000)}`;
  const main = await openPage(env.browser, `${env.url}${hash}`);
  assert.equal(await ready(main), 'ready');
  const pageNotice = await main.textContent('#notice');
  assert.match(pageNotice, /the link's settings are 17027 characters long; the limit is 16384, so all were ignored/);
  await main.context().close();

  for (const [width, height] of [[1280, 720], [390, 844]]) {
    const { page, state, notice, message, drawn } = await openEmbed(hash, { width, height });
    assert.equal(state, 'ready', `${width}: ${message}`);
    assert.equal(notice, pageNotice, `${width}: the same notice as the page`);
    assert.ok(drawn > 0, `${width}: the default view is drawn`);
    assert.equal(await page.$eval('attention-playground', (e) => e.shadowRoot.querySelector('.title').textContent),
      "Causal (masked) self-attention over 'The sun rises in the east' (seed 123)", `${width}: the default scenario, not the hash's`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, `${width}: no sideways scroll`);
    await shot(page, `embed-notice-long-hash-${width}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
  // a hash within the limit has no notice
  const { page, notice } = await openEmbed('#scenario=bank-raw');
  assert.equal(notice, null);
  await page.context().close();
});

test('embed.html\'s playground= must be on this site: same-origin and relative URLs are the link, others are refused', async () => {
  const defaultLink = `${env.url}index.html#step=weights`;
  const used = {
    [`${env.url}index.html`]: `${env.url}index.html#step=weights`,
    'index.html?from=embed': `${env.url}index.html?from=embed#step=weights`,
    '/docs/playground/': `${env.url}docs/playground/#step=weights`,
  };
  for (const [playground, link] of Object.entries(used)) {
    const { page, state, notice, ...seen } = await openEmbed(`#playground=${encodeURIComponent(playground)}`);
    assert.equal(state, 'ready', `${playground}: ${seen.message}`);
    assert.equal(seen.link, link, playground);
    assert.equal(notice, null, playground);
    await page.context().close();
  }
  const refused = ['https://evil.example/phish', '//evil.example/x', 'javascript:alert(document.domain)',
    'data:text/html,<script>alert(1)</script>', 'JaVa\tScRiPt:alert(1)', `${env.url.replace('http:', 'https:')}index.html`];
  for (const [i, playground] of refused.entries()) {
    for (const [width, height] of i === 0 ? [[1280, 720], [390, 844]] : [[1280, 720]]) {
      const { page, state, notice, ...seen } = await openEmbed(`#playground=${encodeURIComponent(playground)}`, { width, height });
      assert.equal(state, 'ready', `${playground}: ${seen.message}`);
      assert.equal(seen.link, defaultLink, `${playground}: the link falls back to the default`);
      assert.ok(notice, `${playground}: refused with a notice`);
      assert.equal(notice.split('\n').length, 1, `${playground}: one line`);
      assert.match(notice, /^Some link settings were not valid and were replaced: playground must be a relative URL or a URL on this site; got "/);
      assert.ok(notice.includes(JSON.stringify(playground).slice(0, 41)), `${playground}: quoted, never raw: ${notice}`);
      if (i === 0) await shot(page, `embed-notice-playground-${width}`);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  }
  // live: a hash change refuses, and a good one clears the notice
  const { page } = await openEmbed('#playground=index.html');
  await page.evaluate(() => { location.hash = '#playground=https://evil.example/phish'; });
  await page.waitForFunction(() => !document.getElementById('notice').hidden);
  await page.evaluate(() => { location.hash = '#playground=index.html'; });
  await page.waitForFunction(() => document.getElementById('notice').hidden);
  await page.context().close();
});
