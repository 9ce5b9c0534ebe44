// The facts line of a model folder (web/model/folder.js): what the page
// says of its heads, in words that agree in number.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { folderFacts } from '../../web/model/folder.js';

const info = (heads, kv_heads) => ({
  architecture: 'LlamaForCausalLM', family: 'llama', causal: true, tokenizer: 'hf',
  config: { layers: 2, heads, kv_heads, head_dim: 4, embed: 8, vocab: 32, length: 32 },
  counts: { file: 1448 },
});

test('query heads sharing one key/value head: "head", not "heads"', () => {
  assert.match(folderFacts(info(2, 1)), /2 layers × 2 query heads sharing 1 key\/value head of 4,/);
});

test('several key/value heads, and a head of its own each', () => {
  assert.match(folderFacts(info(4, 2)), /4 query heads sharing 2 key\/value heads of 4,/);
  assert.match(folderFacts(info(4, 4)), /2 layers × 4 heads of 4,/);
});
