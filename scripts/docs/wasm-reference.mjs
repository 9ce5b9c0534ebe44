#!/usr/bin/env node
// Writes what each WebAssembly module exports into the bindings' reference.
//
//   node scripts/docs/wasm-reference.mjs [--check] [--page FILE.md]
//
// Reads CMakeLists.txt for the modules (attention_wasm_module(TARGET
// wasm/FILE.cpp OUTPUT ...)), then each file's EMSCRIPTEN_BINDINGS block:
// every class with its constructor and functions, and every free function.
// For each export it finds the C++ definition in the file and gives its
// arguments and return type as JS sees them, and the comment right above
// it. A method that only forwards to a member's method of the same name
// (`source_.feed(n)`) takes that method's comment from the wasm/ header
// that defines it. An export without a comment of its own takes the comment
// that names it as `name()`, or says that none does. The result goes between
// `<!-- generated:wasm-bindings:start -->` and `:end -->` in
// docs/reference/wasm.md; --check writes nothing and exits 1 when the page
// differs. Exits 2 when a source or the markers cannot be read.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOptions, root, writeOrCheck } from './generated-block.mjs';

// The modules CMakeLists.txt builds: [{target, source, output}] in its order.
export function wasmModules(cmake) {
  const found = [];
  for (const m of cmake.matchAll(/^\s*attention_wasm_module\((\w+)\s+(wasm\/[\w.]+\.cpp)\s+([\w-]+)/gm)) {
    found.push({ target: m[1], source: m[2], output: m[3] });
  }
  return found;
}

// The `//` comment lines right above line `index` (none when a blank or
// code line comes first), as one paragraph.
function commentAbove(lines, index) {
  const comment = [];
  for (let i = index - 1; i >= 0; i--) {
    const m = lines[i].match(/^\s*\/\/ ?(.*)$/);
    if (!m) break;
    comment.unshift(m[1]);
  }
  return comment.join('\n');
}

// The file's own opening comment (before its first #include or #pragma).
function fileComment(text) {
  const lines = text.split('\n');
  const comment = [];
  for (const line of lines) {
    const m = line.match(/^\/\/ ?(.*)$/);
    if (!m) break;
    comment.push(m[1]);
  }
  return comment.join('\n');
}

// From `from`, the text up to the brace that closes the first `{`.
function bodyFrom(text, from) {
  const open = text.indexOf('{', from);
  if (open < 0) return '';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

// The parameters of a C++ parameter list, split at top-level commas.
function splitParameters(list) {
  const parts = [];
  let depth = 0;
  let current = '';
  for (const c of list) {
    if (c === '<' || c === '(') depth++;
    if (c === '>' || c === ')') depth--;
    if (c === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  if (current.trim() !== '') parts.push(current);
  return parts.map((p) => p.trim());
}

const camel = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

// A C++ type as JS sees it through the glue.
function jsType(cxx, classes) {
  const t = cxx.replace(/\bconst\b|&|\bstd::|\bemscripten::/g, '').trim();
  if (t === 'double' || t === 'unsigned' || t === 'size_t' || t === 'uint32_t' || t === 'int') return 'number';
  if (t === 'u16string' || t === 'string') return 'string';
  if (t === 'bool') return 'boolean';
  if (t === 'void') return 'undefined';
  if (t === 'val') return 'any';
  if (classes.has(t)) return classes.get(t);
  return t;
}

// One C++ function's definition in `text`: {line, returns, parameters, body}
// or null. `inClass` limits the search to that class's body.
function findDefinition(text, name, inClass) {
  let scope = text;
  let offset = 0;
  if (inClass) {
    const at = text.search(new RegExp(`^\\s*class\\s+${inClass}\\s*\\{`, 'm'));
    if (at < 0) return null;
    scope = bodyFrom(text, at);
    offset = text.indexOf(scope, at);
  }
  const pattern = new RegExp(`^[ \\t]*((?:[\\w:<>]+[ \\t]+)*?[\\w:<>]+[ \\t&*]+)${name}\\(([^)]*)\\)\\s*(?:const\\s*)?\\{`, 'm');
  const m = scope.match(pattern);
  if (!m) return null;
  const start = offset + m.index;
  const line = text.slice(0, start).split('\n').length - 1;
  const returns = m[1].replace(/\[\[[^\]]*\]\]|\b(?:inline|static|explicit|virtual)\b/g, '').trim();
  return { line, returns, parameters: splitParameters(m[2]), body: bodyFrom(text, start) };
}

// Markdown-safe prose, one paragraph: JSON written in a comment ({"error"},
// "") becomes code; outside code, characters that Markdown would read as
// markup are escaped.
function prose(text) {
  const joined = text.replace(/\s*\n\s*/g, ' ').trim();
  const coded = joined
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\{[^{}`]*\}/g, '`$&`').replace(/(^|[\s(])""(?=[\s,.;:)]|$)/g, '$1`""`')))
    .join('');
  return coded
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([\\*_[\]<>|#])/g, '\\$1')))
    .join('');
}

// Every export of one binding file, with what the generator found for it.
export function readBindings(source, headers) {
  const lines = source.split('\n');
  const block = bodyFrom(source, source.indexOf('EMSCRIPTEN_BINDINGS'));
  const classes = new Map();  // C++ class → JS name
  for (const m of block.matchAll(/class_<(\w+)>\("(\w+)"\)/g)) classes.set(m[1], m[2]);
  const exports = [];
  let current = null;
  for (const m of block.matchAll(/class_<(\w+)>\("(\w+)"\)|\.constructor<([^>]*)>\(\)|\.function\("(\w+)",\s*&(\w+)::(\w+)\)|emscripten::function\("(\w+)",\s*&(\w+)\)/g)) {
    if (m[1]) {
      const at = source.search(new RegExp(`^\\s*class\\s+${m[1]}\\s*\\{`, 'm'));
      const line = source.slice(0, at).split('\n').length - 1;
      current = { kind: 'class', js: m[2], cxx: m[1], comment: at >= 0 ? commentAbove(lines, line) : '', members: [] };
      exports.push(current);
    } else if (m[3] !== undefined) {
      current.members.push({ js: 'constructor', signature: `new ${current.js}(${m[3]})`, comment: '' });
    } else if (m[4]) {
      current.members.push(describe(m[4], m[6], m[5]));
    } else {
      exports.push({ kind: 'function', ...describe(m[7], m[8], null) });
    }
  }
  return { comment: fileComment(source), exports };

  function describe(js, cxx, inClass) {
    const found = findDefinition(source, cxx, inClass);
    if (!found) throw new Error(`no definition of ${inClass ? `${inClass}::` : ''}${cxx} for ${js}`);
    const parameters = found.parameters.map((p) => {
      const m = p.match(/^(.*?)(\w+)$/);
      return `${camel(m[2])}: ${jsType(m[1], classes)}`;
    });
    let comment = commentAbove(lines, found.line);
    // a method that hands over to a member's method of its name: that one's comment
    const forward = found.body.match(new RegExp(`\\b\\w+_\\.${cxx}\\(`));
    if (forward) {
      for (const header of headers) {
        const there = findDefinition(header.text, cxx, null);
        const said = there && commentAbove(header.text.split('\n'), there.line);
        if (said) {
          comment = said;
          break;
        }
      }
    }
    // an accessor (a body of a few lines) may be described where another export's comment names it
    const accessor = found.body.split('\n').length <= 3;
    return { js, signature: `${js}(${parameters.join(', ')}) → ${jsType(found.returns, classes)}`, comment, accessor };
  }
}

// For an accessor with no comment: the exports whose comments name it as
// `js(` ("See `run`, `temper`."), or else the first other comment that does,
// in its file or the headers it includes.
function mentionOf(js, source, headers, owners) {
  const named = [];
  let other = '';
  for (const { text } of [{ text: source }, ...headers]) {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^\s*\/\//.test(lines[i])) continue;
      let end = i;
      while (end + 1 < lines.length && /^\s*\/\//.test(lines[end + 1])) end++;
      const comment = commentAbove(lines, end + 1);
      i = end;
      if (!new RegExp(`\\b${js}\\(`).test(comment)) continue;
      const owner = owners.get(comment);
      if (owner && owner !== js) named.push(owner);
      else if (!owner && !other) other = comment;
    }
  }
  if (named.length > 0) return `See ${[...new Set(named)].map((n) => `\`${n}\``).join(', ')}.`;
  return other;
}

export function bindingsMarkdown(rootDir) {
  const cmake = readFileSync(join(rootDir, 'CMakeLists.txt'), 'utf8');
  const modules = wasmModules(cmake).map((module) => {
    const source = readFileSync(join(rootDir, module.source), 'utf8');
    const headers = [...source.matchAll(/^#include "(\w+\.hpp)"/gm)]
      .map((m) => join(rootDir, 'wasm', m[1]))
      .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    return { ...module, text: source, headers, ...readBindings(source, headers) };
  });
  if (modules.length === 0) throw new Error('CMakeLists.txt: no attention_wasm_module(...) lines');
  // a free function another module exports too, with a comment there (heapInUse)
  const elsewhere = new Map();
  for (const module of modules) {
    for (const e of module.exports) if (e.kind === 'function' && e.comment) elsewhere.set(e.signature, e.comment);
  }
  const out = [];
  const missing = [];
  for (const module of modules) {
    const { text: source, headers, comment, exports } = module;
    const members = exports.flatMap((e) => (e.kind === 'class' ? e.members : [e]));
    const owners = new Map(members.filter((m) => m.comment).map((m) => [m.comment, m.js]));
    out.push(`### ${module.output}`, '', `\`${module.source}\`, built as \`${module.output}.js\` and \`${module.output}.wasm\`.`, '');
    if (comment) out.push(prose(comment), '');
    const entry = (m, owner) => {
      let text = m.comment ? prose(m.comment) : '';
      if (!text && m.js !== 'constructor') {
        const found = (m.accessor ? mentionOf(m.js, source, headers, owners) : '') || (owner ? '' : elsewhere.get(m.signature) ?? '');
        text = found ? prose(found) : '(no comment above its definition)';
        if (!found) missing.push(`${module.source}: ${owner ? `${owner}.` : ''}${m.js}`);
      }
      return `- \`${m.signature}\`${text ? `: ${text}` : ''}`;
    };
    for (const e of exports) {
      if (e.kind !== 'class') continue;
      out.push(`#### Class \`${e.js}\``, '');
      if (e.comment) out.push(prose(e.comment), '');
      for (const m of e.members) out.push(entry(m, e.js));
      out.push('');
    }
    const functions = exports.filter((e) => e.kind === 'function');
    if (functions.length > 0) {
      out.push('#### Functions', '');
      for (const f of functions) out.push(entry(f, null));
      out.push('');
    }
  }
  return { markdown: `${out.join('\n').trimEnd()}\n`, missing };
}

function main(argv) {
  const tool = 'wasm-reference';
  const options = readOptions(argv, tool, 'docs/reference/wasm.md');
  if (!options) return 64;
  let generated;
  try {
    generated = bindingsMarkdown(root);
  } catch (e) {
    console.error(`${tool}: ${e.message}`);
    return 2;
  }
  if (!options.check && generated.missing.length > 0) {
    console.error(`${tool}: no comment above the definition of ${generated.missing.join(', ')}`);
  }
  return writeOrCheck({ tool, page: options.page, name: 'wasm-bindings', body: generated.markdown, check: options.check });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
