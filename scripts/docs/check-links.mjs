// Checks every link of a built site: each href and src of every .html page
// must name a file inside the site (relative to the page, so the site works
// under any sub-path and from any host), its #fragment an id or name in the
// target page, and none may go to another origin (http:, https:, //, or any
// other scheme but a src's data:).
// usage: node scripts/docs/check-links.mjs SITE_DIR
// Prints one line per problem, "page: link: what is wrong"; exits 1 on any.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const entities = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };
const unescape = (text) => text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name) => {
  if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
  return entities[name.toLowerCase()] ?? whole;
});

// The markup of a page without its comments, scripts' and styles' bodies.
function markup(html) {
  return html.replace(/<!--[\s\S]*?-->/g, '').replace(/(<(script|style)\b[^>]*>)[\s\S]*?(<\/\2>)/gi, '$1$3');
}

// Every href and src of the page's tags: [{attribute, url}]
export function linksOf(html) {
  const links = [];
  for (const [tag] of markup(html).matchAll(/<[a-z][^\s/>]*(?:\s+[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*\s*\/?>/gi)) {
    for (const m of tag.matchAll(/\s(href|src)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/gi))
      links.push({ attribute: m[1].toLowerCase(), url: unescape(m[3] ?? m[4] ?? m[5]) });
  }
  return links;
}

// The ids and names a page defines, the targets of its fragments.
export function anchorsOf(html) {
  const anchors = new Set();
  for (const m of markup(html).matchAll(/\s(?:id|name)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) anchors.add(unescape(m[2] ?? m[3] ?? m[4]));
  return anchors;
}

function pagesOf(dir) {
  const pages = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.html')) pages.push(path);
    }
  };
  walk(dir);
  return pages.sort();
}

// The problems of the site in `dir`, as lines; [] when every link holds.
export function checkSite(dir) {
  const root = realpathSync(resolve(dir));
  const anchors = new Map();
  const anchorsIn = (file) => {
    if (!anchors.has(file)) anchors.set(file, anchorsOf(readFileSync(file, 'utf8')));
    return anchors.get(file);
  };
  const problems = [];
  for (const page of pagesOf(root)) {
    const name = relative(root, page);
    const html = readFileSync(page, 'utf8');
    const say = (url, what) => problems.push(`${name}: ${url}: ${what}`);
    for (const { attribute, url } of linksOf(html)) {
      const link = url.trim();
      if (/^\/\//.test(link) || /^https?:/i.test(link)) { say(url, 'goes to another origin'); continue; }
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
        if (!(attribute === 'src' && /^data:/i.test(link))) say(url, `a ${link.split(':')[0]}: link leaves the site`);
        continue;
      }
      if (link.startsWith('/')) { say(url, 'is absolute: it breaks when the site is served under a sub-path'); continue; }
      const hashAt = link.indexOf('#');
      const fragment = hashAt < 0 ? null : link.slice(hashAt + 1);
      let path = (hashAt < 0 ? link : link.slice(0, hashAt)).replace(/\?.*$/s, '');
      try {
        path = decodeURIComponent(path);
      } catch {
        say(url, 'is not a valid URL'); continue;
      }
      let target = path === '' ? page : resolve(dirname(page), path);
      if (target !== root && !target.startsWith(root + sep)) { say(url, 'points outside the site'); continue; }
      if (existsSync(target) && statSync(target).isDirectory()) target = join(target, 'index.html');
      if (!existsSync(target)) { say(url, `no such file: ${relative(root, target)}`); continue; }
      const real = realpathSync(target);
      if (real !== root && !real.startsWith(root + sep)) { say(url, 'points outside the site'); continue; }
      if (fragment === null || fragment === '' || !target.endsWith('.html')) continue;
      let id;
      try {
        id = decodeURIComponent(fragment);
      } catch {
        say(url, 'is not a valid URL'); continue;
      }
      if (!anchorsIn(real).has(id)) say(url, `no id or name "${id}" in ${relative(root, target)}`);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir] = process.argv.slice(2);
  if (!dir || !existsSync(dir) || !statSync(dir).isDirectory()) {
    console.error('usage: node scripts/docs/check-links.mjs SITE_DIR');
    process.exit(64);
  }
  const problems = checkSite(dir);
  for (const line of problems) console.log(line);
  if (problems.length) {
    console.error(`${problems.length} broken or outside link${problems.length === 1 ? '' : 's'} in ${dir}`);
    process.exit(1);
  }
}
