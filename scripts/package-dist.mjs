// dist/ as an npm-style package an author can vendor with `npm pack` (nothing
// is published): package.json with the element as its export, the files it
// ships, the licence. usage: node scripts/package-dist.mjs DIST_DIR
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { pagesWithoutPolicy } from './site-headers.mjs';

const [dist] = process.argv.slice(2);
if (!dist) {
  console.error('usage: node scripts/package-dist.mjs DIST_DIR');
  process.exit(64);
}
// The package's pages go to hosts that send no header of ours: their <meta> is the policy.
const unmarked = pagesWithoutPolicy(dist);
if (unmarked.length) {
  console.error(unmarked.join('\n'));
  process.exit(1);
}
// package.json names the element's manifest: the site must hold it.
if (!existsSync(join(dist, 'custom-elements.json'))) {
  console.error(`${dist}: no custom-elements.json (scripts/build-site.mjs writes it)`);
  process.exit(1);
}
const root = new URL('..', import.meta.url).pathname;
copyFileSync(join(root, 'LICENSE'), join(dist, 'LICENSE'));
const version = readFileSync(join(root, 'VERSION'), 'utf8').trim();
const files = readdirSync(dist).filter((f) => f !== 'package.json').sort()
  .map((f) => (statSync(join(dist, f)).isDirectory() ? `${f}/` : f));
const pkg = {
  name: 'attention-playground',
  version,
  description: 'See how self-attention works: the <attention-playground> element, its iframe page and the full playground, computed by a C++ core in WebAssembly.',
  license: 'MIT',
  type: 'module',
  // the element defines itself on import; its other files are found beside it (import.meta.url)
  exports: {
    '.': './attention-playground.js',
    './attention-playground.js': './attention-playground.js',
    './frame-resizer.js': './frame-resizer.js',
    './embed.html': './embed.html',
    './index.html': './index.html',
    './figures/*': './figures/*',
    './custom-elements.json': './custom-elements.json',
    './package.json': './package.json',
  },
  // the element's Custom Elements Manifest, written by scripts/build-site.mjs
  customElements: 'custom-elements.json',
  sideEffects: ['./attention-playground.js', './frame-resizer.js'],
  files,
};
writeFileSync(join(dist, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`package: ${pkg.name}@${version}, ${files.length} entries`);
