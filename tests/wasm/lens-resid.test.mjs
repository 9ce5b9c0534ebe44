// The logit lens and direct logit attribution in wasm (lens-v1.md sections 3
// and 4): the model module's `lens(requestJson)` on every case of
// tests/golden-lens/resid-cases.json (torch_lens.py's outputs on GPT-2-shaped
// files) and families-resid-cases.json (the Llama family's, from
// tests/fixtures/make_lens_families_resid.py), opened as the page opens
// them, equals PyTorch's within lens-v1's tolerances (a part 1e-4, the sum
// 1e-3, probabilities and logits 1e-4 + 1e-4·|x|), keys in the same order;
// the parts sum to the logit within 1e-3; and the text is the native CLI's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { cli, goldenDir, modelAt, root } from './lens-support.mjs';

const cases = ['resid-cases.json', 'families-resid-cases.json']
  .flatMap((f) => JSON.parse(readFileSync(join(goldenDir, f), 'utf8')));

const tolerance = (key, x) => (key === 'sum' ? 1e-3 : key === 'value' ? 1e-4 : 1e-4 + 1e-4 * Math.abs(x));

// The first place where actual and expected differ ('' when none): keys and order exactly, integers exactly.
function difference(actual, expected, place = 'lens', key = '') {
  if (typeof expected === 'number' && !Number.isInteger(expected)) {
    return typeof actual === 'number' && Math.abs(actual - expected) <= tolerance(key, expected)
      ? '' : `${place}: ${actual} against ${expected}`;
  }
  if (expected === null || typeof expected !== 'object') {
    const same = actual === expected || (typeof actual === 'number' && typeof expected === 'number'
      && Math.abs(actual - expected) <= tolerance(key, expected));
    return same ? '' : `${place}: ${JSON.stringify(actual)} against ${JSON.stringify(expected)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${place}: not an array of ${expected.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(actual[i], expected[i], `${place}[${i}]`, key);
      if (d) return d;
    }
    return '';
  }
  const keys = Object.keys(expected);
  if (actual === null || typeof actual !== 'object' || JSON.stringify(Object.keys(actual)) !== JSON.stringify(keys))
    return `${place}: keys ${JSON.stringify(actual && Object.keys(actual))} against ${JSON.stringify(keys)}`;
  for (const k of keys) {
    const d = difference(actual[k], expected[k], `${place}.${k}`, k);
    if (d) return d;
  }
  return '';
}

test('the committed cases are there: both lenses on every model file and Llama-family folder', () => {
  assert.equal(cases.filter((c) => c.lens === 'logit-lens').length, 22);
  assert.equal(cases.filter((c) => c.lens === 'attribution').length, 33);
});

for (const c of cases) {
  test(`${c.expected}: wasm's ${c.lens} is PyTorch's, and the native CLI's text`, async () => {
    const model = await modelAt(c.model);
    const request = { what: c.lens, tokens: c.tokens };
    if (c.position !== null) request.position = c.position;
    if (c.token !== null) request.token = c.token;
    const text = model.model.lens(JSON.stringify(request));
    const actual = JSON.parse(text);
    assert.equal(actual.error, undefined, actual.error);
    assert.equal(difference(actual, JSON.parse(readFileSync(join(goldenDir, c.expected), 'utf8'))), '');
    if (c.lens === 'attribution') {
      const sum = actual.parts.reduce((s, p) => s + p.value, 0);
      assert.ok(Math.abs(sum - actual.logit) <= 1e-3, `parts ${sum} against the logit ${actual.logit}`);
    }
    if (existsSync(cli)) {
      const args = ['lens', join(root, c.model), '--tokens', c.tokens.join(','), '--what', c.lens];
      if (c.position !== null) args.push('--position', String(c.position), '--token', String(c.token));
      assert.equal(text + '\n', execFileSync(cli, args, { encoding: 'utf8' }), "the native CLI's text");
    }
  });
}

test('BERT refuses both lenses, and a bad position or token is one line naming the field', async () => {
  const bert = await modelAt('tests/models-v2/bert-mlm');
  const error = (model, request) => JSON.parse(model.model.lens(JSON.stringify(request))).error;
  for (const what of ['logit-lens', 'attribution'])
    assert.equal(error(bert, { what, tokens: [2, 17, 33] }),
      `what: ${what} reads a decoder's next-token logits; BERT supports scores and ablate (lens-v1.md)`);
  const gpt = await modelAt('web/models/text-gpt.safetensors');
  const V = gpt.config.vocab;
  assert.equal(error(gpt, { what: 'attribution', tokens: [1, 2], position: 2 }), 'position: 2 is outside [0, 2)');
  assert.equal(error(gpt, { what: 'attribution', tokens: [1, 2], token: V }), `token: ${V} is outside [0, ${V})`);
});
