#!/usr/bin/env node
// Writes the CLI's usage text into the command-line reference page.
//
//   node scripts/docs/cli-reference.mjs [--check] [--page FILE.md]
//
// Runs ${ATTENTION_NATIVE_DIR ?? 'build/native'}/attention-cli with no
// arguments (it prints its usage on standard error and exits 64) and puts
// that text, as a ```text block, between the page's lines
// `<!-- generated:cli-usage:start -->` and `<!-- generated:cli-usage:end -->`
// (default page: docs/reference/cli.md). With --check it writes nothing and
// exits 1 when the page's block differs from the CLI's usage. Exits 2 when
// the CLI or the markers cannot be found.
//
// The block's mechanics are generated-block.mjs's.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { readOptions, root, writeOrCheck } from './generated-block.mjs';


// The usage text as the CLI prints it, or throws naming what went wrong.
export function cliUsage() {
  const cli = resolve(root, process.env.ATTENTION_NATIVE_DIR ?? 'build/native', 'attention-cli');
  const run = spawnSync(cli, [], { encoding: 'utf8' });
  if (run.error) throw new Error(`cannot run ${cli} (${run.error.code ?? run.error.message}); build it with make native`);
  if (run.status !== 64 || run.stdout !== '' || !run.stderr.startsWith('usage: ')) {
    throw new Error(`${cli} with no arguments exited ${run.status}; expected its usage on standard error and exit 64`);
  }
  return run.stderr;
}

function main(argv) {
  const tool = 'cli-reference';
  const options = readOptions(argv, tool, 'docs/reference/cli.md');
  if (!options) return 64;
  let usage;
  try {
    usage = cliUsage();
  } catch (e) {
    console.error(`${tool}: ${e.message}`);
    return 2;
  }
  const body = `\`\`\`text\n${usage.trimEnd()}\n\`\`\`\n`;
  return writeOrCheck({ tool, page: options.page, name: 'cli-usage', body, check: options.check });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
