// The repository's own documents: README.md stays a front page (250 lines
// at most); no document links outside the repository (a Markdown link, an
// HTML href or src, an autolinked URL, a relative path that climbs out of
// the repository); user documents speak of the product, not of how it was
// developed, and name no test file. Each check first proves on a made-up
// document that it can fail, then runs on every document git knows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// Every document git tracks, and new ones not yet added (not ignored ones).
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path && !path.startsWith('node_modules/') && existsSync(join(root, path)));
const documents = [...new Set(files.filter((path) => /\.(md|rst|html|ipynb|cff)$/.test(path)))].sort();

// User documents: the front page, the changelog, every folder's README
// outside tests/, and the documentation site's pages.
const isUserDocument = (path) => path === 'README.md' || path === 'CHANGELOG.md'
  || (path.endsWith('/README.md') && !path.startsWith('tests/'))
  || (path.startsWith('docs/') && path.endsWith('.md'));
// Where dated figures belong.
const mayHoldDates = (path) => path === 'docs/benchmarks.md' || path === 'CHANGELOG.md';

// ---- reading a document: its prose (code removed) and its HTML parts

// A Markdown text split into prose (fenced blocks and code spans blanked,
// line numbers kept) and HTML (raw HTML lines, and MyST's {raw} html blocks).
function readMarkdown(text) {
  const prose = [];
  const html = [];
  let fence = null; // {marker, raw}
  for (const line of text.split('\n')) {
    const open = /^\s{0,3}(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (fence) {
      if (open && open[1][0] === fence.marker[0] && open[1].length >= fence.marker.length && !open[2]) {
        fence = null;
      } else if (fence.raw) {
        html.push(line);
      }
      prose.push('');
      continue;
    }
    if (open) {
      fence = { marker: open[1], raw: /^\{raw\}\s+html\b/.test(open[2]) };
      prose.push('');
      continue;
    }
    prose.push(line.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)|(`+)(?!`)\2(?!`)/g, (span) => ' '.repeat(span.length)));
    html.push(line.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, ''));
  }
  return { prose, html: html.join('\n') };
}

// reStructuredText: literal blocks (after "::", code-block directives) and
// ``literals`` removed; raw html blocks kept as HTML.
function readRst(text) {
  const prose = [];
  const html = [];
  let block = null; // {indent, raw}
  let pending = null;
  for (const line of text.split('\n')) {
    const indent = line.match(/^\s*/)[0].length;
    if (block && (line.trim() === '' || indent > block.indent)) {
      if (block.raw) html.push(line);
      prose.push('');
      continue;
    }
    block = null;
    if (pending && line.trim() !== '') {
      if (indent > pending.indent) {
        block = pending;
        if (block.raw) html.push(line);
        prose.push('');
        pending = null;
        continue;
      }
      pending = null;
    }
    const directive = /^(\s*)\.\. (raw|code-block|code|sourcecode|literalinclude)::\s*(.*)$/.exec(line);
    if (directive) {
      pending = { indent: directive[1].length, raw: directive[2] === 'raw' && /\bhtml\b/.test(directive[3]) };
      prose.push('');
      continue;
    }
    if (/::\s*$/.test(line)) pending = { indent, raw: false };
    prose.push(line.replace(/``[\s\S]*?``/g, (span) => ' '.repeat(span.length)));
  }
  return { prose, html: html.join('\n') };
}

// An HTML page: its prose is nothing (text in a page is not a link); script
// and style contents and comments are not HTML to check.
const readHtml = (text) => ({ prose: [], html: text.replace(/<!--[\s\S]*?-->|<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, '') });

// A notebook: its Markdown cells, read as Markdown.
function readNotebook(text) {
  const cells = JSON.parse(text).cells.filter((cell) => cell.cell_type === 'markdown');
  const source = cells.map((cell) => (Array.isArray(cell.source) ? cell.source.join('') : cell.source)).join('\n\n');
  return readMarkdown(source);
}

function read(path, text) {
  if (path.endsWith('.md')) return readMarkdown(text);
  if (path.endsWith('.rst')) return readRst(text);
  if (path.endsWith('.html')) return readHtml(text);
  if (path.endsWith('.ipynb')) return readNotebook(text);
  return { prose: text.split('\n'), html: '' }; // .cff: every line counts
}

// ---- links leaving the repository

const scheme = /^[a-z][a-z0-9+.-]*:/i;

// Why a link target leaves the repository, or null when it stays.
function leaves(path, target) {
  const t = target.trim().replace(/^<|>$/g, '');
  if (t === '' || t.startsWith('#')) return null;
  if (t.startsWith('//')) return 'a link to another host';
  if (scheme.test(t)) return /^data:/i.test(t) ? null : `a link with the scheme ${t.match(scheme)[0]}`;
  let file = t.split(/[?#]/)[0];
  try {
    file = decodeURIComponent(file);
  } catch {
    // a malformed escape is checked as written
  }
  const resolved = file.startsWith('/') ? posix.normalize(file.slice(1)) : posix.normalize(posix.join(posix.dirname(path), file));
  return resolved === '..' || resolved.startsWith('../') ? 'a relative path out of the repository' : null;
}

// [{line, target, why}] for every link of a document that leaves the repository.
function outsideLinks(path, text) {
  const { prose, html } = read(path, text);
  const found = [];
  const lineOf = (body, index) => body.slice(0, index).split('\n').length;
  const note = (line, target) => {
    const why = leaves(path, target);
    if (why) found.push({ line, target, why });
  };
  const body = prose.join('\n');
  if (path.endsWith('.md') || path.endsWith('.ipynb')) {
    // [text](target "title"), ![alt](target), [label]: target, <scheme:…>
    for (const m of body.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)/g)) note(lineOf(body, m.index), m[1]);
    for (const m of body.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm)) note(lineOf(body, m.index), m[1]);
  }
  if (path.endsWith('.rst')) {
    // `text <target>`_ and .. _name: target
    for (const m of body.matchAll(/`[^`<]*<([^>]+)>`__?/g)) note(lineOf(body, m.index), m[1]);
    for (const m of body.matchAll(/^\s*\.\. _[^:]+:\s*(\S+)/gm)) note(lineOf(body, m.index), m[1]);
  }
  for (const m of body.matchAll(/<([a-z][a-z0-9+.-]*:[^\s<>]*)>/gi)) note(lineOf(body, m.index), m[1]);
  // A URL in prose is a link wherever GitHub or docutils autolink it.
  const bare = body.replace(/\]\(\s*(<[^>]*>|[^)\s]+)/g, '](')
    .replace(/\s(?:xmlns(?::\w+)?|href|src|srcset|action|poster|formaction)\s*=\s*("[^"]*"|'[^']*')/gi, ' ');
  for (const m of bare.matchAll(/(?<![\w/])(?:https?:\/\/|ftp:\/\/|www\.)[^\s<>)"'`]+/gi)) {
    found.push({ line: lineOf(bare, m.index), target: m[0], why: 'a URL in the text' });
  }
  // HTML: href, src, srcset, action, poster, data (raw HTML of a page or a Markdown file)
  for (const m of html.matchAll(/\s(href|src|srcset|action|poster|formaction)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    const value = m[3] ?? m[4] ?? m[5];
    const targets = m[1].toLowerCase() === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/)[0]) : [value];
    for (const target of targets) note(lineOf(html, m.index), target);
  }
  // one report per target and line
  return found.filter((f, i) => found.findIndex((g) => g.line === f.line && g.target === f.target) === i);
}

// ---- words of the development process, and test paths

const processWords = [
  [/\bthis stop\b/i, '"this stop"'],
  [/\bstops? \d+\b/i, 'a numbered stop'],
  [/\bsessions?\b/i, '"session"'],
  [/\b(?:development|dev) (?:runs?|stops?)\b/i, 'a development run'],
  [/\b(?:issue|ticket|pull request|PR)s? #?\d+\b/i, 'an issue number'],
  [/\bsince (?:20\d\d|v?\d+\.\d+)/i, '"since" a date or version'],
  [/\bno longer\b/i, '"no longer"'],
  [/\b(?:which|that|it|we|they) used to\b|\bused to be\b/i, '"used to"'],
  [/\buntil recently\b|\bas of 20\d\d\b/i, 'history'],
];
const date = /\b20\d\d-\d\d\b/;
const testPath = /(?<![\w-])tests\//;

// [{line, what}] for a user document's process words, dates and test paths.
function processProblems(path, text) {
  const found = [];
  const { prose } = read(path, text);
  prose.forEach((line, i) => {
    for (const [pattern, what] of processWords) if (pattern.test(line)) found.push({ line: i + 1, what, text: line.trim() });
    if (!mayHoldDates(path) && date.test(line)) found.push({ line: i + 1, what: 'a date', text: line.trim() });
  });
  // Test paths count in code too: a command naming a test file is still one.
  text.split('\n').forEach((line, i) => {
    if (testPath.test(line)) found.push({ line: i + 1, what: 'a path under tests/', text: line.trim() });
  });
  return found;
}

const show = (path, problems) => problems.map((p) => `${path}:${p.line}: ${p.why ?? p.what}: ${p.target ?? p.text}`);

// ---- the checks fail where they must

test('the link check finds every kind of outside link, and passes inside ones', () => {
  const md = [
    'See [the spec](https://example.org/spec) and [ours](../reference/cli.md#exit-codes).',
    '![a picture](//cdn.example.org/x.png) then [up](../../../shared/spec/gpt-v1.md).',
    '[mail](mailto:someone@example.org) and https://example.org/bare and <https://example.org/auto>.',
    '[ref]: https://example.org/ref',
    '<a href="https://example.org/a">a</a> <img src="../../../x.png" alt="">',
    '`http://localhost:8000/` in code is no link, nor `[x](https://e.org)`.',
    '```console',
    '$ curl https://example.org/in-a-block',
    '```',
    '```{raw} html',
    '<attention-playground playground="x"><img src="https://example.org/raw.svg" alt=""></attention-playground>',
    '```',
    '[inside](../index.md) [anchor](#top) <a href="images/x.png">x</a> <img src="data:image/png;base64,AAAA" alt="">',
  ].join('\n');
  const found = outsideLinks('docs/how-to/page.md', md).map((f) => f.target);
  assert.deepEqual(found.sort(), [
    '../../../shared/spec/gpt-v1.md', '../../../x.png', '//cdn.example.org/x.png', 'https://example.org/a',
    'https://example.org/auto', 'https://example.org/bare', 'https://example.org/raw.svg',
    'https://example.org/ref', 'https://example.org/spec', 'mailto:someone@example.org',
  ].sort());
  assert.deepEqual(outsideLinks('README.md', '[docs](docs/index.md) [up](../shared/x.md)').map((f) => f.target), ['../shared/x.md']);
  assert.deepEqual(outsideLinks('x.rst', 'A `link <https://example.org>`_.\n\n.. raw:: html\n\n   <a href="//e.org">e</a>\n\n::\n\n   https://in.a/literal\n')
    .map((f) => f.target).sort(), ['//e.org', 'https://example.org']);
  assert.deepEqual(outsideLinks('x.html', '<script>fetch("https://e.org")</script><a href="https://e.org/b">b</a><a href="x.html">x</a>')
    .map((f) => f.target), ['https://e.org/b']);
  const notebook = JSON.stringify({ cells: [{ cell_type: 'markdown', source: ['[x](https://e.org/n)'] }, { cell_type: 'code', source: ['"https://e.org/code"'] }] });
  assert.deepEqual(outsideLinks('n.ipynb', notebook).map((f) => f.target), ['https://e.org/n']);
  assert.deepEqual(outsideLinks('CITATION.cff', 'cff-version: 1.2.0\nrepository-code: "https://e.org/r"\n').map((f) => f.target), ['https://e.org/r']);
});

test('the process check finds process words, dates and test paths in prose and code', () => {
  const md = [
    'In this stop the page gained a figure (stop 4, issue #12).',
    'The figure no longer blanks; it used to be slow. Since 2026-11-20 it is fast.',
    'Run `node --test tests/docs/` to check.',
    'A notebook keeps one kernel.',
  ].join('\n');
  const whats = processProblems('docs/tutorials/x.md', md).map((p) => p.what);
  for (const what of ['"this stop"', 'a numbered stop', 'an issue number', '"no longer"', '"used to"', '"since" a date or version', 'a date', 'a path under tests/']) {
    assert.ok(whats.includes(what), `${what} not found in ${whats.join(', ')}`);
  }
  assert.deepEqual(processProblems('docs/benchmarks.md', 'Measured on 2026-11-26.').map((p) => p.what), []);
  assert.deepEqual(processProblems('docs/tutorials/x.md', 'Measured on 2026-11-26.').map((p) => p.what), ['a date']);
  assert.deepEqual(processProblems('docs/tutorials/x.md', 'One kernel `session` in code, and the `Session` class.').map((p) => p.what), []);
  assert.deepEqual(processProblems('README.md', 'A `python/tests/` folder.').map((p) => p.what), ['a path under tests/']);
  assert.deepEqual(processProblems('README.md', 'The tests mirror the folders; attests/x is a word.').map((p) => p.what), []);
  assert.ok(isUserDocument('web/app/README.md') && isUserDocument('docs/index.md') && isUserDocument('python/README.md'));
  assert.ok(!isUserDocument('tests/fuzz/README.md') && !isUserDocument('CONTRIBUTING.md'));
});

// ---- the repository's documents

test('README.md is a front page: 250 lines at most', () => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').replace(/\n$/, '').split('\n').length;
  assert.ok(lines <= 250, `README.md has ${lines} lines; the front page holds at most 250 (the rest belongs in docs/)`);
});

test('no document links outside the repository', () => {
  assert.ok(documents.includes('README.md') && documents.some((p) => p.endsWith('.ipynb')), 'git lists the documents');
  const problems = documents.flatMap((path) => show(path, outsideLinks(path, readFileSync(join(root, path), 'utf8'))));
  assert.deepEqual(problems, []);
});

test('user documents speak of the product: no process words, no dates, no test paths', () => {
  const users = documents.filter(isUserDocument);
  assert.ok(users.includes('README.md') && users.includes('python/README.md'), 'the user documents are found');
  const problems = users.flatMap((path) => show(path, processProblems(path, readFileSync(join(root, path), 'utf8'))));
  assert.deepEqual(problems, []);
});

test('CITATION.cff and CHANGELOG.md name the version VERSION holds, and MIT as LICENSE does', () => {
  const version = readFileSync(join(root, 'VERSION'), 'utf8').trim();
  const citation = readFileSync(join(root, 'CITATION.cff'), 'utf8');
  assert.match(citation, /^cff-version: 1\.2\.0$/m);
  assert.equal(/^version: "?([^"\n]+)"?$/m.exec(citation)?.[1], version, 'CITATION.cff: version');
  assert.ok(readFileSync(join(root, 'LICENSE'), 'utf8').startsWith('MIT License'));
  assert.match(citation, /^license: MIT$/m);
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  assert.match(changelog, /^## Unreleased$/m);
  assert.ok(new RegExp(`^## ${version.replace(/\./g, '\\.')} - \\d{4}-\\d\\d-\\d\\d$`, 'm').test(changelog), `CHANGELOG.md: a section for ${version}`);
});
