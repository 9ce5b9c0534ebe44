// The lenses in wasm (lens-v1.md; core/lens/README.md): the model module's
// `lens(requestJson)` on every committed case of tests/golden-lens (model
// files and Hugging Face folders, opened as the page opens them) equals
// PyTorch's output within lens-v1's tolerances, keys in the same order and
// nulls where PyTorch has them, and is the native CLI's text exactly; a bad
// request is one line naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { cli, goldenDir, modelAt, root } from './lens-support.mjs';

const cases = readdirSync(goldenDir).filter((f) => f.startsWith('cases') && f.endsWith('.json')).sort()
  .flatMap((f) => JSON.parse(readFileSync(join(goldenDir, f), 'utf8')));

// The places where actual and expected differ: keys and order exactly, nulls exactly, numbers within 1e-4 + 1e-4·|x|.
function differences(actual, expected, place = 'lens', found = []) {
  if (found.length >= 5) return found;
  if (expected === null || typeof expected !== 'object') {
    if (typeof expected === 'number' && typeof actual === 'number') {
      if (!(Math.abs(actual - expected) <= 1e-4 + 1e-4 * Math.abs(expected))) found.push(`${place}: ${actual} against ${expected}`);
    } else if (actual !== expected) found.push(`${place}: ${JSON.stringify(actual)} against ${JSON.stringify(expected)}`);
    return found;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return found.concat(`${place}: not an array of ${expected.length}`);
    expected.forEach((e, i) => differences(actual[i], e, `${place}[${i}]`, found));
    return found;
  }
  const keys = Object.keys(expected);
  if (actual === null || typeof actual !== 'object' || JSON.stringify(Object.keys(actual)) !== JSON.stringify(keys))
    return found.concat(`${place}: keys ${JSON.stringify(actual && Object.keys(actual))} against ${JSON.stringify(keys)}`);
  for (const k of keys) differences(actual[k], expected[k], `${place}.${k}`, found);
  return found;
}

// The CLI's arguments for a case's request.
function cliArguments(c) {
  const r = c.request;
  const args = ['lens', join(root, c.model), '--tokens', r.tokens.join(','), '--what', r.what];
  if (r.heads) args.push('--heads', r.heads.map(([l, h]) => `${l}.${h}`).join(','));
  if (r.mode) args.push('--mode', r.mode);
  if (r.position !== undefined) args.push('--position', String(r.position));
  if (r.token !== undefined) args.push('--token', String(r.token));
  return args;
}

const mine = cases.filter((c) => c.request.what === 'scores' || c.request.what === 'ablate');

test('the committed lens cases are there: scores and ablate on model files and folders', () => {
  assert.ok(mine.length >= 55, `${mine.length} cases`);
  assert.ok(mine.some((c) => c.model.includes('models-v2/llama-gqa')) && mine.some((c) => c.model.includes('bert-mlm')));
});

for (const c of mine) {
  test(`${c.expected}: wasm's lens is PyTorch's`, async () => {
    const model = await modelAt(c.model);
    const text = model.model.lens(JSON.stringify(c.request));
    const actual = JSON.parse(text);
    assert.equal(actual.error, undefined, actual.error);
    const expected = JSON.parse(readFileSync(join(goldenDir, c.expected), 'utf8'));
    assert.deepEqual(differences(actual, expected), []);
    if (existsSync(cli) && (c.expected.includes('text-gpt-web') || c.model.includes('models-v2')))
      assert.equal(text + '\n', execFileSync(cli, cliArguments(c), { encoding: 'utf8' }), "the native CLI's text");
  });
}

test('a bad lens request is one line naming the field', async () => {
  const model = await modelAt('web/models/text-gpt.safetensors');
  const error = (request) => JSON.parse(model.model.lens(typeof request === 'string' ? request : JSON.stringify(request))).error;
  const { layers, heads, vocab } = model.config;
  assert.equal(error('not json'), 'lens: expected a JSON object {"what", "tokens", …}');
  assert.equal(error({ what: 'nothing', tokens: [1] }), 'what: "nothing" is not a lens (scores, ablate, logit-lens, attribution)');
  assert.equal(error({ what: 'ablate', tokens: [1, 2] }), 'heads: empty; ablate needs at least one head, as L.H (layer.head)');
  assert.equal(error({ what: 'ablate', tokens: [1, 2], heads: [[layers, 0]] }),
    `heads: ${layers}.0 is not a head of this model (${layers} layers of ${heads} heads)`);
  assert.equal(error({ what: 'ablate', tokens: [1, 2], heads: [[0, 0]], mode: 'half' }), 'mode: "half" is not zero or mean');
  assert.equal(error({ what: 'scores', tokens: [1, 2], position: 2 }), 'position: 2 is outside [0, 2)');
  assert.equal(error({ what: 'scores', tokens: [1, 2], token: vocab }), `token: ${vocab} is outside [0, ${vocab})`);
  assert.equal(error({ what: 'scores', tokens: [1, vocab] }), `tokens[1]: ${vocab} is outside [0, ${vocab})`);
  assert.equal(error({ what: 'scores', tokens: [1], extra: 1 }), 'lens: unknown field "extra"');
});
