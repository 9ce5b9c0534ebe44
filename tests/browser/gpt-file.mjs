// A GPT model file (gpt-v1.md section 2, nanoGPT's names) of any size, made
// in the test: small deterministic weights, LayerNorms at 1 and 0, a
// character vocabulary. For the Model view's loading tests (a file tens of
// MB large without committing one). Returns a Buffer.
// tokenizer: 'gpt2' makes a GPT-2 vocabulary's model (V = 50257, no list;
// vocab: another V, such as nanoGPT's padded 50304). weight(name, i): a
// number to put at element i of tensor `name` instead of the usual one.
export function gptFile({ embed, heads, layers, length, vocabulary = ['\n', ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))], mlp = 4, tokenizer = 'characters', vocab = null, weight = () => undefined }) {
  const V = vocab ?? (tokenizer === 'gpt2' ? 50257 : vocabulary.length);
  const tensors = [['transformer.wte.weight', [V, embed]], ['transformer.wpe.weight', [length, embed]]];
  for (let l = 0; l < layers; l++) {
    const h = `transformer.h.${l}.`;
    tensors.push([`${h}ln_1.weight`, [embed], 1], [`${h}ln_1.bias`, [embed], 0],
      [`${h}attn.c_attn.weight`, [3 * embed, embed]], [`${h}attn.c_attn.bias`, [3 * embed]],
      [`${h}attn.c_proj.weight`, [embed, embed]], [`${h}attn.c_proj.bias`, [embed]],
      [`${h}ln_2.weight`, [embed], 1], [`${h}ln_2.bias`, [embed], 0],
      [`${h}mlp.c_fc.weight`, [mlp * embed, embed]], [`${h}mlp.c_fc.bias`, [mlp * embed]],
      [`${h}mlp.c_proj.weight`, [embed, mlp * embed]], [`${h}mlp.c_proj.bias`, [embed]]);
  }
  tensors.push(['transformer.ln_f.weight', [embed], 1], ['transformer.ln_f.bias', [embed], 0], ['lm_head.weight', [V, embed]]);
  const header = { __metadata__: { n_head: String(heads), activation: 'gelu', source: 'test',
    ...(tokenizer === 'gpt2' ? { tokenizer: 'gpt2' } : { vocab: JSON.stringify(vocabulary) }) } };
  let offset = 0;
  for (const [name, shape] of tensors) {
    const bytes = 4 * shape.reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const out = Buffer.alloc(8 + json.length + offset);
  out.writeBigUInt64LE(BigInt(json.length), 0);
  out.write(json, 8, 'latin1');
  const data = new Float32Array(out.buffer, out.byteOffset + 8 + json.length, offset / 4);
  let seed = 12345;
  let at = 0;
  for (const [name, shape, constant] of tensors) {
    const n = shape.reduce((a, b) => a * b, 1);
    for (let i = 0; i < n; i++, at++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      data[at] = weight(name, i) ?? constant ?? ((seed / 2 ** 32) - 0.5) * 0.04;
    }
  }
  return out;
}
