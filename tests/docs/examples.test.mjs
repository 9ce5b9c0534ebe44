// The documentation's runnable examples (scripts/docs/run-examples.mjs):
// every `% runnable` block in README.md and docs/ gives the output it shows,
// and the runner itself fails where it should (a wrong output, a wrong exit
// status, a timeout) and passes where `...` stands for the lines between.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const runner = join(root, 'scripts/docs/run-examples.mjs');
const nativeDir = process.env.ATTENTION_NATIVE_DIR ?? 'build/native';
const cli = resolve(root, nativeDir, 'attention-cli');

function run(args, env = {}) {
  const r = spawnSync(process.execPath, [runner, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 600_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// A Markdown file in a fresh folder, removed after the test.
function markdown(t, text) {
  const folder = mkdtempSync(join(tmpdir(), 'run-examples-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'page.md');
  writeFileSync(file, text);
  return file;
}

const block = (...lines) => ['% runnable', '```console', ...lines, '```', ''].join('\n');

test('the CLI the examples run exists', () => {
  assert.ok(existsSync(cli), `${cli} is missing: build it (make native) or set ATTENTION_NATIVE_DIR`);
});

test('every runnable example in README.md and docs/ gives the output it shows', () => {
  const r = run([]);
  assert.equal(r.status, 0, `mismatches:\n${r.stdout}${r.stderr}`);
  assert.equal(r.stdout, '');
  // the docs hold examples at all: a runner that found none would pass too
  const counted = /run-examples: (\d+) commands? in (\d+) blocks?/.exec(r.stderr);
  assert.ok(counted, r.stderr);
  assert.ok(Number(counted[1]) >= 10, `only ${counted[1]} commands found`);
});

test('a matching block passes, with `...` standing for any run of lines', (t) => {
  const file = markdown(t, `# A page\n\n${block(
    '$ printf "one\\ntwo\\nthree\\nfour\\n"',
    'one',
    '...',
    'four',
    '$ printf "alone\\n"',
    'alone',
    '...',
    '$ attention-cli validate docs/formats/examples/scenario.json',
    'valid: two-heads-three-words (B=1, Tq=3, Tkv=3, heads=2, mask=causal)',
    '$ echo "trailing spaces   "',
    'trailing spaces',
  )}`);
  const r = run([file]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /4 commands in 1 block of 1 file; 0 mismatches/);
});

test('a wrong expected output fails, naming the file, the line and the difference', (t) => {
  const file = markdown(t, `# A page\n\n${block(
    '$ echo right',
    'right',
    '$ printf "a\\nb\\nc\\n"',
    'a',
    '...',
    'd',
  )}`);
  const r = run([file]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, `${file}:7: output line 4: expected "d", got (end of output)\n`);
});

test('an output that is a line short or a line long fails', (t) => {
  const file = markdown(t, `${block('$ printf "a\\nb\\n"', 'a')}\n${block('$ echo a', 'a', 'b')}`);
  const r = run([file]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, [
    `${file}:3: output line 2: expected (end of output), got "b"`,
    `${file}:9: output line 2: expected "b", got (end of output)`,
    '',
  ].join('\n'));
});

test('a wrong exit status fails: a refusal without [exit N], and a wrong N', (t) => {
  const file = markdown(t, block(
    '$ attention-cli validate docs/formats/examples/no-such-file.json',
    '"docs/formats/examples/no-such-file.json": cannot open',
    '$ attention-cli validate docs/formats/examples/no-such-file.json',
    '"docs/formats/examples/no-such-file.json": cannot open',
    '[exit 3]',
    '$ attention-cli validate docs/formats/examples/no-such-file.json',
    '"docs/formats/examples/no-such-file.json": cannot open',
    '[exit 2]',
    '$ true',
    '[exit 1]',
  ));
  const r = run([file]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, [
    `${file}:3: exit 2, expected 0 (end the output with a line [exit N])`,
    `${file}:5: exit 2, expected 3`,
    `${file}:11: exit 0, expected 1`,
    '',
  ].join('\n'));
});

test('commands run from the repository root with the native CLI first on PATH', (t) => {
  const file = markdown(t, block('$ pwd', root, '$ command -v attention-cli', cli, '$ attention-cli', '...', '[exit 64]'));
  const r = run([file]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('standard error is shown with standard output, in the order written', (t) => {
  const file = markdown(t, block('$ echo one; echo two >&2; echo three', 'one', 'two', 'three'));
  assert.equal(run([file]).status, 0);
});

test('a command past its time is stopped, its whole pipeline with it, and reported', (t) => {
  const file = markdown(t, block('$ sleep 30 | cat', '$ echo after', 'after'));
  const started = Date.now();
  const r = run([file], { RUN_EXAMPLES_TIMEOUT_SECONDS: '1' });
  assert.ok(Date.now() - started < 20_000, 'the runner waited for the pipeline');
  assert.equal(r.status, 1);
  assert.equal(r.stdout, `${file}:3: timed out after 1 s: sleep 30 | cat\n`);
});

test('a `% runnable` line without a console block is reported; fenced ones are text', (t) => {
  const file = markdown(t, [
    '```markdown', '% runnable', '```', '',
    '% runnable', '```sh', '$ echo a', '```', '',
    '% runnable', '```console', '$ echo a', 'a', '```',
  ].join('\n'));
  const r = run([file]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, `${file}:5: % runnable is not followed by a \`\`\`console block\n`);
  assert.match(r.stderr, /1 command in 1 block/);
});

test('--show prints each command and its actual output, ready to paste', (t) => {
  const file = markdown(t, block('$ printf "x\\ny\\n"', 'wrong', '$ exit 5'));
  const r = run(['--show', file]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, [
    `${file}:3:`, '$ printf "x\\ny\\n"', 'x', 'y', '',
    `${file}:5:`, '$ exit 5', '[exit 5]', '',
    `${file}:3: output line 1: expected "wrong", got "x"`,
    `${file}:5: exit 5, expected 0 (end the output with a line [exit N])`,
    '',
  ].join('\n'));
});
