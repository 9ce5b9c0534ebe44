// A typed sentence as a scenario, the way the sentence notebook builds it:
// a dictionary of the sorted words, nn.Embedding(50_000, embed) under
// torch.manual_seed(seed), then the same seed again and torch.rand weights
// for each head. Only the scenario is built here; the core computes.

export const vocabSize = 50_000;
export const maxWords = 64;

// Python's sorted() on str: by code point.
function byCodePoint(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

// {s: i for i, s in enumerate(sorted(words))}: a repeated word keeps its last index.
export function tokenize(sentence) {
  const words = sentence.trim().split(/\s+/).filter(Boolean);
  const dictionary = new Map();
  [...words].sort(byCodePoint).forEach((word, i) => dictionary.set(word, i));
  return { words, ids: words.map((w) => dictionary.get(w)) };
}

export function scenarioFromSentence({ sentence, seed, embed, head_size, value_size, heads }) {
  const { words, ids } = tokenize(sentence);
  if (words.length === 0) throw new RangeError('sentence: type at least one word');
  if (words.length > maxWords) throw new RangeError(`sentence: ${words.length} words; the playground takes up to ${maxWords}`);
  const tensors = [
    { manual_seed: seed },
    { name: 'embedded', embedding: [vocabSize, embed], ids },
    { manual_seed: seed },
  ];
  const headList = [];
  const suffix = (h) => (heads > 1 ? `_${h}` : '');
  for (let h = 0; h < heads; h++) {
    tensors.push(
      { name: `W_query${suffix(h)}`, rand: [embed, head_size] },
      { name: `W_key${suffix(h)}`, rand: [embed, head_size] },
      { name: `W_value${suffix(h)}`, rand: [embed, value_size] },
    );
    headList.push({ query: `W_query${suffix(h)}`, key: `W_key${suffix(h)}`, value: `W_value${suffix(h)}` });
  }
  return {
    version: 1,
    id: 'sentence',
    title: `"${sentence.trim()}"`,
    source: '004_db1ee691a881b215.txt',
    seed,
    tokens: words,
    tensors,
    attention: { x: 'embedded', heads: headList, mask: 'causal' },
  };
}

// The controls that apply to any scenario: mask, scale, temperature.
export function withOverrides(scenario, { mask, scale, temperature }) {
  const attention = { ...scenario.attention };
  if (mask !== null && mask !== undefined) attention.mask = mask;
  if (scale !== null && scale !== undefined) attention.scale = scale;
  if (temperature !== null && temperature !== undefined) attention.temperature = temperature;
  return { ...scenario, attention };
}
