// The benchmark scenario in JavaScript, the same text as scenario_text.hpp.
export function scenarioText(B, T, C, heads) {
  const d = C / heads;
  const tensors = [`{"name": "x", "randn": [${B}, ${T}, ${C}]}`];
  const list = [];
  for (let h = 0; h < heads; h++) {
    for (const w of ['q', 'k', 'v']) tensors.push(`{"name": "${w}${h}", "linear": [${C}, ${d}]}`);
    list.push(`{"query": "q${h}", "key": "k${h}", "value": "v${h}"}`);
  }
  return `{"version": 1, "id": "bench", "seed": 0, "tensors": [${tensors.join(', ')}], "attention": {"x": "x", "heads": [${list.join(', ')}], "mask": "causal"}}`;
}
