// scripts/serve.mjs (`make serve`, and every browser test's server): any
// request gets an answer, the server keeps serving, nothing outside the
// served folder is ever served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';

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
