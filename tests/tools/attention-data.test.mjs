// view="attention"'s data (web/element/attention-data.js): the JSON contract
// python/ writes and authors type, every refusal one line naming the place,
// the limits, and the note for rows that do not sum to 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { attentionLimits, readAttention } from '../../web/element/attention-data.js';

const read = (data) => readAttention(typeof data === 'string' ? data : JSON.stringify(data));
const refused = (data, message) => assert.throws(() => read(data), { name: "RangeError", message });

test('the three shapes become [L, H, T, T], the numbers exactly as given, in order', () => {
  const tt = read({ tokens: ['a', 'b'], attention: [[1, 0], [0.1, 0.9]] });
  assert.deepEqual([tt.shape, tt.axes, [...tt.data], tt.layer, tt.head, tt.title, tt.causal, tt.note], [[1, 1, 2, 2], 2, [1, 0, 0.1, 0.9], 0, 0, null, true, '']);
  const htt = read({ tokens: ['a', 'b'], attention: [[[0.5, 0.5], [0.5, 0.5]], [[1, 0], [0.3, 0.7]]], head: 1, title: 'two heads' });
  assert.deepEqual([htt.shape, htt.axes, [...htt.data], htt.head, htt.title, htt.causal], [[1, 2, 2, 2], 3, [0.5, 0.5, 0.5, 0.5, 1, 0, 0.3, 0.7], 1, 'two heads', false]);
  const l = read({ tokens: ['a'], attention: [[[[1]], [[1]], [[1]]], [[[1]], [[1]], [[1]]]], layer: 1, head: 2 });
  assert.deepEqual([l.shape, l.axes, l.layer, l.head, l.data.length], [[2, 3, 1, 1], 4, 1, 2, 6]);
  // a float32's digits, as torch's .tolist() gives them, are kept to the last digit
  assert.equal(read({ tokens: ['a', 'b'], attention: [[1, 0], [0.30000001192092896, 0.699999988079071]] }).data[2], 0.30000001192092896);
});

test('rows that do not sum to 1 (beyond 0.001) are counted in a note, not refused', () => {
  assert.equal(read({ tokens: ['a', 'b'], attention: [[1, 0], [0.4995, 0.5]] }).note, '');  // within 0.001
  const off = read({ tokens: ['a', 'b'], attention: [[[[0, 0], [0.3, 0.3]], [[2, 0], [1, 0]]]] });
  assert.deepEqual(off.off, { rows: 3, first: { layer: 0, head: 0, row: 0, sum: 0 } });
  assert.equal(off.note, '3 of 4 rows do not sum to 1 (within 0.001); the first, layer 0, head 0, row 0 ("a"), sums to 0.0000. Shown as given.');
});

test('every refusal names the place and the problem in one line', () => {
  refused('', 'view="attention" needs its data: a <script type="application/json"> inside the element holding {"tokens": […], "attention": […]}');
  refused('{"tokens": [', 'the attention data is not valid JSON');
  refused('{"tokens": ["a"], "attention": [[Infinity]]}', 'attention holds NaN or an infinite weight: weights must be finite numbers');
  refused('{"tokens": ["a"], "attention": [[-Infinity]]}', 'attention holds NaN or an infinite weight: weights must be finite numbers');
  refused([1], 'the attention data must be a JSON object with "tokens" and "attention"');
  refused({ tokens: ['a'], attention: [[1]], mask: 'causal' }, 'the attention data has an unknown key "mask"; it takes tokens, attention, layer, head, title');
  refused({ attention: [[1]] }, 'tokens must be an array of strings, one per position');
  refused({ tokens: [], attention: [] }, 'tokens must hold at least one token');
  refused({ tokens: ['a', 2], attention: [[1]] }, 'tokens[1] must be a string');
  refused({ tokens: ['a'] }, 'attention must be nested arrays of shape (T, T), (H, T, T) or (L, H, T, T)');
  refused({ tokens: ['a'], attention: [[[[[1]]]]] }, 'attention must have 2, 3 or 4 axes, (T, T), (H, T, T) or (L, H, T, T); it has 5');
  refused({ tokens: ['a'], attention: [[], []] }, 'attention has 2 entries on axis 0 (queries), but there is 1 token');
  refused({ tokens: ['a', 'b'], attention: [[1, 0], [0, 1, 0]] }, 'attention[1] has 3 entries on axis 1 (keys), but there are 2 tokens');
  refused({ tokens: ['a'], attention: [[[1]], [1]] }, 'attention[1][0] must be an array: axis 2 (keys) of (T, T), (H, T, T) or (L, H, T, T)');
  refused({ tokens: ['a'], attention: [] }, 'attention must have 2, 3 or 4 axes, (T, T), (H, T, T) or (L, H, T, T); it has 1');
  refused({ tokens: ['a'], attention: [[[[1]], [[1]]], [[[1]]]] }, 'attention[1] has 1 entry on axis 1 (heads); the first has 2');
  refused({ tokens: ['a'], attention: [['0.5']] }, 'attention[0][0] is a string, where a weight was expected (attention has 2 axes)');
  refused({ tokens: ['a', 'b'], attention: [[1, 0], [null, 1]] }, 'attention[1][0] is null: NaN or infinite weights are refused');
  refused({ tokens: ['a', 'b'], attention: [[[1, 0], [0.5, -1e-9]]] }, 'attention[0][1][1] is negative (-1e-9): weights must be 0 or more');
  refused({ tokens: ['a'], attention: [[[1]]], layer: 1 }, 'layer 1 is beyond the data, which has no layers axis');
  refused({ tokens: ['a'], attention: [[[1]], [[1]]], head: 2 }, 'head 2 is beyond the data\'s 2 heads');
  refused({ tokens: ['a'], attention: [[[[1]]]], head: 1.5 }, 'head must be a whole number from 0; got "1.5"');
  refused({ tokens: ['a'], attention: [[1]], title: 3 }, 'title must be a string');
});

test('the limits: tokens, heads, weights, characters, a token, the title; each named', () => {
  assert.deepEqual(attentionLimits, { tokens: 512, heads: 1024, weights: 4194304, characters: 64000000, token: 200, title: 200 });
  refused({ tokens: Array(513).fill('t'), attention: [[1]] }, 'tokens: 513 tokens is beyond the element\'s limit of 512');
  refused({ tokens: ['a'], attention: Array.from({ length: 2 }, () => Array.from({ length: 513 }, () => [[1]])) },
    'attention has 1026 heads (2 layers × 513 heads), beyond the element\'s limit of 1024');
  // 17 heads of 512 tokens: past 2^22 weights; checked from the first entries, before anything is allocated
  refused({ tokens: Array(512).fill('t'), attention: Array.from({ length: 17 }, () => [[0]]) },
    'attention has 4456448 weights (1 × 17 × 512 × 512), beyond the element\'s limit of 4194304');
  refused('x'.repeat(64000001), 'the attention data is 64000001 characters long, beyond the element\'s limit of 64000000');
  refused({ tokens: ['x'.repeat(201)], attention: [[1]] }, 'tokens[0] is 201 characters long, beyond the element\'s limit of 200');
  refused({ tokens: ['a'], attention: [[1]], title: 't'.repeat(201) }, 'title must be at most 200 characters; got 201');
  // at the limits: 512 tokens and 16 heads (4194304 weights) are drawn
  const T = 512;
  const row = (i) => Array.from({ length: T }, (_, j) => (j === i ? 1 : 0));
  const head = Array.from({ length: T }, (_, i) => row(i));
  const most = read({ tokens: Array(T).fill('t'), attention: Array(16).fill(head) });
  assert.deepEqual([most.shape, most.data.length, most.note, most.causal], [[1, 16, 512, 512], 4194304, '', true]);
});

// The reference page's section on view="attention" (docs/reference/element.md).
const page = readFileSync(new URL('../../docs/reference/element.md', import.meta.url), 'utf8');
const sectionStart = page.indexOf('\n## Given attention weights: `view="attention"`\n');
const sectionEnd = page.indexOf('\n## ', sectionStart + 1);
const section = page.slice(sectionStart, sectionEnd < 0 ? page.length : sectionEnd);

test('the reference page\'s contract: its example is drawn, its schema states the same keys and limits', () => {
  assert.ok(sectionStart >= 0, 'docs/reference/element.md has a section "Given attention weights: `view="attention"`"');
  const example = /```html\n[\s\S]*?<script type="application\/json">([\s\S]*?)<\/script>/.exec(section)[1];
  const data = readAttention(example);
  assert.deepEqual([data.shape, data.head, data.title, data.note], [[1, 2, 3, 3], 1, 'Two heads', '']);
  // the live figure under it draws the very same data
  const figure = /```\{raw\} html\n<attention-playground view="attention">\s*<script type="application\/json">([\s\S]*?)<\/script>/.exec(section);
  assert.ok(figure, 'a live figure of the example');
  assert.deepEqual(JSON.parse(figure[1]), JSON.parse(example));
  const schema = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)[1]);
  assert.deepEqual(Object.keys(schema.properties), ['tokens', 'attention', 'layer', 'head', 'title']);
  assert.deepEqual(schema.required, ['tokens', 'attention']);
  assert.equal(schema.properties.tokens.maxItems, attentionLimits.tokens);
  assert.equal(schema.properties.tokens.items.maxLength, attentionLimits.token);
  assert.equal(schema.properties.title.maxLength, attentionLimits.title);
  const limits = section.slice(section.indexOf('### Limits'), section.indexOf('### Refusals'));
  for (const [name, value] of Object.entries({ tokens: '512 tokens', heads: '1024 heads', weights: '4,194,304 weights', characters: '64,000,000 characters',
    token: `${attentionLimits.token} characters a token`, title: `${attentionLimits.title} a title` })) {
    assert.equal(value.replace(/,/g, '').split(' ')[0], String(attentionLimits[name]), name);
    assert.ok(limits.includes(value), `docs/reference/element.md: the ${name} limit, "${value}"`);
  }
});

test('the reference page\'s refusals are the element\'s own lines, word for word', () => {
  // data that makes each line; every line of the page's table must be one of these
  const lines = new Set();
  const add = (data) => {
    try {
      read(data);
    } catch (error) {
      lines.add(error.message);
      return;
    }
    assert.fail(`accepted ${JSON.stringify(data)}`);
  };
  add('');
  add('{"tokens": [');
  add('{"tokens": ["a"], "attention": [[NaN]]}');
  add({ tokens: ['a', 'b'], attention: [[1, 0], [null, 1]] });
  add({ tokens: ['a', 'b'], attention: [[[1, 0], [0.5, -0.5]]] });
  add({ tokens: ['a', 'b'], attention: [[[1, 0], [0, 1]], [[1, 0, 0], [0, 1]]] });
  add({ tokens: ['a'], attention: [[[[1]], [[1]]], [[[1]]]] });
  add({ tokens: ['a'], attention: [[[[[1]]]]] });
  add({ tokens: Array(513).fill('t'), attention: [[1]] });
  add({ tokens: ['a'], attention: [[[1]], [[1]]], head: 2 });
  add({ tokens: ['a'], attention: [[[1]]], layer: 1 });
  add({ tokens: ['a'], attention: [[1]], heads: 2 });
  const table = section.slice(section.indexOf('### Refusals'), section.indexOf('### Rows that do not sum to 1'));
  const shown = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| the data') && !line.startsWith('| ---'))
    .flatMap((line) => [...line.split(' | ').at(-1).matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  assert.ok(shown.length >= 12, `the refusals table shows ${shown.length} lines`);
  for (const line of shown) assert.ok(lines.has(line), `docs/reference/element.md shows a line the element never writes: ${line}`);
  // and the note over rows that do not sum to 1: 3 of 4 layers × 3 heads × 4 rows, the first in layer 0, head 1
  const T = 4;
  const eye = () => Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (i === j ? 1 : 0)));
  const attention = Array.from({ length: 4 }, () => Array.from({ length: 3 }, eye));
  attention[0][1][2] = [0.3, 0.3, 0.3, 0];
  attention[2][0][0] = [0.5, 0, 0, 0];
  attention[3][2][3] = [0.5, 0, 0, 0.6];
  const note = /```text\n(.*)\n```/.exec(section.slice(section.indexOf('### Rows that do not sum to 1')))[1];
  assert.equal(note, read({ tokens: ['The', ' cat', ' sat', ' on'], attention }).note);
});