// The current scenario as a PyTorch script that prints the same numbers:
// every tensor drawn or written in order, then the layer as the notebooks
// write it. Tensors live in a dict, so no scenario name can clash with Python.
//
// A learner runs this script, and its text can come from a shared link: every
// piece of user text is a Python string literal with everything outside
// printable ASCII escaped (a \r or \u2028 cannot end a line), and every
// number is checked to be one. Nothing user-made reaches a comment.

// A Python str literal that reads back as `text`.
export function pyString(text) {
  let out = '"';
  for (const c of String(text)) {
    const code = c.codePointAt(0);
    if (c === '"' || c === '\\') out += '\\' + c;
    else if (code >= 0x20 && code < 0x7f) out += c;
    else if (code <= 0xff) out += '\\x' + code.toString(16).padStart(2, '0');
    else if (code <= 0xffff) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += '\\U' + code.toString(16).padStart(8, '0');
  }
  return out + '"';
}

const shown = (value) => JSON.stringify(String(value).slice(0, 40));

function pyNumber(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`export: ${shown(value)} is not a finite number`);
  return String(value);
}

// Whole numbers as Python ints, digits only (String(1e21) would be "1e+21").
function pyInt(value) {
  if (!Number.isInteger(value)) throw new RangeError(`export: ${shown(value)} is not a whole number`);
  return BigInt(value).toString();
}

// Nested lists of numbers, each checked.
function pyList(value) {
  if (Array.isArray(value)) return `[${value.map(pyList).join(', ')}]`;
  return pyNumber(value);
}

const py = (value) => (typeof value === 'string' ? pyString(value) : pyList(value));
const dims = (shape) => shape.map(pyInt).join(', ');

function source(entry) {
  if (entry.values !== undefined) return `torch.tensor(${py(entry.values)}, dtype=torch.float32)`;
  if (entry.zeros !== undefined) return `torch.zeros(${dims(entry.zeros)})`;
  if (entry.ones !== undefined) return `torch.ones(${dims(entry.ones)})`;
  if (entry.rand !== undefined) return `torch.rand(${dims(entry.rand)})`;
  if (entry.randn !== undefined) return `torch.randn(${dims(entry.randn)})`;
  if (entry.randint !== undefined) return `torch.randint(${pyInt(entry.randint[0])}, ${pyInt(entry.randint[1])}, (${dims(entry.shape)},)).float()`;
  if (entry.linear !== undefined) return `nn.Linear(${pyInt(entry.linear[0])}, ${pyInt(entry.linear[1])}, bias=False).weight.detach().T.contiguous()`;
  if (entry.embedding !== undefined) return `nn.Embedding(${pyInt(entry.embedding[0])}, ${pyInt(entry.embedding[1])}).weight.detach()[torch.tensor([${dims(entry.ids)}])]`;
  throw new RangeError(`export: tensor ${pyString(entry.name)} has no source`);
}

export function pytorchSnippet(scenario) {
  const a = scenario.attention;
  const lines = [
    '# Attention Playground: reproduces the playground\'s numbers with PyTorch on the CPU;',
    '# prints them as JSON.',
    `TITLE = ${pyString(scenario.title ?? scenario.id ?? '')}`,
    'import json',
    '',
    'import torch',
    'import torch.nn as nn',
    '',
    't = {}',
  ];
  if (scenario.seed !== undefined) lines.push(`torch.manual_seed(${pyInt(scenario.seed)})`);
  for (const entry of scenario.tensors) {
    if (entry.manual_seed !== undefined) lines.push(`torch.manual_seed(${pyInt(entry.manual_seed)})`);
    else lines.push(`t[${py(entry.name)}] = ${source(entry)}`);
  }
  const x = `t[${py(a.x)}]`;
  const context = `t[${py(a.context ?? a.x)}]`;
  const mask = a.mask ?? 'causal';
  lines.push('', `x = ${x}`, `context = ${context}`, 'Tq, Tkv = x.shape[-2], context.shape[-2]');
  if (mask === 'causal') lines.push('keep = torch.tril(torch.ones(Tq, Tkv))');
  else if (mask === 'none') lines.push('keep = torch.ones(Tq, Tkv)');
  else lines.push(`keep = torch.tensor(${pyList(mask)}, dtype=torch.float32)`);
  if (a.rotary) {
    // Llama's rotary positions (transformers' rotate_half and apply_rotary_pos_emb), float32
    lines.push('', 'def rotate_half(x):', '    half = x.shape[-1] // 2', '    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)', '',
      `def rotate(x, theta=${pyNumber(a.rotary.theta)}, offset=${pyInt(a.rotary.offset ?? 0)}):`,
      '    T, d = x.shape[-2], x.shape[-1]',
      '    inv_freq = 1.0 / (theta ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))',
      '    angle = torch.arange(offset, offset + T).float()[:, None] * inv_freq[None, :]',
      '    emb = torch.cat((angle, angle), dim=-1)',
      '    return x * emb.cos() + rotate_half(x) * emb.sin()', '');
  }
  lines.push('heads, outs = [], []');
  a.heads.forEach((head, h) => {
    lines.push(`# head ${pyInt(h)}`);
    if (head.query) {
      lines.push(`q = x @ t[${py(head.query)}]`);
      if (head.query_bias) lines.push(`q = q + t[${py(head.query_bias)}]`);
      lines.push(`k = context @ t[${py(head.key)}]`);
      if (head.key_bias) lines.push(`k = k + t[${py(head.key_bias)}]`);
      if (a.rotary) lines.push('q, k = rotate(q), rotate(k)  # each position turns its query and key');
      lines.push('scores = q @ k.transpose(-2, -1)');
      lines.push(a.scale === false ? 'scaled = scores' : 'scaled = scores * k.shape[-1] ** -0.5');
    } else {
      lines.push('scores = torch.zeros(*x.shape[:-2], Tq, Tkv)', 'scaled = scores');
    }
    if (a.temperature !== undefined && a.temperature !== 1) lines.push(`scaled = scaled / ${pyNumber(a.temperature)}`);
    lines.push(head.value ? `v = context @ t[${py(head.value)}]` : 'v = context');
    if (head.value_bias) lines.push(`v = v + t[${py(head.value_bias)}]`);
    lines.push("masked = scaled.masked_fill(keep == 0, float('-inf'))", 'weights = torch.softmax(masked, dim=-1)', 'out = weights @ v');
    lines.push('heads.append({"weights": weights.reshape(-1).tolist(), "out": out.reshape(-1).tolist()})', 'outs.append(out)');
  });
  lines.push('', 'final = torch.cat(outs, dim=-1)');
  if (a.output) lines.push(`final = final @ t[${py(a.output)}]`);
  if (a.output_bias) lines.push(`final = final + t[${py(a.output_bias)}]`);
  lines.push('print(json.dumps({"heads": heads, "out": final.reshape(-1).tolist()}))', '');
  return lines.join('\n');
}
