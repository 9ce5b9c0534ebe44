// The lenses' one DOM helper, and how their numbers read.

// A new element under parent with the given properties.
export function element(parent, tag, props = {}) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  parent.append(e);
  return e;
}

// A score or probability in [0, 1] as the tables print it; null as a dash.
export const fixed = (v, digits = 2) => (v === null || v === undefined ? '—' : v.toFixed(digits));

// A signed logit part: the minus sign typeset, 3 decimals.
export const signed = (v) => `${v < 0 ? '−' : v > 0 ? '+' : ''}${Math.abs(v).toFixed(3)}`;

// A head's name in the lenses and the core's JSON: "layer.head".
export const headName = (layer, head) => `${layer}.${head}`;

// The heads a link's `ablate` names ("0.1,1.2") as [[layer, head] …].
export function headsOf(text) {
  if (!text) return [];
  return text.split(',').map((pair) => pair.split('.').map(Number));
}
