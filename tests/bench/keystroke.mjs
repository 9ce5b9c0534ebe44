// A keystroke's page work in the Model view, alone and quickly, measured as
// bench_models.mjs measures it (view-keystrokes.mjs: the input's handler, the
// 'model-draw' measure, the next frame's work, summed; 60 keystrokes of up to
// 31 characters of text-gpt), for one or more built sites in alternating
// rounds: on a shared machine, a before and an after are compared in the
// same minutes. --profile FILE also writes a CPU profile (Chromium's
// DevTools protocol) of one round of the first site and prints where its
// time went.
//   node tests/bench/keystroke.mjs SITE_DIR [SITE_DIR …] [--rounds N] [--profile FILE]
import { writeFileSync } from 'node:fs';

import { launch, openPage, serve } from '../browser/browser.mjs';
import { median, percentile, viewKeystrokes } from './view-keystrokes.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const rounds = Number(option('--rounds', '3'));
const profile = option('--profile', null);
const sites = args;
if (!sites.length || !(rounds >= 1)) {
  console.error('usage: node tests/bench/keystroke.mjs SITE_DIR [SITE_DIR …] [--rounds N] [--profile FILE]');
  process.exit(64);
}

const servers = await Promise.all(sites.map((root) => serve({ root })));
const browser = await launch();

async function open(url) {
  const page = await openPage(browser, `${url}index.html#model=text-gpt`);
  await page.waitForFunction(() => document.querySelector('.model-view')?.dataset.state === 'ready'
    && document.querySelector('.model-view')?.dataset.tokens, null, { timeout: 60000 });
  return page;
}

const samples = sites.map(() => []);
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < sites.length; k++) {
    const page = await open(servers[k].url);
    samples[k].push(...(await viewKeystrokes(page)));
    if (page.problems.length) console.error(`${sites[k]}: ${page.problems.join('; ')}`);
    await page.context().close();
  }
}
const f = (n) => n.toFixed(2);
sites.forEach((site, k) => {
  const of = (key) => samples[k].map((s) => s[key]);
  console.log(`${site}: ${samples[k].length} keystrokes; page work median ${f(median(of('total')))} ms, p95 ${f(percentile(of('total'), 0.95))} ms`
    + ` (handler median ${f(median(of('handler')))}, draw ${f(median(of('draw')))}, frame ${f(median(of('frame')))}; p95 ${f(percentile(of('handler'), 0.95))}, ${f(percentile(of('draw'), 0.95))}, ${f(percentile(of('frame'), 0.95))})`);
});

if (profile) {
  const page = await open(servers[0].url);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await viewKeystrokes(page);
  const { profile: cpu } = await cdp.send('Profiler.stop');
  await page.context().close();
  writeFileSync(profile, JSON.stringify(cpu));
  // self time by function, from the samples' intervals
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  const self = new Map();
  cpu.samples.forEach((id, n) => {
    const { callFrame: c } = byId.get(id);
    const name = `${c.functionName || '(anonymous)'} ${c.url.split('/').pop()}:${c.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (cpu.timeDeltas[n + 1] ?? 0) / 1000);
  });
  const idle = ['(idle)', '(program)', '(garbage collector)'];
  const busy = [...self].filter(([name]) => !idle.some((i) => name.startsWith(i)));
  console.log(`profile of 60 keystrokes (${profile}): self time, ms`);
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${f(ms).padStart(8)}  ${name}`);
  console.log(`  busy JS total ${f(busy.reduce((s, [, ms]) => s + ms, 0))} ms`);
}

await browser.close();
for (const { server } of servers) server.close();
