#!/usr/bin/env node
// Checks wasm/README.md against the bindings' registration: every export of
// every EMSCRIPTEN_BINDINGS block in wasm/*.cpp must be written in the
// README's section for its file, as `name(argument, …)` with as many
// arguments as its C++ definition takes, and every `name(…)` written there
// must be an export of that file.
//
//   node scripts/docs/wasm-readme.mjs [--check] [--page FILE.md]
//
// A section for a file is a `## ` heading that names it in backticks
// (`model_bindings.cpp`); it runs to the next `## ` heading. Inside it, a
// call is a code span of the form `name(arguments)`: the arguments are
// counted at their commas (`()` is none), and `…` in place of them is
// refused, since it says nothing of their number. Nothing is written: the
// check is the only mode, and --check is taken for the other generators'
// sake. Exits 1 with one line per problem, 2 when a source cannot be read.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOptions, root } from './generated-block.mjs';
import { readBindings } from './wasm-reference.mjs';

// Each binding file's exports: {file, exports: [{owner, js, parameters}]},
// constructors left out (new X() is how JS makes one, not a call to list).
export function registeredCalls(rootDir) {
  const folder = join(rootDir, 'wasm');
  const files = readdirSync(folder).filter((name) => name.endsWith('.cpp')).sort();
  const found = [];
  for (const file of files) {
    const source = readFileSync(join(folder, file), 'utf8');
    if (!source.includes('EMSCRIPTEN_BINDINGS')) continue;
    const exports = [];
    for (const e of readBindings(source, []).exports) {
      const members = e.kind === 'class' ? e.members.map((m) => ({ ...m, owner: e.js })) : [{ ...e, owner: null }];
      for (const m of members) {
        if (m.js === 'constructor') continue;
        const list = m.signature.slice(m.js.length + 1, m.signature.lastIndexOf(') →'));
        const parameters = list.trim() === '' ? [] : list.split(', ').map((p) => p.split(':')[0]);
        exports.push({ owner: m.owner, js: m.js, parameters });
      }
    }
    found.push({ file, exports });
  }
  return found;
}

// The README's `## ` sections: [{heading, line, body: [{text, line}]}], the
// body's lines from the one after the heading's.
function sectionsOf(text) {
  const sections = [];
  let current = null;
  text.split('\n').forEach((line, i) => {
    if (/^## /.test(line)) {
      current = { heading: line, line: i + 1, body: [] };
      sections.push(current);
    } else if (current) current.body.push({ text: line, line: i + 1 });
  });
  return sections;
}

// The calls written in a section: [{name, count (null for …), span, line}].
// A code span may go on over a line break, as Markdown lets it.
function callsIn(section) {
  const calls = [];
  const text = section.body.map((b) => b.text).join('\n');
  for (const m of text.matchAll(/`([A-Za-z_]\w*)\(([^()`]*)\)`/g)) {
    const inside = m[2].replace(/\s+/g, ' ').trim();
    const count = inside === '' ? 0 : inside.includes('…') ? null : inside.split(',').length;
    const line = section.line + 1 + text.slice(0, m.index).split('\n').length - 1;
    calls.push({ name: m[1], count, span: m[0].replace(/\s+/g, ' '), line });
  }
  return calls;
}

// The problems of `readme` (its text) against `modules` (registeredCalls'),
// one line each; `shown` names the README in them.
export function readmeProblems(readme, modules, shown = 'wasm/README.md') {
  const problems = [];
  const sections = sectionsOf(readme);
  for (const { file, exports } of modules) {
    const own = sections.filter((s) => s.heading.includes(`\`${file}\``));
    if (own.length === 0) {
      problems.push(`${shown}: no "## " section names \`${file}\`, which registers ${exports.length} call(s)`);
      continue;
    }
    const calls = own.flatMap(callsIn);
    const byName = new Map();
    for (const e of exports) byName.set(e.js, [...(byName.get(e.js) ?? []), e]);
    for (const e of exports) {
      const name = e.owner ? `${e.owner}.${e.js}` : e.js;
      if (!calls.some((c) => c.name === e.js)) {
        problems.push(`${shown}: ${name}(${e.parameters.join(', ')}) of wasm/${file} is registered but not written as \`${e.js}(…)\` in its section`);
      }
    }
    for (const c of calls) {
      const registered = byName.get(c.name);
      const at = `${shown}:${c.line}: ${c.span}`;
      if (!registered) {
        problems.push(`${at} is not registered in wasm/${file}`);
      } else if (c.count === null) {
        problems.push(`${at}: write its arguments (${registered.map((e) => e.parameters.join(', ')).join(' or ')})`);
      } else if (!registered.some((e) => e.parameters.length === c.count)) {
        const e = registered[0];
        const n = e.parameters.length;
        problems.push(`${at}: ${e.owner ? `${e.owner}.` : ''}${c.name} takes ${n} argument${n === 1 ? '' : 's'} (${e.parameters.join(', ')}), not ${c.count}`);
      }
    }
  }
  return problems;
}

function main(argv) {
  const tool = 'wasm-readme';
  const options = readOptions(argv, tool, 'wasm/README.md');
  if (!options) return 64;
  const shown = relative(process.cwd(), options.page) || options.page;
  let readme;
  let modules;
  try {
    readme = readFileSync(options.page, 'utf8');
    modules = registeredCalls(root);
  } catch (e) {
    console.error(`${tool}: ${e.message}`);
    return 2;
  }
  const problems = readmeProblems(readme, modules, shown);
  for (const line of problems) console.error(`${tool}: ${line}`);
  return problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
