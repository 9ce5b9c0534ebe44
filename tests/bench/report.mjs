// The benchmark page's tables: each bench script replaces its block of
// docs/benchmarks.md, between <!-- NAME:start --> and <!-- NAME:end -->,
// with what it measured. A page without the markers is an error, never a
// silent skip: the figures would go nowhere.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const benchmarksPage = join(new URL('../..', import.meta.url).pathname, 'docs', 'benchmarks.md');

// `text`: the block's lines joined, written between the markers' lines (a
// marker shares no line with text: MyST would read that line as raw HTML)
export function writeBlock(name, text, { page = benchmarksPage } = {}) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const old = readFileSync(page, 'utf8');
  const from = old.indexOf(start);
  const to = old.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${page}: no ${start} … ${end} block for these figures`);
  writeFileSync(page, `${old.slice(0, from + start.length)}\n${text}\n${old.slice(to)}`);
}

// The machine a table was measured on: its CPU model, its cores, the browser.
export function machine() {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? 'an unknown CPU';
  const chromium = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim().replace(/^Chromium /, '').split(' ')[0];
  return `${cpu}, ${execFileSync('nproc', { encoding: 'utf8' }).trim()} cores; Chromium ${chromium}`;
}
