// The troubleshooting page's messages are the project's own, word for word.
// Each message on docs/troubleshooting.md (a ```text block right after a
// "% message" line) must either come out of a command run here (the native
// CLI on a bad input, the element's settings and data readers, the notebook
// bundle's shim, make serve's server, the browser launcher) or match a
// message the sources build (core/, web/, wasm/, python/): its literal text
// where the source has literal text, anything where the source puts a
// value. On the page, "…" stands for a value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = resolve(root, process.env.ATTENTION_NATIVE_DIR ?? 'build/native', 'attention-cli');
// another page to check (to see the check fail on a page of your own)
const pagePath = resolve(root, process.env.ATTENTION_TROUBLESHOOTING_PAGE ?? 'docs/troubleshooting.md');

const VALUE = '\u0001';   // in a source: code between literal text, a value at run time
const GIVEN = '\u0002';   // on the page: "…", a value

// ---------------------------------------------------------------- the page

// [{message, heading}] for every line of a ```text block after "% message"
function pageMessages(text) {
  const lines = text.split('\n');
  const found = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    if (/^#{1,6} /.test(lines[i])) heading = lines[i].replace(/^#+ /, '');
    if (lines[i].trim() !== '% message') continue;
    assert.match(lines[i + 1] ?? '', /^```text\s*$/, `line ${i + 2}: "% message" must be followed by a \`\`\`text block`);
    for (i += 2; i < lines.length && !/^```\s*$/.test(lines[i]); i++)
      if (lines[i].trim() !== '') found.push({ message: lines[i].trim(), heading });
  }
  return found;
}

// What a user sees around a message: the element's and the notebook's
// prefixes, the CLI's name before a usage problem, the page's name of the
// file it opened ("mine.json": …).
const prefixes = ['Attention Playground: ', 'ValueError: show: ', 'ValueError: attention: ', 'ValueError: ', 'attention-cli: '];
function variants(message) {
  const all = [message];
  for (const p of prefixes) if (message.startsWith(p)) all.push(message.slice(p.length));
  const file = /^"[^"]+": (?=.)/.exec(message);
  if (file) all.push(message.slice(file[0].length));
  return all;
}

// ------------------------------------------------------------ the sources

const decode = { n: '\n', t: '\t', r: '\r', 0: '\0', b: '\b', f: '\f', v: '\v' };

// The escape at text[i] (a backslash): {value, next}.
function escape(text, i) {
  const e = text[i + 1];
  if (e === '\n') return { value: '', next: i + 2 };
  if (e === 'u' && text[i + 2] === '{') {
    const close = text.indexOf('}', i);
    return { value: String.fromCodePoint(parseInt(text.slice(i + 3, close), 16)), next: close + 1 };
  }
  if (e === 'u' || e === 'x') {
    const length = e === 'u' ? 4 : 2;
    return { value: String.fromCharCode(parseInt(text.slice(i + 2, i + 2 + length), 16)), next: i + 2 + length };
  }
  return { value: decode[e] ?? e, next: i + 2 };
}

// A quoted literal from `start` (its opening quote): {value, end}, or null
// when it is not one (a quote in a regular expression: the line ends first).
function quoted(text, start, quote, { raw = false, multiline = false, fstring = false } = {}) {
  let value = '';
  let i = start + quote.length;
  while (i < text.length) {
    if (text.startsWith(quote, i)) return { value, end: i + quote.length };
    const c = text[i];
    if (c === '\n' && !multiline) return null;
    if (c === '\\' && !raw) {
      const r = escape(text, i);
      value += r.value;
      i = r.next;
      continue;
    }
    if (fstring && c === '{') {
      if (text[i + 1] === '{') { value += '{'; i += 2; continue; }
      i = skipBraces(text, i + 1, 'py');
      value += VALUE;
      continue;
    }
    if (fstring && c === '}' && text[i + 1] === '}') { value += '}'; i += 2; continue; }
    value += c;
    i++;
  }
  return null;
}

// A JavaScript template literal from its backquote: ${…} is a value, but
// for a file's own string constant (`${elsewhere}`), which is its text.
let constants = new Map();
function template(text, start) {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '`') return { value, end: i + 1 };
    if (c === '\\') {
      const r = escape(text, i);
      value += r.value;
      i = r.next;
      continue;
    }
    if (c === '$' && text[i + 1] === '{') {
      const end = skipBraces(text, i + 2, 'js');
      value += constants.get(text.slice(i + 2, end - 1).trim()) ?? VALUE;
      i = end;
      continue;
    }
    value += c;
    i++;
  }
  return { value, end: text.length };
}

// The index after the "}" that closes a brace opened just before `start`.
function skipBraces(text, start, lang) {
  let depth = 1;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
    else if (c === '`' && lang === 'js') { i = template(text, i).end; continue; }
    else if (c === '"' || c === "'") {
      const r = quoted(text, i, c, {});
      if (r) { i = r.end; continue; }
    }
    i++;
  }
  return text.length;
}

// A source file as the text of its literals, each run of code between
// them a VALUE (adjacent literals, as C++ and Python join them, stay one).
function literalStream(text, lang) {
  constants = new Map();
  if (lang === 'js')
    for (const m of text.matchAll(/^(?:export )?const (\w+) = (?=')/gm)) {
      const r = quoted(text, m.index + m[0].length, "'");
      if (r && text[r.end] === ';') constants.set(m[1], r.value);
    }
  let out = '';
  let code = '';
  const literal = (value) => {
    if (code.trim() !== '') out += VALUE;
    code = '';
    out += value;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if ((lang === 'js' || lang === 'cpp') && c === '/' && next === '/') { i = text.indexOf('\n', i); if (i < 0) break; continue; }
    if ((lang === 'js' || lang === 'cpp') && c === '/' && next === '*') { i = text.indexOf('*/', i + 2); if (i < 0) break; i += 2; continue; }
    if (lang === 'py' && c === '#') { i = text.indexOf('\n', i); if (i < 0) break; continue; }
    if (lang === 'js' && c === '`') { const r = template(text, i); literal(r.value); i = r.end; continue; }
    if (lang === 'cpp' && c === "'") {  // a character literal is code
      const r = quoted(text, i, "'", {});
      code += 'c';
      i = r ? r.end : i + 1;
      continue;
    }
    if (lang === 'cpp' && c === '"' && /(^|[^A-Za-z0-9_])R$/.test(code)) {  // R"delim( … )delim"
      const open = text.indexOf('(', i);
      const end = `)${text.slice(i + 1, open)}"`;
      const close = text.indexOf(end, open);
      if (open > 0 && close > 0) {
        code = code.slice(0, -1);
        literal(text.slice(open + 1, close));
        i = close + end.length;
        continue;
      }
    }
    if (c === '"' || c === "'") {
      let options = {};
      let quote = c;
      if (lang === 'py') {
        const prefix = /(?:^|[^A-Za-z0-9_])([rRbBfFuU]{1,2})$/.exec(code)?.[1] ?? '';
        if (prefix) code = code.slice(0, -prefix.length);
        const triple = text.startsWith(c.repeat(3), i);
        if (triple) quote = c.repeat(3);
        options = { raw: /r/i.test(prefix), fstring: /f/i.test(prefix), multiline: triple };
      }
      const r = quoted(text, i, quote, options);
      if (r) { literal(r.value); i = r.end; continue; }
    }
    code += c;
    i++;
  }
  return out;
}

const sourceDirs = ['core', 'web', 'wasm', 'python'];
// built copies, vendored code and tests (whose expected lines are no source of a message)
const skipped = new Set(['assets', 'build', 'node_modules', 'vendor', '__pycache__', 'tests']);
const languages = { '.cpp': 'cpp', '.hpp': 'cpp', '.js': 'js', '.mjs': 'js', '.py': 'py' };
// Every source's literal stream, one after another; a separator no
// message holds keeps an alignment inside one file.
let corpus = null;
function sourceCorpus() {
  if (corpus !== null) return corpus;
  const parts = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) { if (!skipped.has(entry.name)) walk(path); continue; }
      const lang = languages[extname(entry.name)];
      if (lang) parts.push(literalStream(readFileSync(path, 'utf8'), lang));
    }
  };
  for (const dir of sourceDirs) if (existsSync(join(root, dir))) walk(join(root, dir));
  corpus = parts.join('\u0003');
  return corpus;
}

// How much a source's value may stand for on the page, and a page's "…" in
// a source: a value, not a paragraph.
const valueLength = 80;
const givenLength = 160;

// The most page characters matched literally when the whole of `page`
// aligns with a start of `source` (both arrays of characters): a page
// character matches the same source character; a source VALUE stands for
// up to valueLength characters of the page (the value written out), and a
// page GIVEN for up to givenLength of the source. -1 when no alignment
// consumes the whole page text.
function bestAlignment(page, source) {
  const A = page.length;
  const B = source.length;
  const width = B + 1;
  const best = new Int32Array((A + 1) * width).fill(-1);
  best[0] = 0;
  let found = -1;
  const relax = (i, j, score) => { if (best[i * width + j] < score) best[i * width + j] = score; };
  for (let i = 0; i <= A; i++) {
    for (let j = 0; j <= B; j++) {
      const here = best[i * width + j];
      if (here < 0) continue;
      if (i === A) { found = Math.max(found, here); continue; }
      if (page[i] === GIVEN) for (let k = 0; k <= givenLength && j + k <= B; k++) relax(i + 1, j + k, here);
      if (j < B && source[j] === VALUE) {
        // A value is a few words at most (quoted text and a list's ", " aside).
        // One that ends the message has no literal text after it to hold it
        // in place, so there it is one word: "unknown zebra 'colour'" is no
        // value of "unknown attribute ${key}".
        let open = null;
        let spaces = 0;
        for (let k = 0; k <= valueLength && i + k <= A; k++) {
          if (i + k < A || spaces === 0) relax(i + k, j + 1, here);
          const c = page[i + k];
          if (open !== null) { if (c === open) open = null; }
          else if (c === '"' || c === "'") open = c;
          else if (c === ' ' && page[i + k - 1] !== ',' && ++spaces > 4) break;
        }
      }
      if (j < B && page[i] === source[j] && page[i] !== GIVEN) relax(i + 1, j + 1, here + 1);
    }
  }
  return found;
}

// Runs of whole words of the message that hold no value (numbers and
// quoted text usually are values), longest first: where to look for it.
function anchorsOf(page) {
  const anchors = new Set();
  for (const piece of page.split(/[\u0002"'0-9]+/)) {
    const words = piece.split(' ');
    for (let n = words.length; n >= 1; n--)
      for (let i = 0; i + n <= words.length; i++) {
        const run = words.slice(i, i + n).join(' ');
        if (run.trim().length >= 8) anchors.add(run);
      }
  }
  return [...anchors].sort((a, b) => b.length - a.length);
}

// Does `message` (one variant) match a message some source builds? Its
// literal text must be found literally for half of its characters that
// are not "…", and at least 12 of them.
function inSources(message) {
  const page = message.replaceAll('…', GIVEN);
  const literal = page.replaceAll(GIVEN, '').length;
  if (literal < 12) return false;
  const needed = Math.max(12, Math.ceil(literal / 2));
  const text = sourceCorpus();
  for (const anchor of anchorsOf(page)) {
    const at = page.indexOf(anchor);
    const before = [...page.slice(0, at)].reverse();
    const after = [...page.slice(at)];
    let tries = 0;
    for (let p = text.indexOf(anchor); p >= 0 && tries < 50; p = text.indexOf(anchor, p + 1), tries++) {
      const forward = bestAlignment(after, [...text.slice(p, p + after.length * 2 + givenLength)]);
      if (forward < 0) continue;
      const backward = bestAlignment(before, [...text.slice(Math.max(0, p - before.length * 2 - givenLength), p)].reverse());
      if (backward >= 0 && forward + backward >= needed) return true;
    }
  }
  return false;
}

// ------------------------------------------------------- what commands say

const work = mkdtempSync(join(tmpdir(), 'troubleshooting-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const file = (name, text) => { const path = join(work, name); writeFileSync(path, text); return path; };
const lines = (text) => text.split('\n').map((l) => l.trim()).filter(Boolean);

const scenario = (attention, tensors = [{ name: 'x', randn: [3, 4] }], extra = {}) =>
  JSON.stringify({ version: 1, id: 'x', seed: 1, tensors, attention: { x: 'x', heads: [{}], mask: 'causal', ...attention }, ...extra });
const training = (model, train) => JSON.stringify({
  version: 1, id: 't', seed: 1, task: { name: 'previous', tokens: 8, length: 8 },
  model: { embed: 16, heads: 1, layers: 1, ...model }, train: { steps: 50, batch: 8, lr: 0.01, ...train },
  eval: { every: 10, batch: 8, seed: 1 },
});

function cliMessages() {
  if (!existsSync(cli)) return [];
  const model = join(root, 'web', 'models', 'text-gpt.safetensors');
  const weights = [{ name: 'x', randn: [3, 4] }, { name: 'key', linear: [4, 2] }, { name: 'query', linear: [4, 2] }];
  const runs = [
    [],
    ['frobnicate', 'x'],
    ['trace', 'missing.json'],
    ['trace', '/tmp'],
    ['trace', file('dup.json', '{"version": 1, "id": "x", "id": "y"}')],
    ['trace', file('cut.json', '{"version": 1, \n')],
    ['trace', file('v2.json', '{"version": 2, "id": "x", "tensors": [], "attention": {}}')],
    ['trace', file('extra.json', scenario({}, undefined, { extra: 1 }))],
    ['trace', file('kee.json', scenario({ heads: [{ query: 'query', key: 'kee' }] }, weights))],
    ['trace', file('mask.json', scenario({ mask: [[1, 0], [1, 1]] }))],
    ['trace', file('temperature.json', scenario({ temperature: 1e39 }))],
    ['trace', file('long.json', scenario({}, [{ name: 'x', randn: [3000, 4] }]))],
    ['validate', file('lr.json', training({}, { lr: 10 }))],
    ['validate', file('heads.json', training({ heads: 3 }, {}))],
    ['validate', file('step.json', training({ embed: 128, heads: 8, layers: 4, mlp: 4 }, { batch: 256 }).replace('"length":8', '"length":64'))],
    ['train', file('decay.json', training({}, { lr: 5, weight_decay: 0.9 }))],
    ['model', model],
    ['model', model, '--text', 'café'],
    ['model', model, '--tokens', '3,1,400'],
    ['model', model, '--tokens', '3,x'],
    ['model', model, '--tokens', Array(40).fill(1).join(',')],
    ['head', model, '--text', 'To be', '--layer', '5', '--head', '0'],
    ['lens', model, '--text', 'To be', '--what', 'scores'],
    ['lens', model, '--tokens', '3,1,4', '--what', 'nothing'],
    ['lens', model, '--tokens', '3,1,4', '--what', 'ablate'],
    ['lens', model, '--tokens', '3,1,4', '--what', 'ablate', '--heads', '5.0'],
    ['lens', model, '--tokens', '3,1,4', '--what', 'attribution', '--position', '3'],
    ['lens', join(root, 'tests', 'models-v2', 'bert-mlm'), '--tokens', '1,2,3', '--what', 'logit-lens'],
    ['validate', file('cut.safetensors', readFileSync(model).subarray(0, 5000))],
    ['validate', file('text.safetensors', 'hello world, not a model')],
    ['model', 'folder', '--tokens', '1,2'],
    ['validate', file('text.json', JSON.stringify({ version: 1, id: 't', seed: 1, task: { name: 'text', corpus: 'my-notes.txt', length: 8 },
      model: { embed: 16, heads: 1, layers: 1 }, train: { steps: 5, batch: 8, lr: 0.01 }, eval: { every: 5, batch: 8, seed: 1 } }))],
    ['model', model, '--text', 'To be', '--config', join(work, 'missing-config.json')],
  ];
  mkdirSync(join(work, 'folder'));
  file('my-notes.txt', Buffer.concat([Buffer.alloc(600, 'a'), Buffer.from([0xff]), Buffer.alloc(100, 'b')]));
  // from the work folder, so that relative paths read as a user types them
  return runs.flatMap((args) => lines(spawnSync(cli, args, { cwd: work, encoding: 'utf8' }).stderr));
}

async function elementMessages() {
  const { readSettings } = await import(pathToFileURL(join(root, 'web/element/settings.js')));
  const { parseHash, linkNotice } = await import(pathToFileURL(join(root, 'web/state/state.js')));
  const { readAttention } = await import(pathToFileURL(join(root, 'web/element/attention-data.js')));
  const { checkTokenizerJson } = await import(pathToFileURL(join(root, 'web/engine/hf-tokenizer-check.js')));
  const { idsFromText } = await import(pathToFileURL(join(root, 'web/engine/typed-ids.js')));
  const out = [];
  const catching = (f) => { try { return f(); } catch (error) { out.push(error.message); return null; } };
  for (const attributes of [{ view: 'grid' }, { head: 'one' }, { scenario: 'bank-raw', sentence: 'hi' }, { scenario: 'bank-raw', heads: '2' },
    { model: 'text-gpt' }, { training: 'induction' }, { highlight: 'a' }, { temperature: '30' }, { step: 'weight' }])
    catching(() => readSettings((name) => attributes[name] ?? null));
  for (const hash of ['#sentence=hi&seed=-1', `#x=${'a'.repeat(20000)}`]) out.push(linkNotice(parseHash(hash).problems));
  for (const data of ['', '{', '{"tokens": ["a", "b"], "attention": [[1, 0], [0.5, -0.5]]}',
    '{"tokens": ["a", "b"], "attention": [[[1, 0], [1, 0]], [[1, 0, 0], [1, 0]]]}', '{"tokens": ["a"], "attention": [[NaN]]}',
    '{"tokens": ["a"], "attention": [[1]], "heads": 1}', '{"tokens": ["The", " cat", " sat"], "attention": [[[1, 0, 0], [0.5, 0.5, 0], [0.3, 0.3, 0.3]]]}'])
    out.push(catching(() => readAttention(data))?.note ?? '');
  catching(() => idsFromText('1, x, 3', 81));
  catching(() => checkTokenizerJson(JSON.stringify({ model: { type: 'BPE', vocab: { a: 0 }, merges: [] }, pre_tokenizer: { type: 'Magic' } })));
  return out.filter(Boolean);
}

// The notebook bundle answers the wasm glue's imports; the Model view's is not in it.
async function notebookMessages() {
  const { __apImport } = await import(pathToFileURL(join(root, 'scripts/notebook/shim.js')));
  const out = [];
  for (const url of ['ap-bundle:/wasm/attention-model.js', 'ap-bundle:/wasm/attention-train.js'])
    await __apImport(url).catch((error) => out.push(error.message));
  // a kernel that does not see the package (Debian's own python3, outside the venv)
  const python = spawnSync('python3', ['-I', '-c', 'import attention_playground'], { cwd: work, encoding: 'utf8' });
  out.push(...lines(python.stderr ?? '').slice(-1));
  return out;
}

// make serve on a port that is taken; the port taken here stands for make serve's 8000.
async function serveMessages() {
  const blocker = createServer();
  await new Promise((done) => blocker.listen(0, '127.0.0.1', done));
  const { port } = blocker.address();
  const server = spawn(process.execPath, [join(root, 'scripts', 'serve.mjs'), work, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  server.stderr.on('data', (chunk) => { said += chunk; });
  const timer = setTimeout(() => server.kill(), 10000);
  await new Promise((done) => server.on('close', done));
  clearTimeout(timer);
  blocker.close();
  return lines(said.replaceAll(String(port), '8000'));
}

// The browser tests and make bench without Debian's Chromium.
async function browserMessages() {
  try {
    const { chromium } = await import('playwright-core');
    await chromium.launch({ executablePath: '/usr/bin/chromium-missing' }).then((browser) => browser.close());
  } catch (error) {
    return lines(error.message.replaceAll('/usr/bin/chromium-missing', '/usr/bin/chromium')).slice(0, 1);
  }
  return [];
}

const produced = [...cliMessages(), ...await elementMessages(), ...await notebookMessages(), ...await serveMessages(), ...await browserMessages()];

// The page's message, "…" any text, as a whole line some command wrote.
function wasProduced(message) {
  return variants(message).some((m) => {
    const pattern = new RegExp(`^${m.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?')}$`);
    return produced.some((line) => pattern.test(line));
  });
}

function isTheProjects(message) {
  return wasProduced(message) || variants(message).some(inSources);
}

// ------------------------------------------------------------------- tests

const messages = pageMessages(readFileSync(pagePath, 'utf8'));

test('the troubleshooting page has 30 to 60 entries with messages, each message once', () => {
  const entries = new Set(messages.map((m) => m.heading));
  assert.ok(entries.size >= 30 && entries.size <= 60, `${entries.size} headings hold a "% message" block`);
  const seen = messages.map((m) => m.message);
  assert.deepEqual(seen.filter((m, i) => seen.indexOf(m) !== i), [], 'a message listed twice');
});

test('the commands here say what the page shows', () => {
  assert.ok(existsSync(cli), `${cli}: not built (make native, or set ATTENTION_NATIVE_DIR)`);
  assert.ok(produced.some((line) => line.startsWith('attention.heads[0].key: ')), 'the CLI ran');
  assert.ok(produced.length > 40, `only ${produced.length} lines came out of the commands`);
});

test('every message on the page is one the project writes', () => {
  const unknown = messages.filter(({ message }) => !isTheProjects(message)).map(({ heading, message }) => `${heading}: ${message}`);
  assert.deepEqual(unknown, []);
});

test('the check refuses a message the project does not write', () => {
  for (const invented of [
    'the moon is made of cheese; try another moon',
    '--heads: 5.0 is not a head of this planet (2 layers of 4 heads)',
    'attention.heads[0].key: no tensor called "kee"',
    'Attention Playground: view must be one of matrices, graphs; got "grid" or worse',
    'ValueError: show: the notebook is haunted by …',
  ]) assert.equal(isTheProjects(invented), false, invented);
  // and takes the real ones, with their values written out or as "…"
  for (const real of ['--heads: 5.0 is not a head of this model (2 layers of 4 heads)', 'attention.heads[0].key: no tensor named "…"'])
    assert.equal(isTheProjects(real), true, real);
});
