#!/usr/bin/env node
// Writes every size limit into the limits page, from the sources.
//
//   node scripts/docs/limits-reference.mjs [--check] [--page FILE.md]
//
// Two generated blocks of docs/reference/limits.md:
//   - `generated:limits-core`: every constant of core/formats/limits.hpp,
//     namespace by namespace (the comment above each namespace as its
//     introduction), with its value and its comment;
//   - `generated:limits-elsewhere`: the limits that live in other files (a
//     folder's files in the core, the glue's numbers, the page's own, the
//     element's, the notebook package's), each found by its name in its
//     file, its value read from there; what each bounds is said here.
// --check writes nothing and exits 1 when the page differs; a constant that
// is no longer where this script looks exits 2, naming it.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOptions, root, writeOrCheck } from './generated-block.mjs';

// The value of a constant's expression, as the sources write them:
// 16u << 20, std::uint64_t{1} << 39, 16 * 1024 * 1024, 2 ** 31 - 1, 1e-3,
// 50_000, or the name of a constant read before.
export function evaluate(expression, known = new Map()) {
  const text = expression
    .replace(/std::u?int\d+_t\{([^}]*)\}/g, '($1)')
    .replace(/\b(\d+)(?:u|ul|ull|UL|ULL|U)\b/g, '$1')
    .replace(/(\d)_(?=\d)/g, '$1')
    .trim();
  const tokens = text.match(/\d+(?:\.\d+)?(?:e[+-]?\d+)?|<<|\*\*|[-+*()]|[\w:]+|\S/g) ?? [];
  let i = 0;
  const fail = () => {
    throw new Error(`cannot evaluate ${JSON.stringify(expression)}`);
  };
  const primary = () => {
    const t = tokens[i++];
    if (t === '(') {
      const v = shift();
      if (tokens[i++] !== ')') fail();
      return v;
    }
    if (t !== undefined && /^\d/.test(t)) return /[.e]/.test(t) ? Number(t) : BigInt(t);
    if (t !== undefined && known.has(t.split('::').at(-1))) return known.get(t.split('::').at(-1));
    return fail();
  };
  const power = () => {
    const base = primary();
    if (tokens[i] !== '**') return base;
    i++;
    return base ** power();
  };
  const product = () => {
    let v = power();
    while (tokens[i] === '*') {
      i++;
      v *= power();
    }
    return v;
  };
  const sum = () => {
    let v = product();
    while (tokens[i] === '+' || tokens[i] === '-') {
      const op = tokens[i++];
      const w = product();
      v = op === '+' ? v + w : v - w;
    }
    return v;
  };
  const shift = () => {
    let v = sum();
    while (tokens[i] === '<<') {
      i++;
      v <<= sum();
    }
    return v;
  };
  const value = shift();
  if (i !== tokens.length) fail();
  return value;
}

// 16777216n → "16,777,216"; 0.001 → "0.001".
export function shown(value) {
  if (typeof value === 'number' && !Number.isInteger(value)) return String(value);
  return BigInt(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// Table-cell text: one line, a quoted string from the source as code,
// `|` escaped, what Markdown would read as markup outside code escaped.
function cell(text) {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/"[^"`]*"/g, '`$&`')))
    .join('')
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part.replace(/\|/g, '\\|') : part.replace(/([\\*_[\]<>|])/g, '\\$1')))
    .join('');
}

// The constants of limits.hpp: [{namespace, intro, constants: [{name,
// expression, value, comment} or {heading}]}], in the file's order. A
// comment block right above `namespace` introduces it; one after a blank
// line introduces the constants below it (a heading); one right after a
// constant's line belongs to the next constant. A comment line indented
// past the code continues the trailing comment above it.
export function readLimitsHeader(text) {
  const lines = text.split('\n');
  const groups = [];
  const known = new Map();
  const isComment = (line) => /^\s*\/\//.test(line ?? '');
  const commentText = (line) => line.replace(/^\s*\/\/\s?/, '');
  // the comment block ending right above line i: [its lines, the line before it]
  const blockAbove = (i) => {
    let start = i;
    while (start > 0 && isComment(lines[start - 1]) && !/^\s{20,}\/\//.test(lines[start - 1])) start--;
    return [lines.slice(start, i).map(commentText), lines[start - 1] ?? ''];
  };
  let group = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const ns = line.match(/^namespace\s+([\w:]+)\s*\{/);
    if (ns) {
      group = { namespace: ns[1], intro: blockAbove(i)[0].join('\n'), constants: [] };
      groups.push(group);
      continue;
    }
    const constant = line.match(/^\s*inline\s+constexpr\s+[\w:]+\s+(\w+)\s*=\s*([^;]+);\s*(?:\/\/\s?(.*))?$/);
    if (!constant || !group) continue;
    const [, name, expression, trailing] = constant;
    const value = evaluate(expression, known);
    known.set(name, value);
    const [above, before] = blockAbove(i);
    const own = [];
    if (above.length > 0) {
      if (before.trim() === '' || /^namespace\b/.test(before)) group.constants.push({ heading: above.join('\n') });
      else own.push(...above);
    }
    if (trailing) own.push(trailing);
    for (let j = i + 1; /^\s{20,}\/\//.test(lines[j] ?? ''); j++) own.push(commentText(lines[j]));
    group.constants.push({ name, expression: expression.trim(), value, comment: own.join('\n') });
  }
  return groups;
}

const titles = {
  'attention::limits': 'Scenarios and traces',
  'attention::limits::sampling': 'Sampling',
  'attention::limits::training': 'Training files',
  'attention::limits::models': 'Model files and folders',
};

// What a constant bounds when limits.hpp gives it no comment.
const uncommented = {
  'attention::limits::sampling::temperature_floor': 'the lowest temperature a sampling may use',
  'attention::limits::training::layers': 'layers of the model',
  'attention::limits::training::steps': 'train.steps',
  'attention::limits::training::eval_batch': 'eval.batch',
  'attention::limits::models::layers': 'layers of the model',
};

function coreMarkdown(groups) {
  const out = [];
  const table = ['| Name | Value | What it bounds |', '| --- | --- | --- |'];
  for (const g of groups) {
    out.push(`### ${titles[g.namespace] ?? g.namespace}`, '');
    out.push(`Namespace \`${g.namespace}\`.${g.intro ? ` ${cell(g.intro)}` : ''}`, '', ...table);
    for (const [k, c] of g.constants.entries()) {
      if (c.heading) {
        if (k > 0) out.push('', cell(c.heading), '', ...table);
        else out.splice(out.length - table.length - 1, 0, cell(c.heading), '');
        continue;
      }
      const what = c.comment || uncommented[`${g.namespace}::${c.name}`];
      if (!what) throw new Error(`core/formats/limits.hpp: ${g.namespace}::${c.name} has no comment, and this script no words for it`);
      out.push(`| \`${c.name}\` | ${shown(c.value)} | ${cell(what)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

// The limits outside limits.hpp: where each lives, its name there, and what
// it bounds. `name` is a constant's name, or object.key for a member of an
// object literal (attentionLimits.tokens).
export const elsewhere = [
  { part: 'The core, for a model folder', limits: [
    { file: 'core/models/folder_read.cpp', name: 'config_limit', what: 'bytes of a folder\'s `config.json`' },
    { file: 'core/models/folder_read.cpp', name: 'index_limit', what: 'bytes of a folder\'s `model.safetensors.index.json`' },
    { file: 'core/models/folder_read.cpp', name: 'shard_limit', what: 'shards an index may list' },
    { file: 'core/models/hf_config.cpp', name: 'config_bytes', what: 'bytes of a GPT-2 `config.json` given with `--config`, or to the page beside a model file' },
  ] },
  { part: 'The WebAssembly glue', limits: [
    { file: 'wasm/numbers.hpp', name: 'largest_index', what: 'a count, an index or a size passed from JavaScript' },
    { file: 'wasm/numbers.hpp', name: 'largest_seed', what: 'a seed or a file size passed from JavaScript (2⁵³, the largest whole number JavaScript holds exactly)' },
  ] },
  { part: 'The page, before a file reaches the core', limits: [
    { file: 'web/engine/engine.js', name: 'scenarioBytes', what: 'bytes of a scenario file opened or fetched, refused by its size before it is read' },
    { file: 'web/engine/engine.js', name: 'trainingBytes', what: 'bytes of a training file fetched, refused by its `Content-Length` before it is read' },
    { file: 'web/engine/engine.js', name: 'corpusBytes', what: 'bytes of a corpus file opened in the training view, refused by its size before it is read' },
    { file: 'web/engine/model.js', name: 'configLimit', what: 'bytes of a `config.json` picked or fetched' },
    { file: 'web/engine/folder-source.js', name: 'limits.index', what: 'bytes of a folder\'s `model.safetensors.index.json` read by the page' },
    { file: 'web/engine/hf-tokenizer-check.js', name: 'tokenizerLimit', what: 'bytes of a `tokenizer.json`' },
  ] },
  { part: 'The page\'s settings and links', limits: [
    { file: 'web/state/state.js', name: 'maxHashLength', what: 'characters of a link\'s `#…`; a longer one is ignored, with a notice' },
    { file: 'web/state/state.js', name: 'maskLimit', what: 'rows and columns of a custom mask in a link or an attribute' },
    { file: 'web/state/sentence.js', name: 'maxWords', what: 'words of your own sentence' },
    { file: 'web/state/state.js', name: 'props.sentence.maxLength', what: 'characters of your own sentence' },
    { file: 'web/state/state.js', name: 'props.text.maxLength', what: 'characters of the Model view\'s text' },
  ] },
  { part: 'The element\'s given attention weights (`view="attention"`, and the notebook package)', limits: [
    { file: 'web/element/attention-data.js', name: 'attentionLimits.tokens', what: 'tokens T' },
    { file: 'web/element/attention-data.js', name: 'attentionLimits.heads', what: 'heads L · H, one thumbnail each' },
    { file: 'web/element/attention-data.js', name: 'attentionLimits.weights', what: 'weights L · H · T · T' },
    { file: 'web/element/attention-data.js', name: 'attentionLimits.characters', what: 'characters of the JSON text' },
    { file: 'web/element/attention-data.js', name: 'attentionLimits.token', what: 'characters of one token' },
    { file: 'web/element/attention-data.js', name: 'attentionLimits.title', what: 'characters of the title' },
  ] },
];

// A brace-delimited body from the `{` at or after `from`.
function braces(text, from) {
  const open = text.indexOf('{', from);
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open + 1, i);
  }
  return '';
}

// The expression a constant (or an object's member) is set to in `text`.
export function expressionOf(text, name) {
  const [first, ...members] = name.split('.');
  const declared = new RegExp(`(?:const|constexpr)\\s+(?:[\\w:]+\\s+)?${first}\\s*=\\s*`).exec(text);
  if (!declared) return null;
  if (members.length === 0) {
    const rest = text.slice(declared.index + declared[0].length);
    return rest.slice(0, rest.search(/;/)).trim();
  }
  let scope = braces(text, declared.index);
  for (const [k, member] of members.entries()) {
    const at = new RegExp(`(?:^|[\\s,{])${member}\\s*:\\s*`).exec(scope);
    if (!at) return null;
    const rest = scope.slice(at.index + at[0].length);
    if (k < members.length - 1) {
      scope = braces(rest, 0);
      continue;
    }
    return rest.match(/^[^,}\n]+/)[0].trim();
  }
  return null;
}

function elsewhereMarkdown(rootDir) {
  const out = [];
  for (const { part, limits } of elsewhere) {
    out.push(`### ${part}`, '', '| Limit | Value | What it bounds |', '| --- | --- | --- |');
    for (const l of limits) {
      const text = readFileSync(join(rootDir, l.file), 'utf8');
      const expression = expressionOf(text, l.name);
      if (expression === null) throw new Error(`${l.file}: no constant ${l.name}`);
      out.push(`| \`${l.name}\` in \`${l.file}\` | ${shown(evaluate(expression))} | ${cell(l.what)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

export function limitsMarkdown(rootDir) {
  const header = readFileSync(join(rootDir, 'core/formats/limits.hpp'), 'utf8');
  const groups = readLimitsHeader(header);
  if (groups.length === 0) throw new Error('core/formats/limits.hpp: no namespace of limits');
  return { core: coreMarkdown(groups), elsewhere: elsewhereMarkdown(rootDir) };
}

function main(argv) {
  const tool = 'limits-reference';
  const options = readOptions(argv, tool, 'docs/reference/limits.md');
  if (!options) return 64;
  let generated;
  try {
    generated = limitsMarkdown(root);
  } catch (e) {
    console.error(`${tool}: ${e.message}`);
    return 2;
  }
  const first = writeOrCheck({ tool, page: options.page, name: 'limits-core', body: generated.core, check: options.check });
  if (first !== 0) return first;
  return writeOrCheck({ tool, page: options.page, name: 'limits-elsewhere', body: generated.elsewhere, check: options.check });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
