// Transfer size of the built site, gzip level 9, file by file: what a first
// visit fetches, and the whole folder. usage: node scripts/site-size.mjs SITE_DIR
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
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

// A first visit: the page, its modules and styles, the wasm, the preset list
// and one preset. Not the training view: its modules, its presets and the
// trainer's wasm load when it opens (a dynamic import, a worker), and the
// lecture lesson's numbers (lessons/ladder.json) when that lesson opens. Not
// the Model view's models module and its engine (engine/model*.js), loaded by
// its worker when a model is opened. Not dist's static figures, licence and
// package.json either: no page fetches them. Nor the Model view (model/, its
// views, the shipped model in models/, GPT-2's tokenizer in vendor/): a dynamic
// import when it opens.
const firstVisit = (path) => !/\/(training|trainings|figures|model|models|vendor)\/|views\/(model-grid|next-tokens|token-chips)\.js$|attention-(train|model)\.|engine\/model[-.]|\/(LICENSE|package\.json)$|\/lessons\/ladder\.json$/.test(path)
  && (!path.includes('/scenarios/') || /scenarios\/(index|sun-rises-causal)\.json$/.test(path));
const sizes = files.map((path) => ({ path: relative(site, path), raw: statSync(path).size, gzip: gzipSync(readFileSync(path), { level: 9 }).length }));
const total = (list) => list.reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), { raw: 0, gzip: 0 });
const first = total(sizes.filter((f) => firstVisit(join(site, f.path))));
const all = total(sizes);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const f of sizes.sort((a, b) => b.gzip - a.gzip).slice(0, 8)) console.log(`${f.path.padEnd(36)} ${kb(f.raw).padStart(10)} ${kb(f.gzip).padStart(10)} gzip`);
console.log(`first visit: ${kb(first.raw)} raw, ${kb(first.gzip)} gzip`);
console.log(`whole site:  ${kb(all.raw)} raw, ${kb(all.gzip)} gzip (${sizes.length} files)`);
console.log(JSON.stringify({ first_visit_gzip: first.gzip, site_gzip: all.gzip }));
