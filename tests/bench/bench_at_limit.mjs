// make bench, training part: the longest training file the core accepts,
// timed. The shape is the one that multiply-adds alone let run 400 s (embed
// 1, four layers with an MLP, batch 256, T 64 on literature.txt): its step
// count is raised until `attention-cli validate` refuses it (naming
// train.steps), and the last accepted file is trained natively with
// `attention-cli train`. Its CPU time must stay within the benchmark page's
// whole-run limit (limits::training::run_seconds, 120 s) plus 25%: the time
// model (core/formats/training_cost.cpp) is meant to estimate at or above
// the real run. Writes tests/bench/at-limit-results.json and the benchmark page's
// line between <!-- bench-at-limit:start --> and <!-- bench-at-limit:end -->.
//
//   node tests/bench/bench_at_limit.mjs [build/native/attention-cli]
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { root } from '../browser/browser.mjs';
import { writeBlock } from './report.mjs';

const cli = process.argv[2] ?? join(root, 'build', 'native', 'attention-cli');
const limitSeconds = 120;  // limits::training::run_seconds
const budgetSeconds = limitSeconds * 1.25;
const dir = mkdtempSync(join(tmpdir(), 'at-limit-'));
copyFileSync(join(root, 'tests', 'golden-training', 'literature.txt'), join(dir, 'literature.txt'));
const path = join(dir, 'at-limit.json');

const file = (steps) => ({
  version: 1, id: 'at-limit', title: 'the longest run the core accepts', seed: 1,
  task: { name: 'text', corpus: 'literature.txt', length: 64 },
  model: { embed: 1, heads: 1, layers: 4, mlp: 8 },
  train: { steps, batch: 256, lr: 0.001 },
  eval: { every: steps, batch: 1, seed: 7 },
});
const accepted = (steps) => {
  writeFileSync(path, JSON.stringify(file(steps)));
  return spawnSync(cli, ['validate', path], { encoding: 'utf8' }).status === 0;
};

// the largest accepted step count, and the line that refuses one more
let lo = 1, hi = 100000;
if (!accepted(lo)) throw new Error('the shape is refused even for one step');
while (lo < hi) {
  const mid = Math.ceil((lo + hi) / 2);
  if (accepted(mid)) lo = mid; else hi = mid - 1;
}
writeFileSync(path, JSON.stringify(file(lo + 1)));
const refusal = spawnSync(cli, ['validate', path], { encoding: 'utf8' }).stderr.trim();
writeFileSync(path, JSON.stringify(file(lo)));
console.error(`at the limit: ${lo} steps; one more: ${refusal}`);

// user CPU time of the run (GNU time when installed, else the wall clock)
const gnuTime = existsSync('/usr/bin/time');
const start = process.hrtime.bigint();
const run = gnuTime
  ? spawnSync('/usr/bin/time', ['-f', '%U %M', cli, 'train', path], { encoding: 'utf8', maxBuffer: 1 << 28 })
  : spawnSync(cli, ['train', path], { encoding: 'utf8', maxBuffer: 1 << 28 });
const wall = Number(process.hrtime.bigint() - start) / 1e9;
rmSync(dir, { recursive: true, force: true });
if (run.status !== 0) throw new Error(`the file at the limit failed: ${run.stderr}`);
const [user, peakKb] = gnuTime ? run.stderr.trim().split('\n').at(-1).split(' ').map(Number) : [wall, null];
const result = {
  shape: file(lo), steps: lo, refusal_one_more: refusal, cpu_seconds: user, wall_seconds: wall,
  peak_mb: peakKb ? Math.round(peakKb / 1024) : null, limit_seconds: limitSeconds, budget_seconds: budgetSeconds,
  met: user <= budgetSeconds,
};
console.log(JSON.stringify(result, null, 1));
writeFileSync(join(root, 'tests', 'bench', 'at-limit-results.json'), `${JSON.stringify(result, null, 1)}\n`);

const line = `The longest accepted run (embed 1, 4 layers with an MLP, batch 256, \`T\` 64 on \`literature.txt\`, ${lo} steps; ${lo + 1} are refused naming \`train.steps\`) took ${user.toFixed(1)} s of one core natively (${wall.toFixed(0)} s wall on the shared machine; limit ${limitSeconds} s, budget ${budgetSeconds} s).`;
writeBlock('bench-at-limit', line);
if (!result.met) {
  console.error(`missed: the run at the limit took ${user} s, beyond the budget of ${budgetSeconds} s`);
  process.exit(1);
}
