// What `make dist` adds to the site for authors: a static SVG of every
// preset's default view (figures/), and package.json for `npm pack`. Built
// here the way the Makefile builds them, into a fresh folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const dist = join(mkdtempSync(join(tmpdir(), 'attention-dist-')), 'dist');
const node = (script, ...args) => execFileSync('node', [join(root, 'scripts', script), ...args], { encoding: 'utf8' });
node('build-site.mjs', wasmDir, dist);
node('figures.mjs', wasmDir, join(dist, 'figures'));
node('package-dist.mjs', dist);
const presets = readdirSync(join(root, 'web', 'scenarios')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));

test('a static SVG figure of every preset: its weights, cell by cell, and its graph, an arrowhead per edge', () => {
  assert.deepEqual(readdirSync(join(dist, 'figures')).sort(), presets.map((id) => `${id}.svg`).sort());
  for (const id of presets) {
    const svg = readFileSync(join(dist, 'figures', `${id}.svg`), 'utf8');
    assert.match(svg, /^<svg [^>]*role="img" aria-label="[^"<>]+"/, id);
    const [, rows, cols] = /weights = exp\(masked − row max\) \/ Σ \((\d+) × (\d+)\)/.exec(svg);
    const edges = svg.match(/<path class="edge"/g)?.length ?? 0;
    assert.equal(svg.match(/<rect class="cell"/g).length, rows * cols, `${id}: a cell per weight`);
    assert.equal(svg.match(/<polygon class="arrow"/g)?.length ?? 0, edges, `${id}: an arrowhead per edge`);
    assert.ok(edges > 0, `${id}: the graph has edges`);
    assert.doesNotMatch(svg, /NaN|undefined|Infinity/, id);
  }
});

test('dist/package.json: the element as its export, the files it ships, a licence; npm pack takes it', () => {
  const pkg = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'attention-playground');
  assert.equal(pkg.version, readFileSync(join(root, 'VERSION'), 'utf8').trim());
  assert.equal(pkg.license, 'MIT');
  assert.equal(pkg.exports['.'], './attention-playground.js');
  for (const target of Object.values(pkg.exports)) if (!target.includes('*')) assert.ok(existsSync(join(dist, target)), target);
  for (const entry of pkg.files) assert.ok(existsSync(join(dist, entry)), entry);
  assert.ok(existsSync(join(dist, 'LICENSE')));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: dist, encoding: 'utf8' }));
  const paths = packed.files.map((f) => f.path);
  for (const path of ['package.json', 'LICENSE', 'attention-playground.js', 'embed.html', 'wasm/attention-core.wasm', 'figures/bank-raw.svg', 'scenarios/index.json'])
    assert.ok(paths.includes(path), path);
  // the vendored libraries, each with its own licence beside it (MIT; Apache-2.0)
  for (const [library, licence] of [['gpt-tokenizer', /MIT License/], ['huggingface-tokenizers', /Apache License\s+Version 2\.0/]]) {
    assert.ok(paths.some((p) => p.startsWith(`vendor/${library}/`) && p.endsWith('.js')), library);
    assert.ok(paths.includes(`vendor/${library}/LICENSE`), `vendor/${library}/LICENSE`);
    assert.match(readFileSync(join(dist, 'vendor', library, 'LICENSE'), 'utf8'), licence, library);
  }
  assert.equal(packed.filename, `attention-playground-${pkg.version}.tgz`);
});
