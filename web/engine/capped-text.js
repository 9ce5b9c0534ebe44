// A small file's text read with a cap: a File or Blob refused by its size
// before it is read, a fetch Response by its Content-Length when that is the
// size sent, else (gzip-encoded, or no Content-Length) read until the cap
// and cancelled there. config.json, model.safetensors.index.json and
// tokenizer.json are read this way; the weights stream (model.js).
import { ModelError } from './model-error.js';

const mebibytes = (n) => `${n / (1 << 20)} MiB`;
const tooLarge = (label, size, limit) => new ModelError(`${label}: ${size} bytes exceed the limit of ${limit} (${mebibytes(limit)})`);

// The body's size as sent, when the server says it and sends the bytes as
// they are (a gzip-encoded body's Content-Length is the compressed size);
// null otherwise.
export function declaredSize(response) {
  const length = response.headers?.get('content-length') ?? '';
  const encoding = (response.headers?.get('content-encoding') ?? '').trim().toLowerCase();
  const size = /^\d+$/.test(length) && ['', 'identity'].includes(encoding) ? Number(length) : null;
  return Number.isSafeInteger(size) ? size : null;
}

// A File or Blob's text, refused past `limit` bytes before it is read.
export async function blobText(blob, label, limit) {
  if (blob.size > limit) throw tooLarge(label, blob.size, limit);
  return blob.text();
}

// A Response's text, refused past `limit` bytes: by its declared size before
// the body is read, else as soon as the bytes read pass the limit.
export async function responseText(response, label, limit) {
  const size = declaredSize(response);
  if (size !== null && size > limit) {
    response.body?.cancel().catch(() => {});
    throw tooLarge(label, size, limit);
  }
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      reader.cancel().catch(() => {});
      throw new ModelError(`${label}: more than ${limit} bytes, the limit (${mebibytes(limit)})`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
