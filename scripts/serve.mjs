// A small static server for the built site, on localhost only.
// usage: node scripts/serve.mjs SITE_DIR [--port N] [--csp] [--prefix /sub/path] [--mount /path=DIR]...
//   --csp     sends the site's Content-Security-Policy as a header too, as an
//             embedder's strict site would (the pages carry it as a <meta>)
//   --prefix  serves the site under a sub-path, as a documentation site would
//   --mount   serves another folder at a path under the site's (`make serve`:
//             the documentation at /docs/); repeatable
import { createServer } from 'node:http';
import { createReadStream, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';

import { meta, siteHeaders } from './site-headers.mjs';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml', '.woff2': 'font/woff2',
};

// A folder to serve: its path, and its real path (what a link may not leave).
function folder(dir) {
  const base = resolve(dir);
  return { base, real: realpathSync(base) };
}

// route(request, response): the tests' own answers (a redirect, a gzip-encoded
// file), tried first; true when it answered. mounts: {'/docs': DIR} serves
// DIR at /docs/ (under the prefix), each folder kept to itself.
export function startServer({ root, port = 8000, csp = false, prefix = '', route = null, mounts = {} }) {
  const site = folder(root);
  const mounted = Object.entries(mounts).map(([at, dir]) => ({ at: at.replace(/\/+$/, ''), ...folder(dir) }))
    .sort((a, b) => b.at.length - a.at.length);
  for (const { at } of mounted) if (!/^\/[^/]/.test(at)) throw new RangeError(`a mount path starts with / and names a folder: ${JSON.stringify(at)}`);
  const server = createServer((request, response) => {
    if (route?.(request, response)) return;
    const headers = siteHeaders({ csp });
    const answer = (status, text) => response.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'method not allowed');
    // Any request gets an answer and the server keeps serving: a malformed
    // URL (/%E0%A4%A) is a 400, never an uncaught URIError.
    let path;
    try {
      path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      return answer(400, 'bad request');
    }
    if (path.includes('\0')) return answer(400, 'bad request');
    if (prefix && !path.startsWith(prefix + '/')) return answer(404, 'not found');
    path = path.slice(prefix.length);
    // a mounted folder's own path without its slash: its pages' relative links need it
    const bare = mounted.find((m) => path === m.at);
    if (bare) {
      const query = new URL(request.url, 'http://localhost').search;
      response.writeHead(301, { ...headers, Location: `${prefix}${bare.at}/${query}` });
      return response.end();
    }
    const mount = mounted.find((m) => path.startsWith(m.at + '/'));
    const { base, real: realBase } = mount ?? site;
    if (mount) path = path.slice(mount.at.length);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) return answer(403, 'forbidden');
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      // nothing outside the folder, even through a link inside it
      const real = realpathSync(file);
      if (real !== realBase && !real.startsWith(realBase + sep)) return answer(403, 'forbidden');
      const size = statSync(real).size;
      // a page carrying the policy as its <meta> is not sent it twice (two
      // copies of one policy report each violation twice)
      if (csp && extname(real) === '.html' && readFileSync(real, 'utf8').includes(meta)) delete headers['Content-Security-Policy'];
      response.writeHead(200, { ...headers, 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Content-Length': size });
      if (request.method === 'HEAD') return response.end();
      const stream = createReadStream(real);
      stream.on('error', () => response.destroy());
      stream.pipe(response);
    } catch {
      answer(404, 'not found');
    }
  });
  server.on('clientError', (error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const usage = () => {
    console.error('usage: node scripts/serve.mjs SITE_DIR [--port N] [--csp] [--prefix /path] [--mount /path=DIR]...');
    process.exit(64);
  };
  const root = args[0];
  const port = Number(option('--port') ?? process.env.PORT ?? 8000);
  const prefix = option('--prefix') ?? '';
  if (!root || !Number.isInteger(port) || port < 0 || port > 65535) usage();
  // --mount /docs=build/docs, as often as wanted
  const mounts = {};
  args.forEach((arg, i) => {
    if (arg !== '--mount') return;
    const [at, dir] = (args[i + 1] ?? '').split(/=(.*)/s);
    if (!at || !dir) usage();
    mounts[at] = dir;
  });
  let started;
  try {
    started = startServer({ root, port, csp: args.includes('--csp'), prefix, mounts });
  } catch (error) {
    console.error(`cannot serve: ${error.message}`);
    process.exit(1);
  }
  started
    .then((server) => {
      const url = `http://localhost:${server.address().port}${prefix}`;
      console.log(`Attention Playground: ${url}/  (Ctrl-C stops)`);
      for (const at of Object.keys(mounts)) console.log(`${at === '/docs' ? 'Documentation' : at}: ${url}${at.replace(/\/+$/, '')}/`);
    })
    .catch((error) => {
      console.error(`cannot serve on port ${port}: ${error.message}`);
      process.exit(1);
    });
}
