// The generated parts of the documentation's pages: a block between the
// lines <!-- generated:NAME:start --> and <!-- generated:NAME:end -->, which
// a generator in this folder writes from the code (or, with --check,
// compares). Shared by cli-reference.mjs, wasm-reference.mjs and
// limits-reference.mjs.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// The page's text with the lines between the markers of `name` replaced by
// `body`; throws when the markers are missing, doubled or out of order.
export function replaceGenerated(text, name, body) {
  const start = `<!-- generated:${name}:start -->`;
  const end = `<!-- generated:${name}:end -->`;
  const lines = text.split('\n');
  const at = (marker) => lines.flatMap((line, i) => (line.trim() === marker ? [i] : []));
  const starts = at(start);
  const ends = at(end);
  if (starts.length !== 1 || ends.length !== 1 || ends[0] < starts[0]) {
    throw new Error(`expected one line ${start} and, after it, one line ${end}`);
  }
  const inside = body.endsWith('\n') ? body.slice(0, -1).split('\n') : body.split('\n');
  return [...lines.slice(0, starts[0] + 1), ...inside, ...lines.slice(ends[0])].join('\n');
}

// Writes the page, or with `check` compares it; returns the exit status.
// `tool` names the script in messages.
export function writeOrCheck({ tool, page, name, body, check }) {
  const shown = relative(process.cwd(), page) || page;
  let text;
  try {
    text = readFileSync(page, 'utf8');
  } catch (e) {
    console.error(`${tool}: cannot read ${shown} (${e.code ?? e.message})`);
    return 2;
  }
  let updated;
  try {
    updated = replaceGenerated(text, name, body);
  } catch (e) {
    console.error(`${tool}: ${shown}: ${e.message}`);
    return 2;
  }
  if (check) {
    if (updated === text) return 0;
    console.error(`${tool}: ${shown} differs from what the sources give; run node scripts/docs/${tool}.mjs`);
    return 1;
  }
  if (updated !== text) writeFileSync(page, updated);
  return 0;
}

// The options every generator takes: --check and --page FILE; null (and a
// message) for anything else.
export function readOptions(argv, tool, defaultPage) {
  const options = { check: false, page: resolve(root, defaultPage) };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--check') options.check = true;
    else if (argv[i] === '--page' && i + 1 < argv.length) options.page = resolve(argv[++i]);
    else {
      console.error(`${tool}: unknown argument ${JSON.stringify(argv[i])}; usage: ${tool}.mjs [--check] [--page FILE.md]`);
      return null;
    }
  }
  return options;
}
