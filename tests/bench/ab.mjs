// Two native builds side by side on the GPT-2-small-shaped model: a change
// that must not move the speed (a refactoring) against the commit before
// it. Rounds alternate which build runs first, so that a machine growing
// busier or quieter moves both alike; each figure is the median over the
// rounds of new ÷ old within a round.
//
//   node tests/bench/ab.mjs OLD_BUILD NEW_BUILD [ROUNDS]
//
// Each build folder holds attention-model-bench and attention-model-split
// (cmake --build DIR --target attention-model-bench attention-model-split).
// Per round and build: the forward of 128 tokens and the load
// (attention-model-bench MODEL 128 3: the median of its 3 forwards), the
// peak memory, and cached generation (attention-model-split MODEL 128 3
// --generate 32: milliseconds a new token, the median of its 3).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { benchDir, gpt2SmallFile } from './gpt2-small.mjs';

const [oldDir, newDir, roundsArg] = process.argv.slice(2);
if (!oldDir || !newDir) {
  console.error('usage: node tests/bench/ab.mjs OLD_BUILD NEW_BUILD [ROUNDS]');
  process.exit(64);
}
const rounds = Number(roundsArg ?? 9);
const model = gpt2SmallFile();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function measure(dir) {
  const bench = JSON.parse(execFileSync(join(dir, 'attention-model-bench'), [model, '128', '3'], { encoding: 'utf8' }));
  const split = JSON.parse(execFileSync(join(dir, 'attention-model-split'), [model, '128', '3', '--generate', '32'],
    { encoding: 'utf8' }));
  return {
    forward_ms: median(bench.forward_ms),
    load_ms: bench.load_ms,
    peak_rss_bytes: bench.peak_rss_bytes,
    token_ms: median(split.generate.map((g) => g.ms / g.tokens)),
  };
}

const metrics = ['forward_ms', 'token_ms', 'load_ms', 'peak_rss_bytes'];
const seen = { old: [], new: [] };
for (let r = 0; r < rounds; ++r) {
  const order = r % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
  for (const which of order) seen[which].push(measure(which === 'old' ? oldDir : newDir));
  console.error(`round ${r + 1}/${rounds}: ${metrics.map((m) => `${m} ${(seen.new[r][m] / seen.old[r][m]).toFixed(3)}`).join(', ')}`);
}

const rows = metrics.map((m) => ({
  metric: m,
  old: median(seen.old.map((x) => x[m])),
  new: median(seen.new.map((x) => x[m])),
  ratio: median(seen.old.map((x, r) => seen.new[r][m] / x[m])),
}));
const result = { model, rounds, old: oldDir, new: newDir, rows, runs: seen };
writeFileSync(join(benchDir, 'ab.json'), `${JSON.stringify(result, null, 1)}\n`);
console.log(`| figure | old | new | new ÷ old (median of ${rounds} rounds) |`);
console.log('| --- | --- | --- | --- |');
for (const { metric, old, new: now, ratio } of rows) {
  const shown = (x) => (metric === 'peak_rss_bytes' ? `${(x / 2 ** 20).toFixed(1)} MiB` : `${x.toFixed(2)} ms`);
  console.log(`| ${metric} | ${shown(old)} | ${shown(now)} | ${ratio.toFixed(3)} |`);
}
