// A small static server for the built site, on localhost only.
// usage: node scripts/serve.mjs SITE_DIR [--port N] [--csp] [--prefix /sub/path]
//   --csp     sends the strict Content-Security-Policy embedders use
//   --prefix  serves the site under a sub-path, as a documentation site would
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';

export const strictCsp =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:";

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml', '.woff2': 'font/woff2',
};

export function startServer({ root, port = 8000, csp = false, prefix = '' }) {
  const base = resolve(root);
  const server = createServer((request, response) => {
    const headers = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
    if (csp) headers['Content-Security-Policy'] = strictCsp;
    let path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    if (prefix && !path.startsWith(prefix + '/')) {
      response.writeHead(404, headers).end('not found');
      return;
    }
    path = path.slice(prefix.length);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403, headers).end('forbidden');
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const size = statSync(file).size;
      response.writeHead(200, { ...headers, 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Content-Length': size });
      createReadStream(file).pipe(response);
    } catch {
      response.writeHead(404, headers).end('not found');
    }
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const root = args[0];
  const port = Number(option('--port') ?? process.env.PORT ?? 8000);
  const prefix = option('--prefix') ?? '';
  if (!root || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('usage: node scripts/serve.mjs SITE_DIR [--port N] [--csp] [--prefix /path]');
    process.exit(64);
  }
  startServer({ root, port, csp: args.includes('--csp'), prefix })
    .then((server) => console.log(`Attention Playground: http://localhost:${server.address().port}${prefix}/  (Ctrl-C stops)`))
    .catch((error) => {
      console.error(`cannot serve on port ${port}: ${error.message}`);
      process.exit(1);
    });
}
