// The element's attributes (web/element/settings.js): every one checked like
// the URL state with one line naming it, and the round trips between a
// figure and the full page, "Open in the playground" and "Embed this view".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

import { attributeNames, attributes, attributesOfState, embedSnippets, playgroundHash, readSettings } from '../../web/element/settings.js';
import { defaultState, parseHash, toHash, trainingIds } from '../../web/state/state.js';

const settingsOf = (given) => readSettings((name) => (Object.hasOwn(given, name) ? given[name] : null));
const refused = (given) => {
  try {
    settingsOf(given);
  } catch (error) {
    assert.ok(error instanceof RangeError);
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(given)}`);
};

test('no attributes: the default figure', () => {
  const s = settingsOf({});
  assert.equal(s.scenario, 'sun-rises-causal');
  assert.equal(s.sentence, null);
  assert.deepEqual([s.view, s.step, s.controls, s.layout, s.mask, s.scale, s.temperature, s.highlight, s.caption, s.speed, s.steps],
    ['both', 'weights', 'player', 'arcs', null, null, null, null, null, null, null]);  // speed null: the task's own
});

test('every setting an author needs is read', () => {
  const s = settingsOf({ sentence: 'a b c', mask: '100.110.111', scale: '0', temperature: '0.3', heads: '2', 'head-size': '4',
    'value-size': '5', embed: '6', seed: '7', highlight: '2,1', layout: 'columns', caption: 'Look' });
  assert.deepEqual(s.mask, [[1, 0, 0], [1, 1, 0], [1, 1, 1]]);
  assert.deepEqual([s.scale, s.temperature, s.heads, s.head_size, s.value_size, s.embed, s.seed], [false, 0.3, 2, 4, 5, 6, 7]);
  assert.deepEqual(s.highlight, { row: 2, col: 1 });
  assert.deepEqual(settingsOf({ highlight: '3' }).highlight, { row: 3, col: null });
  assert.equal(s.layout, 'columns');
  assert.equal(s.caption, 'Look');
  assert.equal(settingsOf({ mask: 'none' }).mask, 'none');
  assert.equal(settingsOf({ view: 'space', positions: '1' }).positions, true);
  const t = settingsOf({ view: 'train', training: 'reverse', steps: '300', speed: '0' });
  assert.deepEqual([t.training, t.steps, t.speed], ['reverse', 300, 0]);
  // a size without a sentence: the default sentence, at that size
  assert.equal(settingsOf({ heads: '3' }).sentence, 'The sun rises in the east');
});

test('step="rotate" (rotary positions) is a step like the others, between q, k, v and scores', () => {
  assert.equal(settingsOf({ scenario: 'rotary-sun-rises', step: 'rotate' }).step, 'rotate');
  assert.match(attributes.step[1], /: `x`, `qkv`, `rotate` \(only for a scenario with rotary positions\), `scores`, /);
  assert.match(refused({ step: 'rotation' }), /^step must be one of x, qkv, rotate, scores, scaled, masked, weights, out; got "rotation"$/);
  // the link a rotate figure opens keeps its step, and reads back
  const hash = playgroundHash(settingsOf({ scenario: 'rotary-sun-rises', step: 'rotate' }));
  assert.equal(parseHash(hash).state.step, 'rotate');
  assert.deepEqual(parseHash(hash).problems, []);
});

test('a bad value is one line naming the attribute, the problem and what was given, quoted', () => {
  assert.match(refused({ mask: 'causl' }), /^mask must be causal, none, or up to 64 rows .*; got "causl"$/);
  assert.match(refused({ temperature: '0' }), /^temperature must be a number from 0.05 to 20; got "0"$/);
  assert.match(refused({ temperature: 'NaN' }), /^temperature must be a number/);
  assert.match(refused({ scale: 'yes' }), /^scale must be 0 or 1/);
  assert.match(refused({ heads: '9', sentence: 'a b' }), /^heads must be a whole number from 1 to 8; got "9"$/);
  assert.match(refused({ 'head-size': '0', sentence: 'a' }), /^head-size must be a whole number from 1 to 64/);
  assert.match(refused({ seed: '-1', sentence: 'a' }), /^seed must be a whole number/);
  assert.match(refused({ layout: 'circle' }), /^layout must be one of arcs, columns; got "circle"$/);
  assert.match(refused({ highlight: '1;2' }), /^highlight must be a row, like 3, or a cell, like 3,1; got "1;2"$/);
  assert.match(refused({ caption: 'x'.repeat(401) }), /^caption must be at most 400 characters; got 401$/);
  assert.match(refused({ speed: '7', view: 'train' }), /^speed must be one of 10, 25, 50, 100, 0; got "7"$/);
  assert.match(refused({ steps: '0', view: 'train' }), /^steps must be a whole number from 1 to 100000/);
  assert.match(refused({ heads: '2', scenario: 'bank-raw' }), /^heads applies to a sentence; scenario="bank-raw" fixes its own sizes$/);
  assert.match(refused({ positions: '1' }), /^positions applies to view="space"/);
  assert.match(refused({ training: 'reverse' }), /^training applies to view="train"$/);
  assert.match(refused({ mask: '<img src=x onerror=alert(1)>' }), /got "<img src=x onerror=alert\(1\)>"$/);  // quoted as text
  assert.match(refused({ temperature: '\u202e1' }), /got "\\u202E1"$/);
});

test('the page opens what the figure shows: its link parses back to the same settings', () => {
  const s = settingsOf({ scenario: 'bank-raw', step: 'out', head: '0', mask: '110.111.111', scale: '0', temperature: '2.5', layout: 'columns' });
  const { state, problems } = parseHash(playgroundHash(s));
  assert.deepEqual(problems, []);
  assert.deepEqual([state.preset, state.step, state.mask, state.scale, state.temperature, state.graph],
    ['bank-raw', 'out', [[1, 1, 0], [1, 1, 1], [1, 1, 1]], false, 2.5, 'columns']);
  const words = parseHash(playgroundHash(settingsOf({ sentence: 'we all talk', heads: '2', seed: '9' }))).state;
  assert.deepEqual([words.sentence, words.heads, words.seed], ['we all talk', 2, 9]);
  assert.equal(parseHash(playgroundHash(settingsOf({ view: 'space', positions: '1' }))).state.positions, true);
  assert.equal(parseHash(playgroundHash(settingsOf({ view: 'train', training: 'reverse' }))).state.train, 'reverse');
  // a file by URL: the page cannot open it, so there is no link
  assert.equal(playgroundHash(settingsOf({ scenario: 'figures/mine.json' })), null);
  assert.equal(playgroundHash(settingsOf({ view: 'train', training: 'mine.json' })), null);
});

test('"Embed this view": the page state → attributes → the page state again', () => {
  const states = [
    { preset: 'bank-raw', step: 'masked', mask: 'none', graph: 'columns' },
    { sentence: 'I like "quotes" & <tags>', heads: 3, seed: 5, head_size: 4, step: 'out', temperature: 0.3, scale: false },
    { lesson: 'space', positions: true },
    { lesson: 'multihead' },
    { preset: 'multi-head-4', head: 2, step: 'weights', batch: 1 },
    { model: 'text-gpt', text: 'To be, or "not" <b>', layer: 1, head: 2 },
    { model: 'models/mine.safetensors', layer: 0, head: 3 },
  ];
  for (const patch of states) {
    const state = { ...defaultState(), ...patch };
    const { attributes: list, left } = attributesOfState(state);
    assert.deepEqual(left, []);
    const back = parseHash(playgroundHash(settingsOf(Object.fromEntries(list)))).state;
    for (const key of Object.keys(patch)) assert.deepEqual(back[key], state[key], `${key} of ${JSON.stringify(patch)}`);
  }
  const train = attributesOfState({ ...defaultState(), train: 'induction' });
  assert.deepEqual(train.attributes, [['view', 'train'], ['training', 'induction']]);
  assert.equal(attributesOfState({ ...defaultState(), file: true }).left.length, 1);
  assert.equal(attributesOfState({ ...defaultState(), edits: [{ name: 'x', index: 0, value: 1 }] }).left.length, 1);
});

test('view="model": model, text and layer belong to it; the link carries only them and head', () => {
  const s = settingsOf({ view: 'model', model: 'text-gpt', text: 'To be', layer: '1', head: '2' });
  assert.deepEqual([s.model, s.text, s.layer, s.head], ['text-gpt', 'To be', 1, 2]);
  assert.deepEqual(Object.fromEntries(new URLSearchParams(playgroundHash(s).slice(1))), { model: 'text-gpt', text: 'To be', layer: '1', head: '2' });
  assert.deepEqual([settingsOf({ view: 'model' }).model, settingsOf({ view: 'model' }).text], ['text-gpt', 'To be, or not to be']);
  assert.throws(() => settingsOf({ model: 'text-gpt' }), { message: 'model applies to view="model"' });
  assert.throws(() => settingsOf({ view: 'model', layer: '64' }), { message: 'layer must be a whole number from 0 to 63; got "64"' });
  assert.throws(() => settingsOf({ view: 'model', text: '' }), { message: 'text must be 1 to 400 characters; got ""' });
  assert.throws(() => settingsOf({ view: 'model', model: 'a b' }), /^RangeError: model must be a model preset id or a URL on this site/);
  // a page link of the Model view drops what belongs to the playground
  const { state, problems } = parseHash('#model=text-gpt&preset=bank-raw&sentence=hi&text=x&layer=1');
  assert.deepEqual(problems, []);
  assert.equal(toHash(state), '#model=text-gpt&text=x&layer=1');
});

test('the Model view with a model file from disk: its link says file=1, and its figure opens the default model and says the file stays behind', () => {
  const state = { ...defaultState(), model: 'text-gpt', file: true, text: 'To be', layer: 1, head: 2 };
  assert.deepEqual(Object.fromEntries(new URLSearchParams(toHash(state).slice(1))), { model: 'text-gpt', file: '1', text: 'To be', layer: '1', head: '2' });
  assert.deepEqual(parseHash(toHash(state)).state.file, true);
  const { attributes: list, left } = attributesOfState(state);
  assert.deepEqual(list, [['view', 'model'], ['text', 'To be'], ['layer', '1'], ['head', '2']]);
  assert.deepEqual(left, ['the model file opened from your disk: put it on your site and give its URL as model']);
  assert.equal(settingsOf(Object.fromEntries(list)).model, 'text-gpt');
});

test('the snippets escape what they quote', () => {
  const { element, iframe } = embedSnippets([['sentence', 'say "hi" & <b>']], 'https://example.org/ap/embed.html');
  assert.match(element, /<attention-playground sentence="say &quot;hi&quot; &amp; &lt;b&gt;"><\/attention-playground>$/);
  assert.match(element, /^<script type="module" src="assets\/attention-playground\/attention-playground.js"><\/script>/);
  assert.match(iframe, /^<iframe src="https:\/\/example.org\/ap\/embed.html#sentence=say\+%22hi%22\+%26\+%3Cb%3E" /);
});

test('the training index is the folder of training presets', () => {
  const files = readdirSync(new URL('../../web/trainings/', import.meta.url)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  assert.deepEqual([...files].sort(), [...trainingIds].sort());
});

test('the element\'s reference page lists every attribute with its default', () => {
  const page = readFileSync(new URL('../../docs/reference/element.md', import.meta.url), 'utf8');
  for (const name of attributeNames) {
    const row = page.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    assert.ok(row, `docs/reference/element.md: no row for ${name}`);
    assert.ok(row.endsWith(`| ${attributes[name][0]} |`), `docs/reference/element.md: ${name}'s default ${attributes[name][0]}`);
  }
});

test('view="attention": layer and head select the given head; no link to the playground, which cannot hold the host\'s weights', () => {
  const s = settingsOf({ view: 'attention', layer: '2', head: '3' });
  assert.deepEqual([s.view, s.layer, s.head], ['attention', 2, 3]);
  assert.equal(playgroundHash(s), null);
  assert.throws(() => settingsOf({ view: 'both', layer: '1' }), { message: 'layer applies to view="model" or view="attention"' });
});
