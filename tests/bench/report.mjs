// The benchmark page's tables: each bench script replaces its block of
// docs/benchmarks.md, between <!-- NAME:start --> and <!-- NAME:end -->,
// with what it measured. A page without the markers is an error, never a
// silent skip: the figures would go nowhere.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const benchmarksPage = join(new URL('../..', import.meta.url).pathname, 'docs', 'benchmarks.md');

// `text`: the block's lines joined; `inline`: on the markers' own line
export function writeBlock(name, text, { inline = false, page = benchmarksPage } = {}) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const old = readFileSync(page, 'utf8');
  const from = old.indexOf(start);
  const to = old.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${page}: no ${start} … ${end} block for these figures`);
  const body = inline ? text : `\n${text}\n`;
  writeFileSync(page, old.slice(0, from + start.length) + body + old.slice(to));
}
