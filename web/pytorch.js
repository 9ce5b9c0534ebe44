// The current scenario as a PyTorch script that prints the same numbers:
// every tensor drawn or written in order, then the layer as the notebooks
// write it. Tensors live in a dict, so no scenario name can clash with Python.

const py = (value) => JSON.stringify(value);  // JSON lists and strings read as Python

function source(entry) {
  if (entry.values !== undefined) return `torch.tensor(${py(entry.values)}, dtype=torch.float32)`;
  if (entry.zeros !== undefined) return `torch.zeros(${entry.zeros.join(', ')})`;
  if (entry.ones !== undefined) return `torch.ones(${entry.ones.join(', ')})`;
  if (entry.rand !== undefined) return `torch.rand(${entry.rand.join(', ')})`;
  if (entry.randn !== undefined) return `torch.randn(${entry.randn.join(', ')})`;
  if (entry.randint !== undefined) return `torch.randint(${entry.randint[0]}, ${entry.randint[1]}, (${entry.shape.join(', ')},)).float()`;
  if (entry.linear !== undefined) return `nn.Linear(${entry.linear[0]}, ${entry.linear[1]}, bias=False).weight.detach().T.contiguous()`;
  if (entry.embedding !== undefined) return `nn.Embedding(${entry.embedding[0]}, ${entry.embedding[1]}).weight.detach()[torch.tensor(${py(entry.ids)})]`;
  throw new RangeError(`export: tensor ${entry.name} has no source`);
}

export function pytorchSnippet(scenario) {
  const a = scenario.attention;
  const lines = [
    `# Attention Playground: ${String(scenario.title ?? scenario.id).replace(/\n/g, ' ')}`,
    '# Reproduces the playground\'s numbers with PyTorch on the CPU; prints them as JSON.',
    'import json',
    '',
    'import torch',
    'import torch.nn as nn',
    '',
    't = {}',
  ];
  if (scenario.seed !== undefined) lines.push(`torch.manual_seed(${scenario.seed})`);
  for (const entry of scenario.tensors) {
    if (entry.manual_seed !== undefined) lines.push(`torch.manual_seed(${entry.manual_seed})`);
    else lines.push(`t[${py(entry.name)}] = ${source(entry)}`);
  }
  const x = `t[${py(a.x)}]`;
  const context = `t[${py(a.context ?? a.x)}]`;
  const mask = a.mask ?? 'causal';
  lines.push('', `x = ${x}`, `context = ${context}`, 'Tq, Tkv = x.shape[-2], context.shape[-2]');
  if (mask === 'causal') lines.push('keep = torch.tril(torch.ones(Tq, Tkv))');
  else if (mask === 'none') lines.push('keep = torch.ones(Tq, Tkv)');
  else lines.push(`keep = torch.tensor(${py(mask)}, dtype=torch.float32)`);
  lines.push('heads, outs = [], []');
  a.heads.forEach((head, h) => {
    lines.push(`# head ${h}`);
    if (head.query) {
      lines.push(`q = x @ t[${py(head.query)}]`, `k = context @ t[${py(head.key)}]`, 'scores = q @ k.transpose(-2, -1)');
      lines.push(a.scale === false ? 'scaled = scores' : 'scaled = scores * k.shape[-1] ** -0.5');
    } else {
      lines.push('scores = torch.zeros(*x.shape[:-2], Tq, Tkv)', 'scaled = scores');
    }
    if (a.temperature !== undefined && a.temperature !== 1) lines.push(`scaled = scaled / ${a.temperature}`);
    lines.push(head.value ? `v = context @ t[${py(head.value)}]` : 'v = context');
    lines.push("masked = scaled.masked_fill(keep == 0, float('-inf'))", 'weights = torch.softmax(masked, dim=-1)', 'out = weights @ v');
    lines.push('heads.append({"weights": weights.reshape(-1).tolist(), "out": out.reshape(-1).tolist()})', 'outs.append(out)');
  });
  lines.push('', 'final = torch.cat(outs, dim=-1)');
  if (a.output) lines.push(`final = final @ t[${py(a.output)}]`);
  lines.push('print(json.dumps({"heads": heads, "out": final.reshape(-1).tolist()}))', '');
  return lines.join('\n');
}
