// The built documentation site's links (scripts/docs/check-links.mjs): every
// href and src of every page names a file inside the site, every #fragment
// an id in its page, and nothing goes to another origin. First on a copy of
// the site with broken links made in it (the check must catch each), then on
// the site itself, playground/ included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const docsDir = process.env.ATTENTION_DOCS_DIR ?? join(root, 'build', 'docs');
const script = join(root, 'scripts', 'docs', 'check-links.mjs');
const check = (dir) => spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });

test('the built site is there, with its own playground', () => {
  assert.ok(existsSync(join(docsDir, 'index.html')), `no ${docsDir}/index.html: run make docs`);
  assert.ok(existsSync(join(docsDir, 'playground', 'attention-playground.js')), 'make docs copies the playground into playground/');
});

test('a broken anchor, a missing file, an outside link and an absolute path are each reported', () => {
  const copy = join(mkdtempSync(join(tmpdir(), 'docs-links-')), 'docs');
  cpSync(docsDir, copy, { recursive: true });
  const page = join(copy, 'tutorials', 'playground.html');
  const broken = [
    '<a href="../index.html#no-such-heading">anchor</a>',
    '<a href="#nor-here">same page</a>',
    '<a href="lessons-gone.html">missing</a>',
    '<a href="https://example.com/attention">outside</a>',
    '<img src="//cdn.example.com/figure.png" alt="outside">',
    '<a href="/docs/index.html">absolute</a>',
    '<a href="../../outside.html">climbs out</a>',
  ];
  writeFileSync(page, readFileSync(page, 'utf8').replace('</article>', `${broken.join('\n')}\n</article>`));
  const got = check(copy);
  assert.equal(got.status, 1, got.stdout + got.stderr);
  assert.deepEqual(got.stdout.trim().split('\n').sort(), [
    'tutorials/playground.html: ../index.html#no-such-heading: no id or name "no-such-heading" in index.html',
    'tutorials/playground.html: #nor-here: no id or name "nor-here" in tutorials/playground.html',
    'tutorials/playground.html: lessons-gone.html: no such file: tutorials/lessons-gone.html',
    'tutorials/playground.html: https://example.com/attention: goes to another origin',
    'tutorials/playground.html: //cdn.example.com/figure.png: goes to another origin',
    'tutorials/playground.html: /docs/index.html: is absolute: it breaks when the site is served under a sub-path',
    'tutorials/playground.html: ../../outside.html: points outside the site',
  ].sort());
  assert.match(got.stderr, /7 broken or outside links/);
});

test('every link of the built site holds: files, anchors, nothing outside', () => {
  const got = check(docsDir);
  assert.equal(got.stdout, '');
  assert.equal(got.status, 0, got.stderr);
});
