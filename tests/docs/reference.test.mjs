// The generated reference pages against their sources: the wasm bindings
// (docs/reference/wasm.md) and the limits (docs/reference/limits.md). Each
// generator's --check must pass on the committed page and fail on a copy
// that differs; the pages must name every export and every limit.
//   node --test tests/docs/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate, expressionOf } from '../../scripts/docs/limits-reference.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (path) => readFileSync(join(root, path), 'utf8');

const run = (script, ...args) => spawnSync(process.execPath, [join(root, 'scripts/docs', script), ...args], { cwd: root, encoding: 'utf8' });

// A copy of `page` changed by `edit`, in a temporary folder removed after `use`.
function withCopy(page, edit, use) {
  const folder = mkdtempSync(join(tmpdir(), 'reference-'));
  try {
    const copy = join(folder, 'page.md');
    const text = read(page);
    const changed = edit(text);
    assert.notEqual(changed, text, 'the edit changes the copy');
    writeFileSync(copy, changed);
    use(copy);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const generators = [
  { script: 'wasm-reference.mjs', page: 'docs/reference/wasm.md', line: /^- `heapInUse\(\) → number`.*$/m },
  { script: 'limits-reference.mjs', page: 'docs/reference/limits.md', line: /^\| `scenario_bytes` \| 16,777,216 \|.*$/m },
];

for (const { script, page, line } of generators) {
  test(`${script} --check passes on ${page}`, () => {
    const check = run(script, '--check');
    assert.equal(check.status, 0, check.stderr);
  });

  test(`${script} --check fails on a copy of ${page} that differs, and a run mends it`, () => {
    // a generated line changed: what a stale page looks like
    withCopy(page, (text) => text.replace(line, (found) => found.replace(/\|? *$/, ' (changed) |')), (copy) => {
      const check = run(script, '--check', '--page', copy);
      assert.equal(check.status, 1, check.stderr);
      assert.match(check.stderr, /page\.md differs from what the sources give/);
      assert.equal(run(script, '--page', copy).status, 0);
      assert.equal(readFileSync(copy, 'utf8'), read(page));
    });
    // the markers gone: an error, not a silent pass
    withCopy(page, (text) => text.replace(/<!-- generated:[\w-]+:end -->/, ''), (copy) => {
      assert.equal(run(script, '--check', '--page', copy).status, 2);
    });
  });
}

test('the wasm page names every export of every EMSCRIPTEN_BINDINGS block', () => {
  const page = read('docs/reference/wasm.md');
  let count = 0;
  for (const file of ['wasm/bindings.cpp', 'wasm/training_bindings.cpp', 'wasm/model_bindings.cpp']) {
    const source = read(file);
    const block = source.slice(source.indexOf('EMSCRIPTEN_BINDINGS'));
    for (const m of block.matchAll(/(?:\.function|emscripten::function)\("(\w+)"|class_<\w+>\("(\w+)"\)/g)) {
      const name = m[1] ?? m[2];
      assert.ok(page.includes(m[1] ? `\`${name}(` : `Class \`${name}\``), `${file}: ${name} is on the page`);
      count++;
    }
  }
  assert.ok(count > 55, `${count} exports`);  // fewer since a model file and a folder open through the same calls
});

test('the limits page names every constant of limits.hpp with its value', () => {
  const page = read('docs/reference/limits.md');
  const header = read('core/formats/limits.hpp');
  const known = new Map();
  let count = 0;
  for (const m of header.matchAll(/inline\s+constexpr\s+[\w:]+\s+(\w+)\s*=\s*([^;]+);/g)) {
    const value = evaluate(m[2], known);
    known.set(m[1], value);
    const shown = typeof value === 'number' && !Number.isInteger(value) ? String(value) : BigInt(value).toLocaleString('en-US');
    assert.ok(page.includes(`| \`${m[1]}\` | ${shown} |`), `${m[1]} = ${shown} is on the page`);
    count++;
  }
  assert.ok(count > 50, `${count} constants`);
});

test('the limits generator reads the sources\' expressions as they are written', () => {
  assert.equal(evaluate('16u << 20'), 16777216n);
  assert.equal(evaluate('std::uint64_t{3} << 29'), 1610612736n);
  assert.equal(evaluate('16 * 1024 * 1024'), 16777216n);
  assert.equal(evaluate('2 ** 31 - 1'), 2147483647n);
  assert.equal(evaluate('1e-3'), 0.001);
  assert.equal(evaluate('attention::limits::trace_numbers', new Map([['trace_numbers', 7n]])), 7n);
  assert.throws(() => evaluate('sizeof(int)'), /cannot evaluate/);
  assert.equal(expressionOf('export const attentionLimits = {\n  tokens: 512,  // T\n};', 'attentionLimits.tokens'), '512');
  assert.equal(expressionOf('const x = 1;', 'gone'), null);
});
