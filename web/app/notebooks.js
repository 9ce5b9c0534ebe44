// The seed notebooks by file, and what each step says in their own words.

export const notebooks = {
  '000_8bb3526a0732dc32.txt': 'Mathematical trick in self-attention',
  '001_7d3394dab23511de.txt': 'Self-Attention from First Principles',
  '002_f84a7a3b8ba13384.txt': 'WTF is self-attention',
  '003_a798ca114809a483.txt': 'Math Trick of Self-Attention',
  '004_db1ee691a881b215.txt': 'The Clear Tutorial for Attention Mechanism in Transformers',
};

export function notebookName(source) {
  return notebooks[source] ?? (source || 'your own input');
}

// How the current scenario made x, in the notebooks' PyTorch: entry is its
// tensor entry in the scenario (a preset, a sentence's embedding, a file).
function xSource(entry, shape) {
  const dims = shape.join(', ');
  if (!entry) return `x  # (${dims})`;
  if (entry.embedding) return `x = nn.Embedding(${entry.embedding.join(', ')})(idx)  # the token embedding table: (${dims})`;
  if (entry.randn) return `x = torch.randn(${dims})`;
  if (entry.rand) return `x = torch.rand(${dims})`;
  if (entry.randint) return `x = torch.randint(${entry.randint.join(', ')}, (${dims},)).float()`;
  if (entry.zeros || entry.ones) return `x = torch.${entry.zeros ? 'zeros' : 'ones'}(${dims})`;
  return `x = torch.tensor([...])  # the notebook's numbers: (${dims})`;
}

// step id -> {title, text, formula, pytorch}; formula and pytorch may depend
// on the scenario's facts: {cross, batch, Tq, Tkv, headSize, rotary, x: {entry, shape}}
export const stepText = {
  x: {
    title: 'x: each token’s private information',
    text: 'Every token (row) starts with its own vector. Nothing has been communicated yet.',
    formula: (f) => `x : (${f.x.shape.join(', ')})`,
    pytorch: (f) => xSource(f.x.entry, f.x.shape),
  },
  qkv: {
    title: 'q, k, v: what I look for, what I contain, what I offer',
    text: 'Each token emits a query, a key and a value through the same three linear maps.',
    formula: (f) => (f.cross ? 'q = x · W_query    k = context · W_key    v = context · W_value'
      : 'q = x · W_query    k = x · W_key    v = x · W_value'),
    pytorch: (f) => (f.cross ? 'q, k, v = query(x), key(context), value(context)' : 'k, q, v = key(x), query(x), value(x)'),
  },
  rotate: {
    title: 'rotate: each position turns its query and key',
    text: 'Rotary positions (Llama): each pair of numbers (j, j + d/2) of q and k is turned by an angle that grows with the position, faster for the first pairs. Turning both by their own position makes q · k depend only on how far apart the two tokens are.',
    formula: (f) => `q_rotated = q · cos + rotate_half(q) · sin    angle = p · ${f.rotary?.theta}^(−2j/${f.headSize ?? 'd'}), p = ${f.rotary?.offset} … ${(f.rotary?.offset ?? 0) + f.Tq - 1}`,
    pytorch: 'q, k = apply_rotary_pos_emb(q, k, cos, sin)  # transformers\' Llama; rotate_half(x) = cat(-x2, x1)',
  },
  scores: {
    title: 'scores: how much each query matches each key',
    text: 'The affinity of token i for token j is the dot product of i’s query with j’s key.',
    formula: (f) => (f.rotary ? 'scores[i, j] = q_rotated[i] · k_rotated[j]' : 'scores[i, j] = q[i] · k[j]'),
    pytorch: (f) => (f.headSize === null ? 'wei = torch.zeros((T, T))  # no query or key: every affinity is the same'
      : `wei = q @ k.transpose(-2, -1) # (${f.batch}, ${f.Tq}, ${f.headSize}) @ (${f.batch}, ${f.headSize}, ${f.Tkv}) = (${f.batch}, ${f.Tq}, ${f.Tkv})`),
  },
  scaled: {
    title: 'scaled: keep unit variance',
    text: 'Dividing by √head_size keeps the scores at unit variance, so softmax stays diffuse instead of one-hot.',
    formula: 'scaled = scores / √head_size / temperature',
    pytorch: 'wei = q @ k.transpose(-2, -1) * head_size**-0.5',
  },
  // an encoder's scenario (mask none: BERT's heads, the bank) hides nothing, so
  // the title and the line follow the trace's mask (facts.mask)
  masked: {
    title: (f) => (f.mask === 'none' ? 'masked: nothing hidden, every token sees every token'
      : f.mask === 'custom' ? 'masked: the mask decides who talks to whom' : 'masked: no talking to the future'),
    text: (f) => (f.mask === 'none' ? 'This scenario has no mask (an encoder, as BERT): every score passes through unchanged, the future included.'
      : 'Where the mask is 0 the score becomes −∞, so that position gets no weight at all.'),
    formula: 'masked[i, j] = −∞ where mask[i, j] = 0',
    pytorch: "wei = wei.masked_fill(tril == 0, float('-inf'))",
  },
  weights: {
    title: 'weights: softmax makes each row sum to 1',
    text: (f) => (f.mask === 'none' ? 'Each row is exponentiated and normalized, so it sums to 1: every position gets some weight.'
      : 'Each row is exponentiated and normalized: exp(−∞) = 0, and the rest share the weight.'),
    formula: 'weights[i] = exp(masked[i] − max) / Σ exp(masked[i] − max)',
    pytorch: 'wei = F.softmax(wei, dim=-1)',
  },
  out: {
    title: 'out: each token aggregates what it attends to',
    text: 'Each output row is the weighted sum of the value rows, with that row’s weights.',
    formula: 'out[i] = Σ_j weights[i, j] · v[j]',
    pytorch: 'out = wei @ v',
  },
};
