// wasm/README.md against the bindings' registration (scripts/docs/wasm-readme.mjs):
// its --check must pass on the committed README and fail, naming the call,
// on a copy that leaves a registered call out, gives one the wrong number
// of arguments, writes `…` for them, or names a call nothing registers.
//   node --test tests/docs/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registeredCalls } from '../../scripts/docs/wasm-readme.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'wasm', 'README.md'), 'utf8');
const check = (...args) => spawnSync(process.execPath, [join(root, 'scripts/docs/wasm-readme.mjs'), '--check', ...args], { cwd: root, encoding: 'utf8' });

// The check on a copy of the README changed by `edit`: {status, stderr}.
function checkCopy(edit) {
  const folder = mkdtempSync(join(tmpdir(), 'wasm-readme-'));
  try {
    const copy = join(folder, 'README.md');
    const changed = edit(readme);
    assert.notEqual(changed, readme, 'the edit changes the copy');
    writeFileSync(copy, changed);
    return check('--page', copy);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test('wasm-readme.mjs --check passes on wasm/README.md', () => {
  const result = check();
  assert.equal(result.status, 0, result.stderr);
});

test('every binding file with an EMSCRIPTEN_BINDINGS block is read, the models\' run among its calls', () => {
  const modules = registeredCalls(root);
  assert.deepEqual(modules.map((m) => m.file), ['bindings.cpp', 'model_bindings.cpp', 'training_bindings.cpp']);
  const calls = new Map(modules.find((m) => m.file === 'model_bindings.cpp').exports.map((e) => [e.js, e.parameters.length]));
  assert.equal(calls.get('run'), 5);
  assert.equal(calls.get('runResult'), 5);
  assert.equal(calls.get('attention'), 2);
});

test('a call documented with the wrong number of arguments fails, naming it', () => {
  // the README as it was: run(tokensJson, topK), when the binding takes five
  const result = checkCopy((text) => text.replace(/`run\(tokensJson, topK, temperature, warperTopK,\s+topP\)`/, '`run(tokensJson, topK)`'));
  assert.equal(result.status, 1);
  assert.match(result.stderr, /`run\(tokensJson, topK\)`: Model\.run takes 5 arguments \(tokens, top, temperature, topK, topP\), not 2/);
});

test('a registered call missing from its section fails, naming the call and its file', () => {
  const result = checkCopy((text) => text.replace(/`attention\(layer,\s+head\)` one head of it and /, ''));
  assert.equal(result.status, 1);
  assert.match(result.stderr, /Model\.attention\(layer, head\) of wasm\/model_bindings\.cpp is registered but not written/);
});

test('… for the arguments, a call nothing registers, and a file without a section each fail', () => {
  const dots = checkCopy((text) => text.replace('`lens(requestJson)`', '`lens(…)`'));
  assert.equal(dots.status, 1);
  assert.match(dots.stderr, /`lens\(…\)`: write its arguments \(request\)/);
  const unknown = checkCopy((text) => text.replace('`lastLogits()`', '`lastLogits()`, `topIds()`'));
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /`topIds\(\)` is not registered in wasm\/model_bindings\.cpp/);
  const section = checkCopy((text) => text.replace("## The trainer's module (`training_bindings.cpp`)", "## The trainer's module"));
  assert.equal(section.status, 1);
  assert.match(section.stderr, /no "## " section names `training_bindings\.cpp`/);
});
