// The element's and the URL's reference pages (docs/reference/element.md,
// url-keys.md) and the Custom Elements Manifest, all generated from the
// code's own tables: web/element/settings.js's attributes, events and
// members, web/state/state.js's props. The committed pages must be what
// scripts/docs/web-reference.mjs writes, and the tables must be the code's:
// every event the element sends, every member it has.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { attributeNames, attributes, choices, events, members } from '../../web/element/settings.js';
import { modelKeys, props } from '../../web/state/state.js';
import { manifest, manifestText } from '../../scripts/docs/custom-elements.mjs';
import { keyMeanings } from '../../scripts/docs/web-reference.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const generator = join(root, 'scripts', 'docs', 'web-reference.mjs');
const run = (...args) => spawnSync('node', [generator, ...args], { cwd: root, encoding: 'utf8' });
const page = (name) => readFileSync(join(root, 'docs', 'reference', name), 'utf8');

// Every folder a test makes, removed at the end.
const made = [];
const folder = (prefix) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// A copy of the two pages in a fresh docs folder.
function copyPages() {
  const docs = folder('webref-docs-');
  mkdirSync(join(docs, 'reference'));
  for (const name of ['element.md', 'url-keys.md']) cpSync(join(root, 'docs', 'reference', name), join(docs, 'reference', name));
  return docs;
}

test('the committed pages are what the generator writes from the code\'s tables', () => {
  const result = run('--check');
  assert.equal(result.stderr, '');
  assert.equal(result.status, 0);
});

test('--check fails on a page whose generated part differs, naming the page and the part; a rewrite mends it', () => {
  const docs = copyPages();
  const path = join(docs, 'reference', 'element.md');
  const committed = readFileSync(path, 'utf8');
  const row = '| `scenario` | a preset id (`bank-raw`, …), or the URL of a scenario file on the page\'s own site | `sun-rises-causal` |';
  assert.ok(committed.includes(row), 'the scenario row as the code writes it');
  writeFileSync(path, committed.replace(row, row.replace('`sun-rises-causal`', '`bank-raw`')));
  const keys = join(docs, 'reference', 'url-keys.md');
  writeFileSync(keys, readFileSync(keys, 'utf8').replace('| `factor` |', '| `factors` |'));

  const check = run('--check', '--docs', docs);
  assert.equal(check.status, 1);
  assert.match(check.stderr, /reference\/element\.md: element-attributes: differs from the code's table/);
  assert.match(check.stderr, /reference\/url-keys\.md: url-keys: differs from the code's table/);
  assert.doesNotMatch(check.stderr, /element-events|element-members|url-keys-bare|url-keys-model/, 'only the parts that differ');
  assert.equal(readFileSync(path, 'utf8').includes('`bank-raw` |'), true, '--check changes nothing');

  const rewrite = run('--docs', docs);
  assert.equal(rewrite.status, 0, rewrite.stderr);
  assert.equal(readFileSync(path, 'utf8'), committed, 'the rewrite gives back the committed page, prose and all');
  assert.equal(readFileSync(keys, 'utf8'), page('url-keys.md'));
  assert.equal(run('--check', '--docs', docs).status, 0);
});

test('the hand-written prose stays; a page without a part\'s markers is refused, naming them', () => {
  const docs = copyPages();
  const path = join(docs, 'reference', 'element.md');
  const prose = '\nA sentence of the author\'s own, between two tables.\n';
  const text = readFileSync(path, 'utf8').replace('<!-- generated:element-events:start -->', `${prose}\n<!-- generated:element-events:start -->`);
  writeFileSync(path, text);
  assert.equal(run('--docs', docs).status, 0);
  assert.equal(readFileSync(path, 'utf8'), text);

  writeFileSync(path, text.replace('<!-- generated:element-members:end -->', ''));
  const check = run('--check', '--docs', docs);
  assert.equal(check.status, 1);
  assert.match(check.stderr, /element\.md: element-members: no <!-- generated:element-members:start --> … <!-- generated:element-members:end --> in order/);
  assert.equal(run('--docs', docs).status, 1);
});

test('the pages hold a row for every attribute, event, member and URL key of the code', () => {
  const rows = (text) => new Set(text.split('\n').filter((line) => line.startsWith('| `')).map((line) => /^\| `([^`]+)`/.exec(line)[1]));
  const element = rows(page('element.md'));
  for (const name of attributeNames) assert.ok(element.has(name), `attribute ${name}`);
  for (const name of Object.keys(events)) assert.ok(element.has(name), `event ${name}`);
  for (const [name, [kind]] of Object.entries(members)) assert.ok(element.has(kind === 'method' ? `${name}()` : name), `member ${name}`);
  const keys = rows(page('url-keys.md'));
  for (const name of Object.keys(props)) assert.ok(keys.has(name), `URL key ${name}`);
  for (const [name, spec] of Object.entries(props)) if (spec.bare !== undefined) assert.ok(keys.has(`#${name}`), `bare #${name}`);
  assert.ok(page('url-keys.md').includes(`keeps these keys and no others: ${modelKeys.map((k) => `\`${k}\``).join(', ')}.`));
  assert.deepEqual(Object.keys(keyMeanings), Object.keys(props), 'a meaning for every key, in the table\'s order');
});

test('a URL key without a meaning stops the generator, naming it', () => {
  const probe = `
    const { props } = await import(${JSON.stringify(join(root, 'web', 'state', 'state.js'))});
    props.newkey = { type: 'bool', default: null };
    const { pages } = await import(${JSON.stringify(generator)});
    try { pages['reference/url-keys.md']['url-keys'](); console.log('written'); } catch (e) { console.log(e.message); }`;
  const out = spawnSync('node', ['--input-type=module', '-e', probe], { encoding: 'utf8' });
  assert.match(out.stdout, /no meaning for newkey/);
});

// The element's script, as text: the events it sends, the members it has.
const element = readFileSync(join(root, 'web', 'attention-playground.js'), 'utf8');

test('the events table is what the element sends: the same names, the same detail keys', () => {
  const sent = new Map();
  for (const m of element.matchAll(/dispatchEvent\(new CustomEvent\('([^']+)'(?:, \{ detail: \{([^}]*)\} \})?\)\)/g)) {
    const keys = m[2] === undefined ? [] : m[2].split(',').map((part) => part.trim().split(':')[0].trim()).filter(Boolean);
    const seen = sent.get(m[1]);
    if (seen) assert.deepEqual(keys, seen, `${m[1]}: every dispatch carries the same detail`);
    sent.set(m[1], keys);
  }
  assert.equal(element.match(/dispatchEvent\(/g).length, [...element.matchAll(/dispatchEvent\(new CustomEvent\('/g)].length, 'every dispatch read');
  assert.deepEqual([...sent.keys()].sort(), Object.keys(events).sort());
  for (const [name, [, detail]] of Object.entries(events)) assert.deepEqual(sent.get(name), Object.keys(detail ?? {}), `${name}'s detail`);
});

test('the members table is what the element defines', () => {
  for (const [name, [kind]] of Object.entries(members)) {
    if (kind === 'method') assert.match(element, new RegExp(`^  ${name}\\(\\) \\{`, 'm'), `${name}()`);
    else assert.match(element, new RegExp(`^  get ${name}\\(\\) \\{`, 'm'), `get ${name}`);
  }
  // and its attributes are the table's: it observes exactly those
  assert.match(element, /static get observedAttributes\(\) \{\n\s+return attributeNames;/);
});

test('custom-elements.json: schema 1.0.0, every attribute with its default and type, every event and member', () => {
  const m = manifest();
  assert.equal(m.schemaVersion, '1.0.0');
  assert.equal(m.modules.length, 1);
  const [module] = m.modules;
  assert.equal(module.path, 'attention-playground.js');
  const [element] = module.declarations;
  assert.equal(element.tagName, 'attention-playground');
  assert.equal(element.customElement, true);
  assert.deepEqual(element.attributes.map((a) => a.name), attributeNames);
  for (const a of element.attributes) {
    const [fallback, values] = attributes[a.name];
    assert.ok(a.description.startsWith(values), a.name);
    if (a.default === undefined) assert.ok(a.description.endsWith(`Default: ${fallback}.`), `${a.name}: its default in words`);
    else assert.equal(`\`${a.default}\``, fallback, a.name);
    assert.equal(a.type.text, choices[a.name] ? choices[a.name].map((v) => `'${v}'`).join(' | ') : a.name === 'autoplay' ? 'boolean' : 'string');
  }
  assert.equal(element.attributes.find((a) => a.name === 'view').default, 'both');
  assert.deepEqual(element.events.map((e) => e.name), Object.keys(events));
  assert.equal(element.events.find((e) => e.name === 'stepchange').type.text, 'CustomEvent<{ step: string; index: number }>');
  assert.deepEqual(element.members.map((x) => [x.name, x.kind]), Object.entries(members).map(([name, [kind]]) => [name, kind]));
  assert.deepEqual(module.exports.map((e) => e.kind), ['js', 'custom-element-definition']);
});

test('the built site carries custom-elements.json, and dist/package.json names it', () => {
  const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
  assert.ok(existsSync(join(wasmDir, 'attention-core.wasm')), `${wasmDir}: no wasm build to assemble a site from`);
  const site = join(folder('webref-site-'), 'site');
  const node = (script, ...args) => {
    const r = spawnSync('node', [join(root, 'scripts', script), ...args], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };
  node('build-site.mjs', wasmDir, site);
  assert.equal(readFileSync(join(site, 'custom-elements.json'), 'utf8'), manifestText());
  node('package-dist.mjs', site);
  const pkg = JSON.parse(readFileSync(join(site, 'package.json'), 'utf8'));
  assert.equal(pkg.customElements, 'custom-elements.json');
  assert.ok(pkg.files.includes('custom-elements.json'));
  assert.equal(pkg.exports['./custom-elements.json'], './custom-elements.json');
});
