// A Hugging Face folder of a Llama-family shape with random BF16 weights,
// made at bench time and never committed (`make bench`'s model part): the
// config.json and one model.safetensors, as transformers' save_pretrained
// lays them out (models-v2.md section 2). The weights are N(0, 0.02) (the
// norms ones, the biases N(0, 0.02) too), from a seeded generator so every
// run opens the same folder. F32 (bench_generate.mjs's wide SmolLM2) holds
// the very BF16 numbers widened, so both folders compute the same outputs.
//   node tests/bench/make_hf_folder.mjs smollm2-135m|qwen2.5-0.5b FOLDER [BF16|F32]
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

// The shapes the issue names (the published configs' sizes).
export const shapes = {
  'smollm2-135m': {
    model_type: 'llama', hidden_size: 576, num_hidden_layers: 30, num_attention_heads: 9, num_key_value_heads: 3,
    intermediate_size: 1536, vocab_size: 49152, max_position_embeddings: 8192, rope_theta: 100000.0,
    rms_norm_eps: 1e-5, tie_word_embeddings: true, attention_bias: false,
  },
  'qwen2.5-0.5b': {
    model_type: 'qwen2', hidden_size: 896, num_hidden_layers: 24, num_attention_heads: 14, num_key_value_heads: 2,
    intermediate_size: 4864, vocab_size: 151936, max_position_embeddings: 32768, rope_theta: 1000000.0,
    rms_norm_eps: 1e-6, tie_word_embeddings: true,
  },
};

// Every tensor of the shape, in save_pretrained's order: [name, shape, kind].
export function tensorsOf(c) {
  const d = c.hidden_size, H = c.num_attention_heads, KV = c.num_key_value_heads, hd = d / H, I = c.intermediate_size;
  const biased = c.model_type === 'qwen2' || c.attention_bias;
  const list = [['model.embed_tokens.weight', [c.vocab_size, d], 'normal']];
  for (let i = 0; i < c.num_hidden_layers; i += 1) {
    const p = `model.layers.${i}.`;
    list.push([`${p}input_layernorm.weight`, [d], 'ones']);
    list.push([`${p}self_attn.q_proj.weight`, [H * hd, d], 'normal']);
    if (biased) list.push([`${p}self_attn.q_proj.bias`, [H * hd], 'normal']);
    list.push([`${p}self_attn.k_proj.weight`, [KV * hd, d], 'normal']);
    if (biased) list.push([`${p}self_attn.k_proj.bias`, [KV * hd], 'normal']);
    list.push([`${p}self_attn.v_proj.weight`, [KV * hd, d], 'normal']);
    if (biased) list.push([`${p}self_attn.v_proj.bias`, [KV * hd], 'normal']);
    list.push([`${p}self_attn.o_proj.weight`, [d, H * hd], 'normal']);
    list.push([`${p}post_attention_layernorm.weight`, [d], 'ones']);
    list.push([`${p}mlp.gate_proj.weight`, [I, d], 'normal']);
    list.push([`${p}mlp.up_proj.weight`, [I, d], 'normal']);
    list.push([`${p}mlp.down_proj.weight`, [d, I], 'normal']);
  }
  list.push(['model.norm.weight', [d], 'ones']);
  if (!c.tie_word_embeddings) list.push(['lm_head.weight', [c.vocab_size, d], 'normal']);
  return list;
}

// xorshift32 and Box–Muller: N(0, 0.02) in float32, kept as its top 16 bits (BF16).
function normals(seed) {
  let s = seed >>> 0 || 1;
  const uniform = () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return (s + 0.5) / 4294967296;
  };
  return () => 0.02 * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

// config.json's text and the safetensors header's, and the file's size.
export function layoutOf(name, dtype = 'BF16') {
  const size = dtype === 'F32' ? 4 : 2;
  const config = { ...shapes[name], architectures: [], hidden_act: 'silu', rope_scaling: null,
                   torch_dtype: dtype === 'F32' ? 'float32' : 'bfloat16' };
  const tensors = tensorsOf(config);
  const header = {};
  let offset = 0;
  for (const [tensorName, shape] of tensors) {
    const bytes = size * shape.reduce((a, b) => a * b, 1);
    header[tensorName] = { dtype, shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);  // the data starts 8-aligned, as safetensors writes it
  return { config, configText: `${JSON.stringify(config, null, 1)}\n`, tensors, header: text, bytes: 8 + text.length + offset };
}

export function writeFolder(name, folder, dtype = 'BF16') {
  const { config, configText, tensors, header: text, bytes } = layoutOf(name, dtype);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'config.json'), configText);
  const fd = openSync(join(folder, 'model.safetensors'), 'w');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  writeSync(fd, length);
  writeSync(fd, Buffer.from(text, 'utf8'));
  const next = normals(20261126);
  const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
  for (const [, shape, kind] of tensors) {
    const count = shape.reduce((a, b) => a * b, 1);
    const chunk = 1 << 20;
    for (let start = 0; start < count; start += chunk) {
      const n = Math.min(chunk, count - start);
      const out = dtype === 'F32' ? new Uint32Array(n) : new Uint16Array(n);
      for (let i = 0; i < n; i += 1) {
        f32[0] = kind === 'ones' ? 1 : next();
        // truncated to BF16: the bench needs a shape, not a rounding (F32: those numbers widened)
        out[i] = dtype === 'F32' ? (u32[0] & 0xffff0000) >>> 0 : u32[0] >>> 16;
      }
      writeSync(fd, Buffer.from(out.buffer));
    }
  }
  closeSync(fd);
  return { config, bytes };
}

// The folder made once into FOLDER: written again only when its config.json
// or its file's size is not what this script writes (the weights are seeded).
export function ensureFolder(name, folder, log = (...a) => console.error(...a), dtype = 'BF16') {
  const { configText, bytes } = layoutOf(name, dtype);
  const file = join(folder, 'model.safetensors');
  const same = existsSync(file) && statSync(file).size === bytes && existsSync(join(folder, 'config.json'))
    && readFileSync(join(folder, 'config.json'), 'utf8') === configText;
  if (!same) {
    log(`writing a ${name}-shaped folder (random ${dtype}) into ${folder} …`);
    writeFolder(name, folder, dtype);
  }
  return { folder, bytes, configBytes: Buffer.byteLength(configText) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, folder, dtype = 'BF16'] = process.argv.slice(2);
  if (!shapes[name] || !folder || !['BF16', 'F32'].includes(dtype)) {
    console.error(`usage: node tests/bench/make_hf_folder.mjs ${Object.keys(shapes).join('|')} FOLDER [BF16|F32]`);
    process.exit(2);
  }
  const { bytes } = writeFolder(name, folder, dtype);
  console.error(`${folder}: ${(bytes / 1e6).toFixed(1)} MB`);
}
