// The Python package's page assets (python/attention_playground/assets/):
// the element's ES modules bundled by esbuild into ONE classic script that
// works from file:// with no network, for notebooks only (the site stays
// unbundled). Inside the script: the element's CSS, the presets and the
// ladder, the core's wasm as base64 bytes. Each web/ module is rewritten on
// the way in: import.meta.url becomes a virtual `ap-bundle:/…` URL, and
// fetch, dynamic import of the wasm glue and new Worker go through
// notebook/shim.js, which answers from the inlined files. Also writes
// element.json: what Python checks before it writes a tag (attribute names,
// the ones that apply to a sentence only, presets and the heads, batch
// elements and steps of each one's trace, steps, the version).
// usage: node scripts/notebook-bundle.mjs SITE_DIR OUT_DIR
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const [siteDir, outDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!siteDir || !outDir) {
  console.error('usage: node scripts/notebook-bundle.mjs SITE_DIR OUT_DIR');
  process.exit(64);
}
const root = new URL('..', import.meta.url).pathname;
const webDir = join(root, 'web');
const read = (...p) => readFileSync(join(...p), 'utf8');

// The files the element fetches beside itself, by their site path.
const files = {
  'views/views.css': read(webDir, 'views/views.css'),
  'element/element.css': read(webDir, 'element/element.css'),
  'lessons/ladder.json': read(webDir, 'lessons/ladder.json'),
  'scenarios/index.json': read(siteDir, 'scenarios/index.json'),
};
const presets = JSON.parse(files['scenarios/index.json']);
for (const { id } of presets) files[`scenarios/${id}.json`] = read(siteDir, 'scenarios', `${id}.json`);
const wasm = readFileSync(join(siteDir, 'wasm', 'attention-core.wasm')).toString('base64');

// Text rewrites of a module: each must match (a web/ change that breaks one
// fails this build, never the notebook silently).
const patches = {
  'engine/engine.js': [['await import(settings.moduleUrl.href ?? settings.moduleUrl)', 'await __apImport(settings.moduleUrl.href ?? settings.moduleUrl)']],
  // no site beside a notebook: a figure without playground= has no "Open in the playground" link
  'element/figure.js': [['if (hash === null) return null;', 'if (hash === null || s.playground === null) return null;']],
  // the Model view stays on the site: refused before it adds its stylesheet
  // (a <link> to a URL no page beside a notebook has: a failed load, a console error)
  'attention-playground.js': [["await import('./model/view.js')", "await __apImport('ap-bundle:/model/view.js')"]],
};

const shimPath = join(root, 'scripts', 'notebook', 'shim.js');
const rewrite = {
  name: 'notebook-rewrite',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      const inWeb = args.path.startsWith(webDir + '/');
      const inWasm = args.path.endsWith('/attention-core.js') && !inWeb;
      if (!inWeb && !inWasm) return undefined;
      const site = inWeb ? relative(webDir, args.path) : 'wasm/attention-core.js';
      let text = readFileSync(args.path, 'utf8');
      for (const [from, to] of patches[site] ?? []) {
        if (text.split(from).length !== 2) throw new Error(`${site}: expected one "${from}" to rewrite`);
        text = text.replace(from, to);
      }
      text = text.replaceAll('import.meta.url', JSON.stringify(`ap-bundle:/${site}`));
      if (inWeb) {
        text = text.replace(/(?<![\w.$])fetch\(/g, '__apFetch(').replace(/\bnew Worker\(/g, 'new __apWorker(');
        text = `import { __apFetch, __apImport, __apWorker } from ${JSON.stringify(shimPath)};\n${text}`;
      }
      return { contents: text, loader: 'js' };
    });
  },
};

const version = read(root, 'VERSION').trim();
const entry = `
import { setAssets } from ${JSON.stringify(shimPath)};
import createCore from ${JSON.stringify(join(siteDir, 'wasm', 'attention-core.js'))};
import { followTheme, hideEngineLine } from ${JSON.stringify(join(root, 'scripts', 'notebook', 'front-end.js'))};
setAssets(${JSON.stringify(files)}, ${JSON.stringify(wasm)}, createCore);
followTheme();
hideEngineLine();
await import(${JSON.stringify(join(webDir, 'attention-playground.js'))});
`;
const result = await build({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'notebook-entry.js', loader: 'js' },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  plugins: [rewrite],
  write: false,
  logLevel: 'warning',
});
// One classic script (outputs of notebook front ends run classic scripts;
// module scripts are not everywhere), run once per page: the guard keeps a
// second copy (a re-run first cell) from defining anything twice.
const body = result.outputFiles[0].text;
const script = `(()=>{if(window.__attentionPlayground)return;window.__attentionPlayground={version:${JSON.stringify(version)}};(async()=>{${body}})().catch((e)=>{window.__attentionPlayground.error=String(e&&e.message||e);console.error('Attention Playground:',e)});})();\n`;
if (/^\s*(import|export)\b/m.test(body.replace(/`[^`]*`/g, ''))) throw new Error('the bundle still has import/export statements');

const { attributeNames, sentenceOnly } = await import(join(webDir, 'element', 'settings.js'));
const { steps, stepsFor } = await import(join(webDir, 'state', 'state.js'));
// What each preset's trace has (the core computes it, here in Node): its
// heads, batch elements and steps, so Python refuses head=, batch= or step=
// beyond a preset in the cell rather than the figure refusing them.
const { loadEngine } = await import(join(webDir, 'engine', 'engine.js'));
const engine = await loadEngine({
  moduleUrl: new URL(`file://${join(siteDir, 'wasm', 'attention-core.js')}`),
  wasmBinary: readFileSync(join(siteDir, 'wasm', 'attention-core.wasm')),
});
const presetFacts = {};
for (const { id } of presets) {
  const trace = engine.run(files[`scenarios/${id}.json`]);
  presetFacts[id] = { heads: trace.summary.heads.length, batch: trace.summary.batch, steps: stepsFor(trace.summary) };
  trace.dispose();
}
// view="attention"'s limits, which Python checks before it writes the data
const attentionData = join(webDir, 'element', 'attention-data.js');
const attention = existsSync(attentionData) ? (await import(attentionData)).attentionLimits : undefined;
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'engine.js'), script);
writeFileSync(join(outDir, 'element.json'), JSON.stringify({ version, attributes: attributeNames, sentenceOnly: Object.keys(sentenceOnly), presets: presets.map((p) => p.id), presetFacts, steps, attention }, null, 1) + '\n');
const kb = (n) => `${Math.round(n / 1024)} KB`;
console.log(`notebook bundle: ${join(outDir, 'engine.js')} ${kb(script.length)} (${kb(gzipSync(script).length)} gzip), ${presets.length} presets`);
