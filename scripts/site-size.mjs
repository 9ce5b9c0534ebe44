// Transfer size of the built site, gzip level 9, file by file: what a first
// visit fetches, and the whole folder. usage: node scripts/site-size.mjs SITE_DIR
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const site = process.argv[2] ?? 'build/site';
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else files.push(path);
  }
};
walk(site);

// A first visit: what index.html fetches before the learner does anything:
// what it links (the icon, the styles, main.js), every module main.js
// reaches through static imports (a dynamic import, the training view's,
// a lesson's, the Model view's, waits until it is used), the playground's
// wasm and its glue, the preset list and the default preset.
function firstVisitFiles() {
  const seen = new Set();
  const html = readFileSync(join(site, 'index.html'), 'utf8');
  const pending = ['index.html', ...[...html.matchAll(/<(?:link|script)\b[^>]*?(?:href|src)="([^"]+)"/g)].map((m) => m[1])];
  pending.push('wasm/attention-core.js', 'wasm/attention-core.wasm', 'scenarios/index.json', 'scenarios/sun-rises-causal.json');
  while (pending.length) {
    const path = pending.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    if (!path.endsWith('.js')) continue;
    const code = readFileSync(join(site, path), 'utf8');
    // `import … from './x.js'`, `export … from './x.js'`, `import './x.js'`: never import('…')
    for (const m of code.matchAll(/^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/gm))
      pending.push(join(dirname(path), m[1]));
  }
  return seen;
}
const loaded = firstVisitFiles();
const firstVisit = (path) => loaded.has(relative(site, path));
const sizes = files.map((path) => ({ path: relative(site, path), raw: statSync(path).size, gzip: gzipSync(readFileSync(path), { level: 9 }).length }));
const total = (list) => list.reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), { raw: 0, gzip: 0 });
const first = total(sizes.filter((f) => firstVisit(join(site, f.path))));
const all = total(sizes);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const f of sizes.sort((a, b) => b.gzip - a.gzip).slice(0, 8)) console.log(`${f.path.padEnd(36)} ${kb(f.raw).padStart(10)} ${kb(f.gzip).padStart(10)} gzip`);
console.log(`first visit: ${kb(first.raw)} raw, ${kb(first.gzip)} gzip`);
console.log(`whole site:  ${kb(all.raw)} raw, ${kb(all.gzip)} gzip (${sizes.length} files)`);
console.log(JSON.stringify({ first_visit_gzip: first.gzip, site_gzip: all.gzip }));
