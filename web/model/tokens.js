// How the Model view names tokens: a character model's vocabulary entry
// (newline, tab and space made visible by the views), a GPT-2 token's text
// from its tokenizer, else the id itself.
export function labelsOf(tokens, info, tokenizer) {
  if (info.tokenizer === 'characters' && Array.isArray(info.vocabulary)) return tokens.map((t) => info.vocabulary[t] ?? `#${t}`);
  if (info.tokenizer === 'gpt2' && tokenizer) return tokens.map((t) => tokenizer.label(t));
  return tokens.map((t) => `#${t}`);
}

// GPT-2's byte-level BPE, loaded only when such a model opens.
export async function loadTokenizer() {
  throw new Error('GPT-2 tokenizer: not available in this build');
}
