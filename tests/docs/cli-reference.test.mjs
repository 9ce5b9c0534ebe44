// The command-line reference (docs/reference/cli.md) against the CLI itself:
// its generated usage block must be the CLI's usage, byte for byte, and
// every command the usage lists must have its own section.
//   node --test tests/docs/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = resolve(root, process.env.ATTENTION_NATIVE_DIR ?? 'build/native', 'attention-cli');
const script = join(root, 'scripts/docs/cli-reference.mjs');
const page = join(root, 'docs/reference/cli.md');

const generator = (...args) => spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8' });

function usage() {
  const run = spawnSync(cli, [], { encoding: 'utf8' });
  assert.equal(run.error, undefined, `cannot run ${cli}`);
  assert.equal(run.status, 64);
  return run.stderr;
}

// A copy of the page in a temporary folder, changed by `edit`; removed after `use`.
function withCopy(edit, use) {
  const folder = mkdtempSync(join(tmpdir(), 'cli-reference-'));
  try {
    const copy = join(folder, 'cli.md');
    writeFileSync(copy, edit(readFileSync(page, 'utf8')));
    use(copy);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test('the page holds the CLI\'s usage text exactly, between its markers', () => {
  const text = readFileSync(page, 'utf8');
  const start = text.indexOf('<!-- generated:cli-usage:start -->\n');
  const end = text.indexOf('<!-- generated:cli-usage:end -->');
  assert.ok(start >= 0 && end > start, 'the markers are on the page');
  const block = text.slice(start, end);
  assert.ok(block.includes(`\`\`\`text\n${usage().trimEnd()}\n\`\`\`\n`), 'the usage block is the CLI\'s usage');
  const check = generator('--check');
  assert.equal(check.status, 0, check.stderr);
});

test('--check fails when the page and the usage differ, and a run mends the page', () => {
  const line = '  74  standard output could not be written (disk full, stream closed)';
  assert.ok(usage().includes(`${line}\n`), 'the usage has the line this test removes');
  withCopy((text) => text.replace(`${line}\n`, ''), (copy) => {
    const check = generator('--check', '--page', copy);
    assert.equal(check.status, 1);
    assert.match(check.stderr, /cli\.md differs from what the sources give/);
    assert.equal(generator('--page', copy).status, 0);
    assert.equal(readFileSync(copy, 'utf8'), readFileSync(page, 'utf8'));
    assert.equal(generator('--check', '--page', copy).status, 0);
  });
});

test('a page without the markers is an error, not a silent pass', () => {
  withCopy((text) => text.replace('<!-- generated:cli-usage:end -->', ''), (copy) => {
    const check = generator('--check', '--page', copy);
    assert.equal(check.status, 2);
    assert.match(check.stderr, /generated:cli-usage:end/);
  });
});

test('every command of the usage has its own section on the page', () => {
  const commands = new Set();
  let inCommands = false;
  for (const line of usage().split('\n')) {
    if (line === 'commands:') inCommands = true;
    else if (line === '' || line.endsWith(':')) inCommands = false;
    else if (inCommands && /^ {2}[a-z]/.test(line)) commands.add(line.trim().split(' ')[0]);
  }
  assert.deepEqual([...commands].sort(), ['head', 'lens', 'model', 'trace', 'train', 'validate']);
  const headings = readFileSync(page, 'utf8').split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
  for (const command of commands) assert.ok(headings.includes(command), `a section "## ${command}"`);
});
