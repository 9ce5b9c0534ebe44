// The element's own checks, for the Python tests: one JSON request a line on
// standard input, one answer a line on standard output. Requests:
// {"attributes": {name: text}} → readSettings (and the playground's URL as a
// file:// notebook page reads it); {"json": text} → readAttention.
// Answers: {"ok": true} or {"error": "the element's line"}.
import { createInterface } from 'node:readline';

const web = new URL(process.argv[2], `file://${process.cwd()}/`);
const { readSettings } = await import(new URL('element/settings.js', web));
const { readAttention } = await import(new URL('element/attention-data.js', web));

function check(request) {
  if ('json' in request) return readAttention(request.json);
  const a = request.attributes;
  const s = readSettings((name) => (Object.hasOwn(a, name) ? a[name] : null));
  if (s.playground !== null) {
    let page;
    try {
      page = new URL(s.playground, 'file:///home/notebook.html');
    } catch {
      throw new RangeError('playground must be the URL of the playground\'s page');
    }
    if (!['http:', 'https:'].includes(page.protocol)) throw new RangeError('playground must be an http or https URL');
  }
  return s;
}

for await (const line of createInterface({ input: process.stdin })) {
  let answer;
  try {
    check(JSON.parse(line));
    answer = { ok: true };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    answer = { error: error.message };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
