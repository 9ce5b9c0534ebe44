// Edit in place: a learner's typed values, as a scenario the core can run.
// Replacing one drawn tensor by its values would shift PyTorch's random
// stream for every tensor after it, so an edited scenario writes every
// tensor out as values (drawn once by the core), edits applied, no seed.

// "x.5=0.25,W_key.3=-1" <-> {x: {5: 0.25}, W_key: {3: -1}}
export function editsToText(edits) {
  return Object.entries(edits)
    .flatMap(([name, cells]) => Object.entries(cells).map(([index, value]) => `${name}.${index}=${value}`))
    .join(',');
}

// Keyed by tensor names from a URL: objects without a prototype, so
// "__proto__.1=7" is an edit of a tensor called __proto__ (which the
// scenario then lacks), never a write into Object.prototype.
const table = () => Object.create(null);

export function editsFromText(text) {
  const edits = table();
  const parts = text.split(',');
  if (parts.length > 4096) return undefined;
  for (const part of parts) {
    const match = /^([A-Za-z_][A-Za-z0-9_]{0,63})\.(\d{1,8})=(-?\d+(\.\d+)?(e-?\d+)?)$/.exec(part);
    if (!match) return undefined;
    const value = Number(match[3]);
    if (!Number.isFinite(value) || Math.abs(value) > 1e6) return undefined;
    if (!Object.hasOwn(edits, match[1])) edits[match[1]] = table();
    edits[match[1]][match[2]] = value;
  }
  return Object.keys(edits).length ? edits : undefined;
}

// The same tables for edits made in the page.
export function withEdit(edits, name, index, value) {
  const next = table();
  for (const [tensor, cells] of Object.entries(edits ?? {})) next[tensor] = Object.assign(table(), cells);
  if (!Object.hasOwn(next, name)) next[name] = table();
  next[name][index] = value;
  return next;
}

export function hasEdits(edits) {
  return !!edits && Object.keys(edits).length > 0;
}

// [shape], flat data -> nested lists, as "values" wants them.
function nested(shape, data) {
  if (shape.length === 1) return Array.from(data);
  const size = shape.slice(1).reduce((a, b) => a * b, 1);
  return Array.from({ length: shape[0] }, (_, i) => nested(shape.slice(1), data.subarray(i * size, (i + 1) * size)));
}

// base: the scenario; trace: the core's run of it; edits as above.
// Throws RangeError naming an edit that does not fit.
export function editedScenario(base, trace, edits) {
  const tensors = [];
  for (const entry of base.tensors) {
    if (entry.manual_seed !== undefined) continue;
    const t = trace.tensor(entry.name);
    const data = Float32Array.from(t.data);
    for (const [index, value] of Object.entries(Object.hasOwn(edits, entry.name) ? edits[entry.name] : {})) {
      if (Number(index) >= data.length) throw new RangeError(`edits: ${entry.name} has ${data.length} numbers; there is no number ${index}`);
      data[Number(index)] = value;
    }
    tensors.push({ name: entry.name, values: nested(t.shape, data) });
  }
  for (const name of Object.keys(edits))
    if (!base.tensors.some((e) => e.name === name)) throw new RangeError(`edits: the scenario has no tensor named ${JSON.stringify(name)}`);
  const { seed, ...rest } = base;
  return { ...rest, title: `${base.title ?? base.id} (edited)`, tensors };
}
