// web/'s import direction, as web/README.md's ```layers block states it:
// every import, dynamic import and worker of a module in web/ reaches a module
// that exists, of its own part or of a part its line allows, and no module
// imports itself back through others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');

// "part → allowed parts", one line each
const layers = new Map();
const block = /^```layers\n([\s\S]*?)^```$/m.exec(readFileSync(join(web, 'README.md'), 'utf8'));
for (const line of block?.[1].split('\n') ?? []) {
  const [part, arrow, ...allowed] = line.trim().split(/\s+/);
  if (arrow === '→') layers.set(part, allowed);
}

// web/'s modules by their path from web/ ('app/main.js'); scenarios/ and
// trainings/ hold JSON and text only
const modules = readdirSync(web, { recursive: true }).map((p) => p.split('\\').join('/')).filter((p) => p.endsWith('.js')).sort();

// the most specific name listed: the file, else its folder, else the root file
function partOf(path) {
  if (layers.has(path)) return path;
  const folder = path.split('/')[0];
  return path.includes('/') ? folder : path;
}

// [{target, worker}] for every relative import, import() and new Worker(new URL(…)) of a module
const specifier = /^\s*(?:import|export)\s[^'"]*?from\s*(['"])([^'"]+)\1|^\s*import\s*(['"])([^'"]+)\3|\bimport\(\s*(['"])([^'"]+)\5\s*\)|new Worker\(\s*new URL\(\s*(['"])([^'"]+)\7/gm;
function importsOf(path) {
  const text = readFileSync(join(web, path), 'utf8');
  return [...text.matchAll(specifier)]
    .map((m) => ({ spec: m[2] ?? m[4] ?? m[6] ?? m[8], worker: m[8] !== undefined }))
    .filter(({ spec }) => spec.startsWith('.'))
    .map(({ spec, worker }) => ({ spec, worker, target: posix.normalize(posix.join(posix.dirname(path), spec)) }));
}

test('web/README.md lists every part of web/ that holds modules, each part once', () => {
  assert.ok(layers.size > 0, 'web/README.md has a ```layers block');
  const parts = new Set(modules.map(partOf));
  for (const part of parts) assert.ok(layers.has(part), `${part}: not in web/README.md's layers`);
  for (const [part, allowed] of layers) {
    assert.ok(parts.has(part), `${part}: listed in web/README.md but holds no module`);
    for (const other of allowed) assert.ok(layers.has(other), `${part} → ${other}: ${other} is not a part`);
  }
});

test("every module's imports exist and point the way web/README.md draws", () => {
  const wrong = [];
  let checked = 0;
  for (const path of modules) {
    const part = partOf(path);
    for (const { spec, target } of importsOf(path)) {
      checked++;
      if (target.startsWith('..') || !existsSync(join(web, target))) {
        wrong.push(`web/${path}: ${spec} is not a module of web/`);
        continue;
      }
      const to = partOf(target);
      if (to !== part && !layers.get(part)?.includes(to)) wrong.push(`web/${path}: ${spec} goes against web/README.md (${part} may import: ${layers.get(part)?.join(' ') || 'nothing else'})`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(checked > 100, `only ${checked} imports read: the pattern no longer matches web/'s imports`);
});

test('no module of web/ imports itself back through others', () => {
  // a worker runs in a realm of its own: its imports start a graph of their own
  const graph = new Map(modules.map((path) => [path, importsOf(path).filter((i) => !i.worker).map((i) => i.target)]));
  const cycles = [];
  const done = new Set();
  const visit = (path, stack) => {
    if (stack.includes(path)) {
      cycles.push([...stack.slice(stack.indexOf(path)), path].join(' → '));
      return;
    }
    if (done.has(path)) return;
    for (const next of graph.get(path) ?? []) visit(next, [...stack, path]);
    done.add(path);
  };
  for (const path of modules) visit(path, []);
  assert.deepEqual(cycles, []);
});
