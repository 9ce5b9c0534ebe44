// The lessons as a course, in headless Chromium: the tabs' numbers, the map
// opened from the first screen (one promise per lesson, links that work, the
// keyboard), each lesson's end links, and progress kept in localStorage:
// recorded, kept over a reload, forgotten on request, never sent, and a
// storage that throws breaking nothing. Screenshots go to tests/screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { openPage, ready, screenshotDir, shot, useBrowser } from './browser.mjs';

const env = useBrowser();

const course = [
  ['trick', 'The mathematical trick', 'Averaging'], ['qkv', 'Queries, keys and values', 'Q, K, V'],
  ['encoder', 'Encoder vs. decoder', 'Encoder / decoder'], ['cross', 'Self vs. cross attention', 'Cross-attention'],
  ['multihead', 'Multi-head attention', 'Multi-head'], ['scaling', 'Scaled attention', 'Scaling'],
  ['space', 'No notion of space', 'Word order'], ['position', 'Where is position?', 'Position'],
  ['learn', 'What attention learns', 'Induction heads'], ['lecture', 'Finishing the lecture', 'Lecture GPT'],
];
const key = 'attention-playground-course';

// The links' names as the browser's accessibility tree has them: what a
// screen reader says and what the tab draws (its number is generated content).
async function linkNames(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  return nodes.filter((n) => n.role?.value === 'link').map((n) => n.name?.value.replace(/\s+/g, ' ').trim());
}

// Every request a page makes, by path and method.
function requests(page) {
  const made = [];
  page.on('request', (r) => made.push({ method: r.method(), url: r.url(), body: r.postData() }));
  return made;
}

const courseFiles = (made) => made.filter((r) => /\/app\/course\.(js|css)$/.test(new URL(r.url).pathname));

const stored = (page) => page.evaluate((k) => JSON.parse(localStorage.getItem(k)), key);

async function endOfLesson(page, id) {
  await page.waitForSelector(`#lesson-body[data-lesson="${id}"] .lesson-end`, { timeout: 60000 });
}

test('the tabs carry the lessons\' numbers, 1 to 10, and a first visit loads none of the course', async () => {
  const page = await openPage(env.browser, null, { viewport: { width: 1280, height: 720 } });
  const made = requests(page);
  await page.goto(env.url);
  assert.equal(await ready(page), 'ready');
  const names = await linkNames(page);
  for (const [i, [, , tab]] of course.entries()) assert.ok(names.includes(`${i + 1} ${tab}`), `${i + 1} ${tab} in ${names.join(' | ')}`);
  assert.ok(names.includes('Playground') && names.includes('Train live') && names.includes('Model'), names.join(' | '));
  // the numbers take their room: still one row of tabs at 1280 px
  const tops = await page.$$eval('#lessons-nav a', (a) => new Set(a.map((x) => Math.round(x.getBoundingClientRect().top))).size);
  assert.equal(tops, 1);
  assert.deepEqual(courseFiles(made), [], 'course.js and course.css wait until the map or a lesson opens');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the map opens from the first screen with the keyboard: one promise per lesson, links that work; Escape closes it', async () => {
  const page = await openPage(env.browser, null, { viewport: { width: 1280, height: 720 } });
  const made = requests(page);
  await page.goto(env.url);
  assert.equal(await ready(page), 'ready');
  const playerAt = await page.$eval('.player', (p) => Math.round(p.getBoundingClientRect().bottom));
  await page.focus('#course-toggle');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#course-map li[data-lesson]', { state: 'visible' });
  assert.equal(await page.getAttribute('#course-toggle', 'aria-expanded'), 'true');
  assert.equal(courseFiles(made).length, 2, 'course.js and course.css load when the map opens');
  const map = await page.$$eval('#course-map li[data-lesson]', (items) => items.map((li) => ({
    id: li.dataset.lesson, href: li.querySelector('a').getAttribute('href'), title: li.querySelector('a').textContent,
    promise: li.querySelector('.course-promise').textContent, visible: li.getBoundingClientRect().height > 0,
  })));
  assert.deepEqual(map.map((m) => m.id), course.map(([id]) => id));
  for (const [i, [id, title]] of course.entries()) {
    assert.equal(map[i].href, `#lesson=${id}`);
    assert.equal(map[i].title, `${i + 1} ${title}`);
    assert.ok(map[i].promise.length > 40 && map[i].promise.length < 140, `${id}: one line of promise: ${map[i].promise}`);
  }
  assert.equal(new Set(map.map((m) => m.promise)).size, course.length, 'a promise of its own for each lesson');
  assert.equal(await page.getAttribute('#course-map .course-end a', 'href'), '#model=text-gpt');
  assert.match(await page.textContent('#course-map .course-intro'), /Andrej Karpathy’s “Let’s build GPT” lecture and Sebastian Raschka’s attention notebooks/);
  // over the page, not in its flow: the player stays where it was
  assert.equal(await page.$eval('.player', (p) => Math.round(p.getBoundingClientRect().bottom)), playerAt);
  await shot(page, 'course-map-1280');

  // Tab enters the map; ↓ moves between its links; Escape closes it and gives the focus back
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('href')), '#lesson=trick');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('href')), '#lesson=qkv');
  // the player's keys are not the map's: → in the map leaves the step alone
  const step = await page.textContent('#step-title');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent('#step-title'), step);
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#course-map'), false);
  assert.equal(await page.getAttribute('#course-toggle', 'aria-expanded'), 'false');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'course-toggle');
  // Space toggles it too; a click outside closes it
  await page.keyboard.press('Space');
  await page.waitForSelector('#course-map', { state: 'visible' });
  await page.mouse.click(200, 600);
  assert.equal(await page.isVisible('#course-map'), false);

  // a link in the map opens its lesson and closes the map
  await page.click('#course-toggle');
  await page.click('#course-map a[href="#lesson=encoder"]');
  await page.waitForFunction(() => document.getElementById('lesson-title').textContent === 'Encoder vs. decoder');
  assert.equal(await page.isVisible('#course-map'), false);
  assert.deepEqual(page.problems, []);
  await page.context().close();

  // 390 px, dark: the button beside the title, the map the screen's width
  const phone = await openPage(env.browser, env.url, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  assert.equal(await ready(phone), 'ready');
  const box = await phone.$eval('.masthead', (m) => Math.round(m.getBoundingClientRect().height));
  assert.ok(box < 40, `the masthead stays one line: ${box} px`);
  await phone.click('#course-toggle');
  await phone.waitForSelector('#course-map li[data-lesson]', { state: 'visible' });
  const edges = await phone.$eval('#course-map', (m) => [m.getBoundingClientRect().left, m.getBoundingClientRect().right]);
  assert.ok(edges[0] >= 0 && edges[1] <= 390, `the map inside the screen: ${edges}`);
  assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth), 390);
  await phone.screenshot({ path: join(screenshotDir, 'course-map-390-dark.png') });
  await phone.keyboard.press('Escape');
  assert.equal(await phone.isVisible('#course-map'), false);
  assert.deepEqual(phone.problems, []);
  await phone.context().close();
});

test('every lesson is numbered and ends with a link to the next and one to the map; the last leads to the Model view', async () => {
  const page = await openPage(env.browser, null, { viewport: { width: 1280, height: 720 } });
  for (const [i, [id]] of course.entries()) {
    await page.goto(`${env.url}#lesson=${id}`);
    await endOfLesson(page, id);
    assert.equal(await page.textContent('#lesson-body .lesson-number'), `Lesson ${i + 1} of 10`);
    const next = course[i + 1];
    const link = await page.$eval('.lesson-end .lesson-next', (a) => [a.getAttribute('href'), a.textContent]);
    if (next) assert.deepEqual(link, [`#lesson=${next[0]}`, `Next lesson, ${i + 2}: ${next[1]}`]);
    else assert.deepEqual(link, ['#model=text-gpt', 'The course’s end: read a trained GPT in the Model view']);
    // the map from the end: opened at the top of the page, the focus on this lesson
    await page.click('.lesson-end .lesson-map');
    await page.waitForSelector('#course-map', { state: 'visible' });
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('href')), `#lesson=${id}`);
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#course-map'), false);
  }
  // the last lesson's link opens the Model view
  await page.click('.lesson-end .lesson-next');
  await page.waitForSelector('.model-view', { timeout: 60000 });
  assert.equal(await page.evaluate(() => location.hash.startsWith('#model=text-gpt')), true);
  // the next link works: Averaging → Queries, keys and values
  await page.goto(`${env.url}#lesson=trick`);
  await endOfLesson(page, 'trick');
  await page.click('.lesson-end .lesson-next');
  await page.waitForFunction(() => document.getElementById('lesson-title').textContent === 'Queries, keys and values');
  await endOfLesson(page, 'qkv');
  assert.equal(await page.textContent('#lesson-body .lesson-number'), 'Lesson 2 of 10');
  assert.deepEqual(page.problems, []);
  await page.context().close();

  for (const [viewport, colorScheme, name] of [[{ width: 1280, height: 720 }, 'light', 'course-lesson-end-1280'], [{ width: 390, height: 844 }, 'dark', 'course-lesson-end-390-dark']]) {
    const shown = await openPage(env.browser, `${env.url}#lesson=encoder`, { viewport, colorScheme });
    await endOfLesson(shown, 'encoder');
    await shown.$eval('.lesson-end', (e) => e.scrollIntoView({ block: 'center' }));
    await shown.waitForTimeout(100);  // the scroll settles before the picture; nothing is asserted on it
    await shown.screenshot({ path: join(screenshotDir, `${name}.png`) });
    await shown.context().close();
  }
});

test('progress: a lesson opened and read to its end is kept in this browser, over a reload, and forgotten on request; nothing is sent', async () => {
  const page = await openPage(env.browser, null, { viewport: { width: 1280, height: 720 } });
  const made = requests(page);
  await page.goto(`${env.url}#lesson=trick`);
  await endOfLesson(page, 'trick');
  await page.waitForFunction((k) => localStorage.getItem(k)?.includes('trick'), key);
  assert.deepEqual(await stored(page), { opened: ['trick'], finished: [] }, 'opened, not read to the end yet');
  await page.$eval('.lesson-end', (e) => e.scrollIntoView());
  await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k)).finished.includes('trick'), key);
  await page.click('#lessons-nav a[href="#lesson=qkv"]');
  await endOfLesson(page, 'qkv');
  await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k)).opened.includes('qkv'), key);
  assert.deepEqual(await stored(page), { opened: ['trick', 'qkv'], finished: ['trick'] });

  // a reload on the playground: the map and the tabs show it
  await page.goto(env.url);
  await page.reload();
  assert.equal(await ready(page), 'ready');
  await page.click('#course-toggle');
  await page.waitForSelector('#course-map li[data-lesson]', { state: 'visible' });
  const marks = () => page.$$eval('#course-map li[data-lesson]', (items) => items.map((li) => `${li.dataset.lesson}:${li.dataset.progress}:${li.querySelector('.course-mark').textContent}`));
  const tabs = () => page.$$eval('#lessons-nav a[data-n]', (a) => a.map((x) => x.dataset.progress));
  assert.deepEqual((await marks()).slice(0, 3), ['trick:finished:finished', 'qkv:opened:opened', 'encoder:new:']);
  assert.deepEqual((await tabs()).slice(0, 3), ['finished', 'opened', 'new']);
  assert.match(await page.textContent('#course-map .course-summary'), /^2 of 10 lessons opened, 1 read to the end\. Kept in this browser only, never sent anywhere\.$/);
  await shot(page, 'course-map-progress-1280');

  await page.click('#course-map .course-forget');
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), key), null);
  assert.ok((await marks()).every((m) => m.endsWith(':new:')), (await marks()).join(' '));
  assert.ok((await tabs()).every((p) => p === 'new'));
  assert.match(await page.textContent('#course-map .course-summary'), /^0 of 10 lessons opened, 0 read to the end\./);
  await page.reload();
  assert.equal(await ready(page), 'ready');
  await page.click('#course-toggle');
  await page.waitForSelector('#course-map li[data-lesson]', { state: 'visible' });
  assert.ok((await marks()).every((m) => m.endsWith(':new:')), 'still forgotten after a reload');

  // nothing leaves the browser: every request is a GET of the site's own files
  const origin = new URL(env.url).origin;
  for (const r of made) {
    assert.equal(r.method, 'GET', r.url);
    assert.equal(new URL(r.url).origin, origin, r.url);
    assert.ok(!/trick|qkv|opened|finished/.test(new URL(r.url).search), r.url);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('what is stored but not ours, or damaged, is read as no progress', async () => {
  for (const text of ['{not json', '{"opened":"trick","finished":[1,"<b>x</b>","qkv"]}', 'null']) {
    const page = await openPage(env.browser, null, { viewport: { width: 1280, height: 720 } });
    await page.context().addInitScript(([k, t]) => { if (!sessionStorage.getItem('seeded')) { localStorage.setItem(k, t); sessionStorage.setItem('seeded', '1'); } }, [key, text]);
    await page.goto(env.url);
    assert.equal(await ready(page), 'ready');
    await page.click('#course-toggle');
    await page.waitForSelector('#course-map li[data-lesson]', { state: 'visible' });
    const progress = await page.$$eval('#course-map li[data-lesson]', (items) => items.map((li) => li.dataset.progress));
    // only a known id in a list counts: "qkv" in finished is read as finished (and so opened)
    const expected = text.includes('qkv') ? ['new', 'finished', ...Array(8).fill('new')] : Array(10).fill('new');
    assert.deepEqual(progress, expected, text);
    assert.deepEqual(page.problems, [], text);
    await page.context().close();
  }
});

test('a storage that throws (blocked, private mode) breaks nothing: the lessons, the map and its clear control work', async () => {
  const blockers = {
    'localStorage itself throws': () => Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } }),
    'every call throws': () => {
      for (const name of ['getItem', 'setItem', 'removeItem']) Storage.prototype[name] = () => { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };
    },
  };
  for (const [what, block] of Object.entries(blockers)) {
    const page = await openPage(env.browser, null, { viewport: { width: 1280, height: 720 } });
    await page.context().addInitScript(block);
    await page.goto(`${env.url}#lesson=trick`);
    assert.equal(await ready(page), 'ready', what);
    await endOfLesson(page, 'trick');
    assert.equal(await page.getAttribute('#lessons-nav a[href="#lesson=trick"]', 'data-progress'), 'opened', what);
    // its end reached: read, on the tab
    await page.$eval('.lesson-end', (e) => e.scrollIntoView());
    await page.waitForSelector('#lessons-nav a[href="#lesson=trick"][data-progress="finished"]');
    await page.click('.lesson-end .lesson-map');
    await page.waitForSelector('#course-map li[data-lesson]', { state: 'visible' });
    // remembered for the page, and said so in one line
    assert.equal(await page.getAttribute('#course-map li[data-lesson="trick"]', 'data-progress'), 'finished', what);
    assert.match(await page.textContent('#course-map .course-summary'), /^1 of 10 lessons opened, 1 read to the end\. This browser does not let the page keep it: it lasts until the page closes\.$/, what);
    await page.click('#course-map .course-forget');
    assert.equal(await page.getAttribute('#course-map li[data-lesson="trick"]', 'data-progress'), 'new', what);
    // the lesson's links still work
    await page.keyboard.press('Escape');
    await page.click('.lesson-end .lesson-next');
    await page.waitForFunction(() => document.getElementById('lesson-title').textContent === 'Queries, keys and values');
    await endOfLesson(page, 'qkv');
    assert.deepEqual(page.problems, [], what);
    await page.context().close();
  }
});
