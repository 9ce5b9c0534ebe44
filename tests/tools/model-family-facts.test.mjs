// What the Model view says of a model's family comes from the core's facts
// on the engine's info (familyName, maskToken, starter: web/engine/README.md),
// never from a table of names in the page (web/model/family.js, folder.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { familyOf, familyView, titleOf } from '../../web/model/family.js';
import { folderFacts } from '../../web/model/folder.js';
import { showFill } from '../../web/model/fill.js';
import { tryLines, whatLine } from '../../web/model/try-list.js';

const defaultText = 'The page’s own default text.';
const distilbert = {
  config: { layers: 2, heads: 4, kv_heads: 4, head_dim: 8, embed: 32, vocab: 30522, length: 512 },
  family: 'distilbert', architecture: 'distilbert', familyName: 'DistilBERT', maskToken: '[MASK]', starter: 'the cat sat on the [MASK].',
  causal: false, kvHeads: 4, headDim: 8, maskedLm: true, maskId: 103, tokenizer: 'hf', counts: { file: 1234 },
};

test('a family the page has no entry for shows by its facts: DistilBERT, not GPT-2', () => {
  const family = familyOf(distilbert);
  assert.deepEqual(family, {
    family: 'distilbert', name: 'DistilBERT', mask: '[MASK]', starter: 'the cat sat on the [MASK].',
    causal: false, kvHeads: 4, maskId: 103, mode: 'fill',
  });
  assert.equal(titleOf(family), 'A real DistilBERT: every head of every layer');
  const view = familyView(family, { typed: false, text: defaultText, defaultText });
  assert.equal(view.text, 'the cat sat on the [MASK].');
  assert.equal(view.placeholder, 'a sentence with [MASK], like: the cat sat on the [MASK].');
  assert.equal(view.label, 'Type a sentence with [MASK]');
  assert.match(view.line, /^DistilBERT is an encoder: .* hidden behind \[MASK\] from the words on either side\.$/);
  assert.match(folderFacts(distilbert, { kind: 'hf' }), /^DistilBERT: 2 layers × 4 heads of 8, .*both ways\), with its masked-LM head, 1,234 parameters$/);
});

test('the starter and the mask token are the info\'s, and go back to the default text for a decoder', () => {
  const other = familyOf({ ...distilbert, family: 'roberta', architecture: 'roberta', familyName: 'RoBERTa', maskToken: '<mask>', starter: 'a <mask> sentence.' });
  assert.deepEqual([other.name, other.mask, other.starter], ['RoBERTa', '<mask>', 'a <mask> sentence.']);
  const filled = familyView(other, { typed: false, text: '', defaultText });
  assert.deepEqual([filled.text, filled.placeholder, filled.label], ['a <mask> sentence.', 'a sentence with <mask>, like: a <mask> sentence.', 'Type a sentence with <mask>']);
  const llama = familyOf({ config: { heads: 4 }, family: 'llama', architecture: 'mistral', familyName: 'Mistral', maskToken: '', starter: '', causal: true, kvHeads: 2 });
  const back = familyView(llama, { typed: false, text: 'a <mask> sentence.', defaultText });
  assert.deepEqual([back.text, back.placeholder, back.label, back.fill], [defaultText, '', null, false]);
  assert.equal(back.line, 'Mistral is a decoder, as GPT-2 is: each token attends to itself and the tokens before it, and the model guesses the next token.');
  // a text of the learner's stays
  assert.equal(familyView(llama, { typed: false, text: 'my own words', defaultText }).text, 'my own words');
});

test('an info without facts names its architecture, never GPT-2; none open yet is the page\'s own GPT', () => {
  const bare = familyOf({ config: { heads: 4 }, family: 'distilbert', architecture: 'distilbert', causal: false, maskedLm: true, maskId: 103 });
  assert.deepEqual([bare.family, bare.name, bare.mask, bare.starter], ['distilbert', 'distilbert', '', '']);
  assert.equal(familyView(bare, { typed: false, text: defaultText, defaultText }).text, defaultText, 'no starter: the text stays');
  assert.equal(familyOf({ config: { heads: 4 }, family: 'llama', architecture: 'qwen2', causal: true }).name, 'qwen2');
  const shipped = familyOf(null);
  assert.deepEqual([shipped.family, shipped.name, shipped.mode], ['gpt2', 'GPT-2', 'next']);
  assert.equal(titleOf(shipped), 'A real GPT: every head of every layer');
  assert.equal(familyView(shipped, { typed: false, text: defaultText, defaultText }).line, '');
});

test('the facts line says an encoder\'s head from maskedLm, whatever its family', () => {
  const line = (info) => folderFacts({ ...distilbert, ...info }, null);
  assert.match(line({ maskedLm: false }), /both ways\), without a head to predict with, /);
  assert.match(line({ family: 'bert', architecture: 'bert', familyName: 'BERT' }), /^BERT: .*, with its masked-LM head, /);
  assert.doesNotMatch(line({ family: 'llama', architecture: 'llama', familyName: 'Llama', causal: true, maskedLm: false }), /head to predict|masked-LM/);
});

test('a masked LM\'s hints, titles and try lines name its own mask token, never BERT\'s', () => {
  const roberta = familyOf({ ...distilbert, family: 'roberta', architecture: 'roberta', familyName: 'RoBERTa', maskToken: '<mask>', starter: 'a <mask> sentence.', maskId: 50264 });
  const said = [];
  const next = { box: { dataset: {} }, show: (guesses, title, line) => said.push(title, line) };
  const tokenizer = { typed: false, label: (id) => `t${id}` };
  const top = { k: 10, ids: new Int32Array(40).fill(7), probabilities: new Float32Array(40).fill(0.1) };
  const shown = (tokens, typed = false) => ({ family: roberta, tokenizer: { ...tokenizer, typed }, labels: tokens.map((t) => `t${t}`), result: { tokens, top } });
  showFill(next, shown([0, 1, 2, 3]), null);               // no mask in the text
  showFill(next, shown([0, 1, 2, 3], true), null);         // typed ids
  showFill(next, shown([0, 50264, 2, 50264]), null);       // two masks
  showFill(next, shown([0, 50264, 2, 3]), 2);              // a token not hidden
  showFill(next, { ...shown([0, 1]), family: { ...roberta, maskId: null } }, null);  // no mask id
  said.push(...tryLines(roberta), ...tryLines(roberta, true), ...tryLines({ ...roberta, maskId: null }, true));
  said.push(whatLine({ label: 'roberta-base', tokenizer: { kind: 'hf' }, family: roberta }));
  said.push(familyView({ ...roberta, mode: 'none' }, { typed: false, text: '', defaultText }).line);
  const text = said.join('\n');
  assert.doesNotMatch(text, /\[MASK\]|BERT(?!a)/);
  for (const line of ['No <mask> in the text: write <mask> where RoBERTa should guess a word', 'type 50264, <mask>’s id,',
    'Fill in <mask> (token 1)', 'The text has 2 <mask>s', 'Write <mask> in its place to hide it', 'This folder names no <mask> id',
    'Move <mask> to another word', 'Move 50264, <mask>’s id,', 'does not say which id is <mask>', 'guesses words hidden behind <mask>']) {
    assert.ok(text.includes(line), line);
  }
});
