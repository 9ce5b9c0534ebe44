// scripts/serve.mjs (`make serve`, and every browser test's server): any
// request gets an answer, the server keeps serving, nothing outside the
// served folder is ever served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startServer } from '../../scripts/serve.mjs';

const serveScript = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'serve.mjs');

const outside = mkdtempSync(join(tmpdir(), 'attention-outside-'));
writeFileSync(join(outside, 'secret.txt'), 'secret');
const root = mkdtempSync(join(tmpdir(), 'attention-site-'));
mkdirSync(join(root, 'sub'));
writeFileSync(join(root, 'index.html'), '<p>hello</p>');
writeFileSync(join(root, 'sub', 'a.json'), '{}');
symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));

// The raw request line, as a browser would never send it: status and body.
function raw(port, requestLine) {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${requestLine}\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => { text += chunk; });
    socket.on('end', () => done({ status: Number(text.split(' ')[1]), body: text.split('\r\n\r\n').slice(1).join('') }));
    socket.on('error', fail);
    socket.setTimeout(5000, () => fail(new Error(`no answer to ${requestLine}`)));
  });
}

test('malformed and hostile requests get 400/403/404 and the server keeps serving', async () => {
  const server = await startServer({ root, port: 0 });
  const { port } = server.address();
  try {
    const cases = [
      ['GET /%E0%A4%A HTTP/1.1', 400],   // an uncaught URIError killed the server
      ['GET /%00 HTTP/1.1', 400],
      ['GET /..%2f..%2fetc%2fpasswd HTTP/1.1', 403],  // decoded after URL parsing: outside the root
      ['GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1', 404],
      ['GET /../../etc/passwd HTTP/1.1', 404],  // URL parsing removes the dots: inside the root, absent
      ['GET /link.txt HTTP/1.1', 403],   // a link inside the folder to a file outside it
      ['GET /nothing-here HTTP/1.1', 404],
      ['DELETE /index.html HTTP/1.1', 405],
      ['GET /sub/a.json HTTP/1.1', 200],
    ];
    for (const [line, status] of cases) {
      const answer = await raw(port, line);
      assert.equal(answer.status, status, line);
      assert.ok(!answer.body.includes('secret'), line);
      assert.equal((await raw(port, 'GET / HTTP/1.1')).status, 200, `still serving after ${line}`);
    }
    const garbage = await raw(port, 'NOT AN HTTP REQUEST \u0001');
    assert.equal(garbage.status, 400);
    assert.equal((await raw(port, 'GET /index.html HTTP/1.1')).body, '<p>hello</p>');
  } finally {
    server.close();
  }
});

test('under a prefix, only the prefix is served', async () => {
  const server = await startServer({ root, port: 0, prefix: '/docs' });
  const { port } = server.address();
  try {
    assert.equal((await raw(port, 'GET /docs/index.html HTTP/1.1')).status, 200);
    assert.equal((await raw(port, 'GET /index.html HTTP/1.1')).status, 404);
    assert.equal((await raw(port, 'GET /docs/%E0%A4%A HTTP/1.1')).status, 400);
  } finally {
    server.close();
  }
});

test('a mounted folder is served at its path, kept to itself; the site keeps the rest', async () => {
  const docs = mkdtempSync(join(tmpdir(), 'attention-docs-'));
  mkdirSync(join(docs, 'tutorials'));
  writeFileSync(join(docs, 'index.html'), '<p>docs</p>');
  writeFileSync(join(docs, 'tutorials', 'playground.html'), '<p>tutorial</p>');
  symlinkSync(join(root, 'index.html'), join(docs, 'site-link.html'));  // to the site's folder, outside the mount
  for (const prefix of ['', '/courses/attention']) {
    const server = await startServer({ root, port: 0, prefix, mounts: { '/docs': docs } });
    const { port } = server.address();
    try {
      const cases = [
        [`GET ${prefix}/docs/ HTTP/1.1`, 200, '<p>docs</p>'],
        [`GET ${prefix}/docs/tutorials/playground.html HTTP/1.1`, 200, '<p>tutorial</p>'],
        [`GET ${prefix}/ HTTP/1.1`, 200, '<p>hello</p>'],
        [`GET ${prefix}/sub/a.json HTTP/1.1`, 200, '{}'],
        [`GET ${prefix}/docs/sub/a.json HTTP/1.1`, 404],  // the site's file is not under the mount
        [`GET ${prefix}/docs/site-link.html HTTP/1.1`, 403],
        [`GET ${prefix}/docs/..%2f..%2fetc%2fpasswd HTTP/1.1`, 403],
        [`GET ${prefix}/docs/..%2findex.html HTTP/1.1`, 403],  // out of the mount into the site: still out
        [`GET ${prefix}/docs/%E0%A4%A HTTP/1.1`, 400],
        [`GET ${prefix}/docsx/index.html HTTP/1.1`, 404],
      ];
      for (const [line, status, body] of cases) {
        const answer = await raw(port, line);
        assert.equal(answer.status, status, line);
        if (body !== undefined) assert.equal(answer.body, body, line);
      }
      // the mount's own path gets its slash, so that its pages' relative links work
      const bare = await raw(port, `GET ${prefix}/docs?q=attention HTTP/1.1`);
      assert.equal(bare.status, 301);
      const redirect = await new Promise((done) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${prefix}/docs?q=attention HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
        let text = '';
        socket.on('data', (chunk) => { text += chunk; });
        socket.on('end', () => done(/^location: (.*)$/im.exec(text)?.[1].trim()));
      });
      assert.equal(redirect, `${prefix}/docs/?q=attention`);
    } finally {
      server.close();
    }
  }
  assert.throws(() => startServer({ root, port: 0, mounts: { docs } }), /mount path/);
});

test('make serve\'s command line: --mount serves the docs and prints their URL', async () => {
  const docs = mkdtempSync(join(tmpdir(), 'attention-docs-'));
  writeFileSync(join(docs, 'index.html'), '<p>docs</p>');
  const child = spawn(process.execPath, [serveScript, root, '--port', '0', '--mount', `/docs=${docs}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const lines = await new Promise((done, fail) => {
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
        if (text.split('\n').length > 2) done(text.trim().split('\n'));
      });
      child.on('exit', (code) => fail(new Error(`serve.mjs exited ${code}: ${text}`)));
      setTimeout(() => fail(new Error(`serve.mjs printed no docs URL in 10 s: ${text}`)), 10000).unref();
    });
    const [site, docsUrl] = lines.map((line) => /http:\/\/localhost:\d+\S*/.exec(line)?.[0]);
    assert.match(lines[0], /^Attention Playground: http:\/\/localhost:\d+\/ /);
    assert.match(lines[1], /^Documentation: http:\/\/localhost:\d+\/docs\/$/);
    assert.equal(docsUrl, `${site}docs/`);
    const port = Number(new URL(site).port);
    assert.equal((await raw(port, 'GET /docs/index.html HTTP/1.1')).body, '<p>docs</p>');
    assert.equal((await raw(port, 'GET /index.html HTTP/1.1')).body, '<p>hello</p>');
  } finally {
    child.kill();
  }
  const bad = spawnSync(process.execPath, [serveScript, root, '--port', '0', '--mount', 'docs'], { encoding: 'utf8' });
  assert.equal(bad.status, 64);
  assert.match(bad.stderr, /usage:/);
});
