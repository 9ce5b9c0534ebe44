// Writes web/lessons/ladder.json, the numbers of the lesson "Finishing the
// lecture": each rung of the lecture's ladder (web/trainings/text-*.json)
// trained by the core, attention-cli train, start to end. Its validation loss
// and sample at every evaluation, the training loss (the mean of the last
// eval.every steps), the parameters. Never PyTorch's files: the core's own
// run, which tests/training/test_training.cpp repeats and compares.
// usage: node scripts/ladder.mjs build/native/attention-cli
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const rungs = ['text-bigram', 'text-one-head', 'text-four-heads', 'text-mlp', 'text-gpt'];

const cli = process.argv[2];
if (!cli) {
  console.error('usage: node scripts/ladder.mjs build/native/attention-cli');
  process.exit(64);
}
const web = new URL('../web/', import.meta.url).pathname;

const ladder = { version: 1, corpus: 'literature.txt', rungs: [] };
for (const id of rungs) {
  const path = join(web, 'trainings', `${id}.json`);
  const file = JSON.parse(readFileSync(path, 'utf8'));
  const started = Date.now();
  const trace = JSON.parse(execFileSync(cli, ['train', path], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const every = file.eval.every;
  const last = trace.loss.slice(-every);
  ladder.rungs.push({
    id,
    title: file.title,
    parameters: trace.parameters,
    steps: file.train.steps,
    every,
    train_loss: Number((last.reduce((sum, loss) => sum + loss, 0) / last.length).toPrecision(7)),
    evals: trace.evals.map((e) => ({ step: e.step, loss: e.loss, sample: e.sample })),
  });
  console.log(`${id}: ${trace.parameters} parameters, validation loss ${trace.evals.at(-1).loss} after ${file.train.steps} steps (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
writeFileSync(join(web, 'lessons', 'ladder.json'), `${JSON.stringify(ladder, null, 1)}\n`);
