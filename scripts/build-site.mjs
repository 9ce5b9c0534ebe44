// Assembles the static site: web/ as it is but for its folders' READMEs (for
// the project's readers, not the site's), the wasm build under wasm/,
// scenarios/index.json listing the presets (a static server cannot list a
// folder), and custom-elements.json, the element's Custom Elements Manifest.
// usage: node scripts/build-site.mjs WASM_BUILD_DIR SITE_DIR
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';

import { manifestText } from './docs/custom-elements.mjs';
import { pagesWithoutPolicy } from './site-headers.mjs';

const [wasmDir, siteDir] = process.argv.slice(2);
if (!wasmDir || !siteDir) {
  console.error('usage: node scripts/build-site.mjs WASM_BUILD_DIR SITE_DIR');
  process.exit(64);
}
const webDir = new URL('../web/', import.meta.url).pathname;

// The pages' <meta> policy is what a static host serves: it must be the site's.
const unmarked = pagesWithoutPolicy(webDir);
if (unmarked.length) {
  console.error(unmarked.join('\n'));
  process.exit(1);
}

rmSync(siteDir, { recursive: true, force: true });
cpSync(webDir, siteDir, { recursive: true, filter: (path) => basename(path) !== 'README.md' });
mkdirSync(join(siteDir, 'wasm'), { recursive: true });
for (const file of ['attention-core.js', 'attention-core.wasm', 'attention-train.js', 'attention-train.wasm', 'attention-model.js', 'attention-model.wasm']) cpSync(join(wasmDir, file), join(siteDir, 'wasm', file));

const presets = readdirSync(join(webDir, 'scenarios'))
  .filter((f) => f.endsWith('.json') && f !== 'index.json').sort()
  .map((f) => {
    const s = JSON.parse(readFileSync(join(webDir, 'scenarios', f), 'utf8'));
    return { id: s.id, title: s.title ?? s.id, source: s.source ?? '' };
  });
writeFileSync(join(siteDir, 'scenarios', 'index.json'), JSON.stringify(presets, null, 1) + '\n');

// The element's attributes, events and members for editors and documentation
// tools, from its own tables (web/element/settings.js); dist/package.json names it.
writeFileSync(join(siteDir, 'custom-elements.json'), manifestText());

// GPT-2's byte-level BPE for the Model view (npm's gpt-tokenizer, MIT): the
// ES modules of its GPT-2 encoding and their imports only (not its other
// encodings' ranks), under vendor/, loaded when a GPT-2 model opens.
const tokenizerDir = new URL('../node_modules/gpt-tokenizer/', import.meta.url).pathname;
const vendored = join(siteDir, 'vendor', 'gpt-tokenizer');
const copied = new Set();
const vendor = (file) => {
  if (copied.has(file)) return;
  copied.add(file);
  const text = readFileSync(join(tokenizerDir, 'esm', file), 'utf8');
  mkdirSync(dirname(join(vendored, file)), { recursive: true });
  writeFileSync(join(vendored, file), text.replace(/\n\/\/# sourceMappingURL=.*$/m, ''));
  for (const [, spec] of text.matchAll(/^\s*(?:import|export)\b[^;'"]*?(?:from\s*)?"(\.[^"]+)"/gm)) vendor(normalize(join(dirname(file), spec)));
};
vendor('encoding/gpt2.js');
vendor('bpeRanks/r50k_base.js');
cpSync(join(tokenizerDir, 'LICENSE'), join(vendored, 'LICENSE'));

// A model folder's tokenizer.json, read by npm's @huggingface/tokenizers
// (Apache-2.0): its one ES module as it ships (the file Node's tests import)
// and its licence, under vendor/, loaded by engine/hf-tokenizer.js when a
// folder with a tokenizer.json opens.
const hfDir = new URL('../node_modules/@huggingface/tokenizers/', import.meta.url).pathname;
const hfVendored = join(siteDir, 'vendor', 'huggingface-tokenizers');
mkdirSync(hfVendored, { recursive: true });
const hfModule = readFileSync(join(hfDir, 'dist', 'tokenizers.mjs'), 'utf8');
if (/^\s*import\b|\bimport\(|\brequire\(/m.test(hfModule)) throw new Error('@huggingface/tokenizers now imports other modules: vendor them too');
writeFileSync(join(hfVendored, 'tokenizers.js'), hfModule.replace(/\n\/\/# sourceMappingURL=.*$/m, ''));
cpSync(join(hfDir, 'LICENSE'), join(hfVendored, 'LICENSE'));
const hfVersion = JSON.parse(readFileSync(join(hfDir, 'package.json'), 'utf8')).version;
console.log(`site: ${siteDir} (${presets.length} presets, ${copied.size} modules of gpt-tokenizer, @huggingface/tokenizers ${hfVersion})`);
