#!/usr/bin/env node
// Runs the documentation's runnable examples and compares their output.
//
//   node scripts/docs/run-examples.mjs [--show] [FILE.md ...]
//
// A runnable example is a fenced `console` block right after a MyST comment
// line `% runnable`. Each `$ ` line in it is one command, run by bash from the
// repository root with ${ATTENTION_NATIVE_DIR ?? 'build/native'} first on
// PATH (so `attention-cli` is the native CLI), stderr joined to stdout, 60 s at
// most (RUN_EXAMPLES_TIMEOUT_SECONDS changes it). The lines after a command,
// up to the next `$ ` line, are its expected output, compared line by line
// after trimming trailing white space:
//   - a line holding only `...` matches any number of lines (none too);
//   - a last line `[exit N]` says the command exits with status N; without
//     it the command must exit 0. (A pipeline's status is its last command's.)
// Trailing empty lines are ignored on both sides.
//
// Without files: README.md and every docs/**/*.md. Prints one line per
// mismatch, `file:line: what differs`, and exits 1 if there is any.
// --show also prints every command's actual output, ready to paste.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const nativeDir = resolve(root, process.env.ATTENTION_NATIVE_DIR ?? 'build/native');
const timeoutMs = 1000 * Number(process.env.RUN_EXAMPLES_TIMEOUT_SECONDS ?? 60);  // per command
const exitLine = /^\[exit (\d+)\]$/;

// Every Markdown file under a folder, sorted, so reports come in a stable order.
function markdownUnder(folder) {
  const found = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...markdownUnder(path));
    else if (entry.isFile() && entry.name.endsWith('.md')) found.push(path);
  }
  return found.sort();
}

function defaultFiles() {
  const files = [];
  if (existsSync(join(root, 'README.md'))) files.push(join(root, 'README.md'));
  if (existsSync(join(root, 'docs'))) files.push(...markdownUnder(join(root, 'docs')));
  return files;
}

// A fence's opening: its indentation, its marker (``` or ~~~, 3 or more) and its info string.
const fenceOpen = /^( {0,3})(`{3,}|~{3,})\s*([^`]*)$/;

// The runnable blocks of one file: [{line, commands: [{line, command, expected, exit}]}],
// and the problems of blocks that cannot be read (reported as mismatches).
export function parseRunnable(text, file) {
  const lines = text.split(/\r?\n/);
  const blocks = [];
  const problems = [];
  let fence = null;  // the fence we are inside: {marker, indent}
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence) {
      const close = line.match(/^ {0,3}(`{3,}|~{3,})\s*$/);
      if (close && close[1][0] === fence.marker[0] && close[1].length >= fence.marker.length) fence = null;
      continue;
    }
    const open = line.match(fenceOpen);
    if (open) {
      fence = { marker: open[2] };
      continue;
    }
    if (line.trim() !== '% runnable') continue;
    const next = (lines[i + 1] ?? '').match(fenceOpen);
    if (!next || next[3].trim().split(/\s+/)[0] !== 'console') {
      problems.push({ file, line: i + 1, message: '% runnable is not followed by a ```console block' });
      continue;
    }
    const indent = next[1].length;
    const marker = next[2];
    const body = [];
    let j = i + 2;
    for (; j < lines.length; j++) {
      const close = lines[j].match(/^ {0,3}(`{3,}|~{3,})\s*$/);
      if (close && close[1][0] === marker[0] && close[1].length >= marker.length) break;
      body.push({ line: j + 1, text: lines[j].replace(new RegExp(`^ {0,${indent}}`), '') });
    }
    if (j === lines.length) {
      problems.push({ file, line: i + 2, message: 'the console block is never closed' });
      break;
    }
    const commands = [];
    for (const { line: number, text: content } of body) {
      if (content.startsWith('$ ')) {
        commands.push({ line: number, command: content.slice(2), expected: [] });
      } else if (commands.length === 0) {
        if (content.trim() !== '') {
          problems.push({ file, line: number, message: 'output before any `$ ` line' });
          break;
        }
      } else {
        commands.at(-1).expected.push(content.trimEnd());
      }
    }
    if (commands.length === 0) problems.push({ file, line: i + 2, message: 'a runnable block without a `$ ` line' });
    for (const c of commands) {
      dropTrailingEmpty(c.expected);
      const last = c.expected.at(-1)?.match(exitLine);
      c.exit = last ? Number(last[1]) : 0;
      if (last) {
        c.expected.pop();
        dropTrailingEmpty(c.expected);
      }
    }
    blocks.push({ file, line: i + 1, commands });
    i = j;
  }
  return { blocks, problems };
}

function dropTrailingEmpty(lines) {
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
}

// Does `actual` (lines) match `expected` (lines, `...` matching any run)?
// Returns null on a match, else where they part: {index, expected, actual},
// the stuck place that got furthest into the actual output.
export function compareLines(expected, actual) {
  const E = expected.length;
  const A = actual.length;
  // seen[i][j]: expected[0..i) can match actual[0..j)
  const seen = Array.from({ length: E + 1 }, () => new Array(A + 1).fill(false));
  seen[0][0] = true;
  let stuck = null;
  for (let i = 0; i <= E; i++) {
    for (let j = 0; j <= A; j++) {
      if (!seen[i][j]) continue;
      if (i === E) {
        if (j === A) return null;
      } else if (expected[i] === '...') {
        seen[i + 1][j] = true;
        if (j < A) seen[i][j + 1] = true;
        continue;
      } else if (j < A && expected[i] === actual[j]) {
        seen[i + 1][j + 1] = true;
        continue;
      }
      if (!stuck || j > stuck.j || (j === stuck.j && i > stuck.i)) stuck = { i, j };
    }
  }
  if (seen[E][A]) return null;
  return { index: stuck.j, expected: expected[stuck.i], actual: actual[stuck.j] };
}

function outputLines(text) {
  const lines = text.split(/\r?\n/).map((l) => l.trimEnd());
  dropTrailingEmpty(lines);
  return lines;
}

// Runs one command as the conventions say; resolves to {output, status, timedOut}.
export function runCommand(command) {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', 'exec 2>&1\neval "$1"', 'run-examples', command], {
      cwd: root,
      env: { ...process.env, PATH: `${nativeDir}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,  // its own process group, so a timeout stops the whole pipeline
    });
    const chunks = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, timeoutMs);
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const status = code ?? 128 + (signal ? { SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13 }[signal] ?? 0 : 0);
      done({ output: Buffer.concat(chunks).toString('utf8'), status, timedOut });
    });
  });
}

const shorten = (text) => (text === undefined ? '(end of output)' : JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text));

async function main(argv) {
  const show = argv.includes('--show');
  const named = argv.filter((a) => a !== '--show');
  const unknown = named.find((a) => a.startsWith('--'));
  if (unknown) {
    console.error(`run-examples: unknown option ${JSON.stringify(unknown)}; usage: run-examples.mjs [--show] [FILE.md ...]`);
    return 64;
  }
  const files = named.length > 0 ? named.map((f) => resolve(f)) : defaultFiles();
  const mismatches = [];
  let commandCount = 0;
  let blockCount = 0;
  for (const path of files) {
    const name = relative(root, path).startsWith('..') ? path : relative(root, path);
    let text;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      mismatches.push(`${name}: cannot read (${e.code ?? e.message})`);
      continue;
    }
    const { blocks, problems } = parseRunnable(text, name);
    const found = problems.map((p) => ({ line: p.line, message: p.message }));  // this file's, sorted by line below
    for (const block of blocks) {
      blockCount++;
      for (const c of block.commands) {
        commandCount++;
        const { output, status, timedOut } = await runCommand(c.command);
        const actual = outputLines(output);
        if (show) {
          console.log(`${name}:${c.line}:`);
          console.log(`$ ${c.command}`);
          for (const l of actual) console.log(l);
          if (status !== 0) console.log(`[exit ${status}]`);
          console.log('');
        }
        const report = (message) => found.push({ line: c.line, message });
        if (timedOut) {
          report(`timed out after ${timeoutMs / 1000} s: ${c.command}`);
          continue;
        }
        const parted = compareLines(c.expected, actual);
        if (parted) {
          report(`output line ${parted.index + 1}: expected ${shorten(parted.expected)}, got ${shorten(parted.actual)}`);
        } else if (status !== c.exit) {
          report(`exit ${status}, expected ${c.exit}${status !== 0 && c.exit === 0 ? ' (end the output with a line [exit N])' : ''}`);
        }
      }
    }
    found.sort((a, b) => a.line - b.line);
    for (const f of found) mismatches.push(`${name}:${f.line}: ${f.message}`);
  }
  for (const m of mismatches) console.log(m);
  const summary = `run-examples: ${commandCount} command${commandCount === 1 ? '' : 's'} in ${blockCount} block${blockCount === 1 ? '' : 's'} of ${files.length} file${files.length === 1 ? '' : 's'}; ${mismatches.length} mismatch${mismatches.length === 1 ? '' : 'es'}`;
  console.error(summary);
  return mismatches.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `run-examples.mjs --show | head` closes our output early: stop quietly
  process.stdout.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 1));
  process.exitCode = await main(process.argv.slice(2));
}
