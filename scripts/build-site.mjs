// Assembles the static site: web/ as it is but for its folders' READMEs (for
// the project's readers, not the site's), the wasm build under wasm/, and
// scenarios/index.json listing the presets (a static server cannot list a
// folder). usage: node scripts/build-site.mjs WASM_BUILD_DIR SITE_DIR
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const [wasmDir, siteDir] = process.argv.slice(2);
if (!wasmDir || !siteDir) {
  console.error('usage: node scripts/build-site.mjs WASM_BUILD_DIR SITE_DIR');
  process.exit(64);
}
const webDir = new URL('../web/', import.meta.url).pathname;

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
console.log(`site: ${siteDir} (${presets.length} presets)`);
