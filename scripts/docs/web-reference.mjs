// The generated parts of the element's and the URL's reference pages, from
// the code's own tables: the element's attributes, events and members
// (web/element/settings.js) and the keys of the playground's URL hash
// (web/state/state.js's props, with their meanings below). Each part sits
// in its page between
//   <!-- generated:NAME:start --> and <!-- generated:NAME:end -->
// and the hand-written prose around it stays as it is.
// usage: node scripts/docs/web-reference.mjs [--check] [--docs DIR]
//   no flag: rewrite the parts in place; --check: change nothing, exit 1 and
//   name each part that differs (or whose markers are missing). DIR: the
//   documentation's source folder (default docs/).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { attributes, events, members } from '../../web/element/settings.js';
import { modelKeys, props, takes } from '../../web/state/state.js';

// A table cell: one line, its pipes escaped.
const cell = (text) => String(text).replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const table = (head, rows) => [
  `| ${head.join(' | ')} |`,
  `| ${head.map(() => '---').join(' | ')} |`,
  ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
].join('\n');
const code = (text) => `\`${text}\``;

function attributeTable() {
  return table(['attribute', 'values', 'default'],
    Object.entries(attributes).map(([name, [fallback, values]]) => [code(name), values, fallback]));
}

function eventTable() {
  const detail = (keys) => (keys === null ? 'none' : Object.entries(keys)
    .map(([key, [type, meaning]]) => `${code(`detail.${key}`)} (${type}): ${meaning}`).join('; '));
  return table(['event', 'when', 'detail'],
    Object.entries(events).map(([name, [when, keys]]) => [code(name), when, detail(keys)]));
}

function memberTable() {
  return table(['member', 'kind', 'type', 'what it does'],
    Object.entries(members).map(([name, [kind, type, about]]) =>
      [code(kind === 'method' ? `${name}()` : name), kind === 'method' ? 'method' : 'property', code(kind === 'method' ? `() => ${type}` : type), about]));
}

// What each key of the hash means, and what its absence means when its
// default is null. The keys, their values and their defaults are the code's
// (props); these words are kept here, off the page's first visit, and must
// name the same keys in the same order, or nothing is written.
export const keyMeanings = {
  preset: 'the preset scenario shown; a link with `sentence` or `file` leaves it out',
  sentence: 'your own sentence instead of a preset, up to 64 words, built as the sentence notebook builds it',
  seed: 'the sentence\'s `torch.manual_seed`',
  embed: 'the sentence\'s embedding width',
  head_size: 'the sentence\'s query and key width',
  value_size: 'the sentence\'s value width',
  heads: 'the sentence\'s number of heads',
  mask: 'the mask; absent: the scenario\'s own',
  scale: '`1` divides the scores by √head_size, `0` does not; absent: the scenario\'s own',
  temperature: 'the scores are divided by it; absent: the scenario\'s own. In the Model view, the temperature Generate samples at; absent: 0.8',
  batch: 'the batch element shown',
  head: 'the head shown (in the Model view, the selected head of `layer`)',
  step: 'the player\'s step (`rotate` only with rotary positions); absent: the `weights` step with one query in focus',
  graph: 'the communication graph\'s layout: arcs, or columns from → to',
  lesson: 'a lesson instead of the playground',
  train: 'the training view, on this training preset',
  order: 'the word order of the `space` lesson, such as `5.4.3.2.1.0`',
  positions: '`1` adds sinusoidal position encodings in the `space` lesson',
  edits: 'values typed into cells of `x` or of a weight, such as `x.5=0.25`',
  file: '`1`: the view shows a file opened from disk (a scenario in this tab, or in the Model view a model), which a link cannot carry',
  factor: 'the `scaling` lesson\'s third factor',
  model: 'the Model view, on this model: a preset id, or the URL of a model file or of a model folder (ending in `/`) on the same site',
  text: 'the text the Model view\'s model reads; absent: `To be, or not to be`',
  layer: 'the Model view\'s selected layer',
  top_k: 'the Model view\'s top-k; absent or `0`: off',
  top_p: 'the Model view\'s top-p; absent or `1`: off',
  generated: 'which of the text\'s tokens Generate wrote: each run, such as `19_12.45.7`, is the character where it starts, then its token ids',
  lens: 'the Model view\'s open lens',
  ablate: 'the heads the Ablate lens switches off',
  mode: 'how Ablate switches them off; absent: `zero`',
  at: 'the position a lens looks at; absent: the last (for a BERT, its first `[MASK]`)',
  token: 'the token id Attribution explains; absent: the model\'s own choice',
};

function keyTable() {
  const missing = Object.keys(props).filter((name) => !Object.hasOwn(keyMeanings, name));
  const unknown = Object.keys(keyMeanings).filter((name) => !Object.hasOwn(props, name));
  if (missing.length || unknown.length) {
    throw new Error(`keyMeanings (scripts/docs/web-reference.mjs) must name the keys of props (web/state/state.js):${
      missing.length ? ` no meaning for ${missing.join(', ')}` : ''}${unknown.length ? ` no such key ${unknown.join(', ')}` : ''}`);
  }
  if (Object.keys(keyMeanings).join() !== Object.keys(props).join()) throw new Error('keyMeanings must list the keys in the order of props');
  return table(['key', 'values', 'default', 'meaning'],
    Object.entries(props).map(([name, spec]) => [code(name), takes(spec), spec.default === null ? 'absent' : code(spec.default), keyMeanings[name]]));
}

function bareTable() {
  return table(['link', 'opens as'],
    Object.entries(props).filter(([, spec]) => spec.bare !== undefined).map(([name, spec]) => [code(`#${name}`), code(`#${name}=${spec.bare}`)]));
}

function modelKeyList() {
  return `The Model view's link keeps these keys and no others: ${modelKeys.map(code).join(', ')}.`;
}

// page (under the documentation's folder) → part name → its Markdown
export const pages = {
  'reference/element.md': { 'element-attributes': attributeTable, 'element-events': eventTable, 'element-members': memberTable },
  'reference/url-keys.md': { 'url-keys': keyTable, 'url-keys-bare': bareTable, 'url-keys-model': modelKeyList },
};

const marker = (name, end) => `<!-- generated:${name}:${end} -->`;

// text with each part written between its markers: {text, problems}
export function rewrite(text, parts) {
  const problems = [];
  for (const [name, make] of Object.entries(parts)) {
    const start = text.indexOf(marker(name, 'start'));
    const end = text.indexOf(marker(name, 'end'));
    if (start < 0 || end < start) {
      problems.push(`${name}: no ${marker(name, 'start')} … ${marker(name, 'end')} in order`);
      continue;
    }
    text = `${text.slice(0, start + marker(name, 'start').length)}\n\n${make()}\n\n${text.slice(end)}`;
  }
  return { text, problems };
}

// Every page's parts against what is written: [{page, name, problem}]
export function differences(docsDir) {
  const found = [];
  for (const [page, parts] of Object.entries(pages)) {
    const text = readFileSync(join(docsDir, page), 'utf8');
    const { problems } = rewrite(text, parts);
    for (const problem of problems) found.push({ page, problem });
    for (const [name, make] of Object.entries(parts)) {
      if (problems.some((p) => p.startsWith(`${name}:`))) continue;
      const written = rewrite(text, { [name]: make }).text;
      if (written !== text) found.push({ page, problem: `${name}: differs from the code's table; run node scripts/docs/web-reference.mjs` });
    }
  }
  return found;
}

function main(args) {
  const check = args.includes('--check');
  const at = args.indexOf('--docs');
  const docsDir = at >= 0 ? args[at + 1] : fileURLToPath(new URL('../../docs/', import.meta.url));
  const unknown = args.filter((a, i) => a !== '--check' && !(a === '--docs' || (at >= 0 && i === at + 1)));
  if (!docsDir || unknown.length) {
    console.error('usage: node scripts/docs/web-reference.mjs [--check] [--docs DIR]');
    return 64;
  }
  if (check) {
    const found = differences(docsDir);
    for (const { page, problem } of found) console.error(`${relative('.', join(docsDir, page))}: ${problem}`);
    return found.length ? 1 : 0;
  }
  let failed = false;
  for (const [page, parts] of Object.entries(pages)) {
    const path = relative('.', join(docsDir, page));
    const before = readFileSync(path, 'utf8');
    const { text, problems } = rewrite(before, parts);
    for (const problem of problems) console.error(`${path}: ${problem}`);
    failed ||= problems.length > 0;
    if (text !== before) {
      writeFileSync(path, text);
      console.log(`${path}: rewritten`);
    }
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`web-reference: ${error.message}`);
    process.exitCode = 1;
  }
}
