// Which matrices each step shows, and how its animation reveals them: the
// products filling scores, the scaling, −∞ appearing above the diagonal,
// rows of weights normalizing, the weighted sum building out.
import { Heatmap } from './heatmap.js';
import { tokenText } from './format.js';
import { activeOf } from './timing.js';

const range = (n) => Array.from({ length: n }, (_, i) => String(i));

// step -> panels [{name, label, scale, matrix(trace, head, batch), rows, cols, animation}]
function plan(trace, head, batch) {
  const s = trace.summary;
  const steps = s.heads[head].steps;
  // as labels show them: a character model's newline, tab and space visible
  const tokens = s.tokens[batch].map(tokenText);
  const context = s.context_tokens[batch].map(tokenText);
  // `tensor`: the named scenario tensor this panel shows, which makes it editable
  const named = (name, label, scale, matrix, rows, cols, animation = {}, tensor = null) =>
    matrix ? { name, label, scale, matrix, rows, cols, animation, tensor } : null;
  const offset = (name, rows, cols) => ({ name, offset: s.batched ? batch * rows * cols : 0 });
  const step = (name) => trace.step(head, name, batch);
  const dims = (shape) => range(shape[1]);
  const x = trace.input(batch);
  const ctx = s.cross ? trace.input(batch, { context: true }) : null;
  const v = step('v') ?? ctx ?? x;
  const source = s.cross ? 'context' : 'x';  // keys and values come from the context only in cross-attention
    // "x, no value", or "x (embedded), no value" when the tensor has its own name
  const called = (role, name) => (name === role ? role : `${role} (${name})`);
  const plus = (role) => (s.heads[head][`${role}_bias`] ? ` + b_${role}` : '');
  const vLabel = steps.v ? 'v' : `${s.cross ? called('context', s.context) : called('x', s.x)}, no value`;

  return {
    x: [
      named('x', s.x === 'x' ? 'x' : `x (${s.x})`, 'diverging', x, tokens, dims(x.shape), { revealBy: 'row' }, offset(s.x, ...x.shape)),
      ctx && named('context', `context (${s.context})`, 'diverging', ctx, context, dims(ctx.shape), { revealBy: 'row' }, offset(s.context, ...ctx.shape)),
    ],
    qkv: steps.q || steps.v
      ? [
          ...['query', 'key', 'value'].map((role) => {
            const name = s.heads[head][role];
            const w = name && trace.tensor(name);
            const panel = w && named(`tensor:${name}`, name, 'diverging', w, range(w.shape[0]), range(w.shape[1]), {}, { name, offset: 0 });
            return panel && { ...panel, hook: `W_${role}`, row: 0 };
          }),
          // the biases (gpt-v1.md section 3), each a row added to every row of
          // its product: on a line of their own, between the weights and the products
          ...['query', 'key', 'value'].map((role) => {
            const name = s.heads[head][`${role}_bias`];
            const b = name && trace.tensor(name);
            const panel = b && named(`tensor:${name}`, `+ ${name}`, 'diverging', { shape: [1, b.shape[0]], data: b.data }, ['+'], range(b.shape[0]));
            return panel && { ...panel, hook: `b_${role}`, row: 1 };
          }),
          steps.q && { ...named('q', `q = x · W_query${plus('query')}`, 'diverging', step('q'), tokens, dims(steps.q), { revealBy: 'row' }), row: 2 },
          steps.k && { ...named('k', `k = ${source} · W_key${plus('key')}`, 'diverging', step('k'), context, dims(steps.k), { revealBy: 'row' }), row: 2 },
          steps.v && { ...named('v', `v = ${source} · W_value${plus('value')}`, 'diverging', step('v'), context, dims(steps.v), { revealBy: 'row' }), row: 2 },
        ]
      : [],
    scores: [
      steps.q && named('q', 'q', 'diverging', step('q'), tokens, dims(steps.q)),
      steps.k && named('k', 'k', 'diverging', step('k'), context, dims(steps.k)),
      named('scores', 'scores = q · kᵀ', 'diverging', step('scores'), tokens, context, { revealBy: 'cell' }),
    ],
    scaled: [
      named('scores', 'scores', 'diverging', step('scores'), tokens, context),
      named('scaled', 'scaled', 'diverging', step('scaled'), tokens, context, { mode: 'morph', from: step('scores').data }),
    ],
    masked: [
      named('mask', `mask (${s.mask})`, 'binary', trace.keep, tokens, context),
      named('masked', 'masked', 'diverging', step('masked'), tokens, context, { mode: 'mask', from: step('scaled').data }),
    ],
    weights: [
      named('masked', 'masked', 'diverging', step('masked'), tokens, context),
      named('weights', 'weights = softmax(masked)', 'sequential', step('weights'), tokens, context, { mode: 'softmax', ...softmaxRows(trace, head, batch) }),
    ],
    out: [
      named('weights', 'weights', 'sequential', step('weights'), tokens, context),
      named('v', vLabel, 'diverging', v, context, dims(v.shape)),
      named('out', 'out = weights · v', 'diverging', step('out'), tokens, dims(steps.out), { revealBy: 'row' }),
      (s.heads.length > 1 || s.output) && { hook: 'layer-out', ...named('layer', s.output ? `layer out (heads concatenated, · ${s.output})` : 'layer out (heads concatenated)',
          'diverging', trace.out(batch), tokens, range(s.out[1]), { revealBy: 'row' }) },
    ],
  };
}

// A line break among a step's matrices (a flex row): what follows starts a new line.
function lineBreak(parent) {
  const line = document.createElement('div');
  line.className = 'matrices-break';
  parent.append(line);
  return parent;
}

// Each row's exponentials exp(masked − row max) and their sum, as the core
// computed them for its explanations: softmax's animation plays them.
function softmaxRows(trace, head, batch) {
  const [rows, cols] = trace.step(head, 'weights', batch).shape;
  const exps = new Float32Array(rows * cols);
  const sums = [];
  for (let r = 0; r < rows; r++) {
    const e = trace.explain(head, 'weights', batch, r, 0);
    exps.set(e.exps, r * cols);
    sums.push(e.exp_sum);
  }
  return { exps, sums };
}

// What the step combines into the cell or row it is filling: the rows of its
// inputs to light up, by panel name. active: {row, col} of the output.
function marksFor(step, active, trace, head, batch) {
  if (!active) return {};
  const { row, col } = active;
  const only = (r) => ({ rows: new Map([[r, 1]]), cells: [] });
  switch (step) {
    case 'scores':
      return { q: only(row), k: only(col), scores: { rows: new Map(), cells: [{ row, col }] } };
    case 'masked':
      return { mask: only(row), masked: only(row) };
    case 'weights':
      return { masked: only(row), weights: only(row) };
    case 'out': {
      // the weights row, and each v row in proportion to the weight it gets
      const weights = trace.step(head, 'weights', batch);
      const cols = weights.shape[1];
      const v = new Map();
      for (let j = 0; j < cols; j++) if (trace.keep.data[row * cols + j]) v.set(j, weights.data[row * cols + j]);
      return { weights: only(row), v: { rows: v, cells: [] }, out: only(row) };
    }
    default:
      return {};
  }
}

// The cells of a panel that differ from the same panel before the edit, and
// the edited cell itself when the panel shows its tensor.
function changesOf(panel, before, edit) {
  if (!edit) return {};
  const old = before.find((p) => p.name === panel.name)?.matrix;
  const out = {};
  if (old && old.data.length === panel.matrix.data.length) {
    const changed = new Uint8Array(panel.matrix.data.length);
    panel.matrix.data.forEach((v, i) => { changed[i] = v !== old.data[i] && !(Number.isNaN(v) && Number.isNaN(old.data[i])) ? 1 : 0; });
    out.changed = changed;
  }
  if (panel.tensor?.name === edit.name) {
    const cell = edit.index - panel.tensor.offset;
    if (cell >= 0 && cell < panel.matrix.data.length) out.edited = cell;
  }
  return out;
}

export class Stage {
  constructor(parent, { onCell, onEdit }) {
    this.parent = parent;
    // a cell the learner points at in the step's result shows what it combines
    this.onCell = (heatmap, cell, how) => {
      this.pinned = cell && heatmap.name === this.at?.step ? { ...cell } : null;
      this.mark();
      onCell(heatmap, cell, how);
    };
    this.onEdit = onEdit;  // (tensor name, flat index, value)
    this.views = [];
    this.key = '';
  }

  // Rebuilds the panels when the step, head, batch or trace changes; else
  // only redraws them at the new point of the animation.
  // edit: {baseline, name, index}: the trace before the learner's last edit
  // and that edit, to mark the cell and everything it changed
  show(trace, { head, batch, step, progress, edit = null }) {
    const key = `${trace.id}|${head}|${batch}|${step}|${edit?.baseline.id ?? ''}`;
    const fresh = key !== this.key;
    if (fresh) {
      this.key = key;
      this.pinned = null;
      // a new trace (an edit, a toggle) rebuilds the panels: keep the
      // learner's focus on the matrix of the same name
      const focused = this.views.find((v) => v.heatmap.figure.contains(document.activeElement))?.heatmap;
      this.refocus = focused ? { name: focused.name } : null;
      for (const view of this.views) view.heatmap.remove();
      this.parent.textContent = '';
      const panels = plan(trace, head, batch)[step].filter(Boolean);
      if (panels.length === 0) {
        const note = document.createElement('p');
        note.className = 'note';
        note.textContent = 'This head names no query, key or value: every allowed position gets the same affinity, and it averages x itself.';
        this.parent.append(note);
      }
      const before = edit ? plan(edit.baseline, head, batch)[step].filter(Boolean) : [];
      for (const panel of panels) panel.changes = changesOf(panel, before, edit);
      const named = panels.some((panel) => panel.row !== undefined && panel.row > 0);
      this.views = panels.map((panel, k) => ({
        panel,
        // a named row starts on a line of its own
        heatmap: new Heatmap(named && k && panel.row !== panels[k - 1].row ? lineBreak(this.parent) : this.parent, {
          name: panel.name,
          hook: panel.hook ?? panel.name,
          label: panel.label,
          scale: panel.scale,
          onCell: this.onCell,
          onEdit: panel.tensor && this.onEdit
            ? (_, cell, value) => this.onEdit(panel.tensor.name, panel.tensor.offset + cell.row * panel.matrix.shape[1] + cell.col, value)
            : null,
        }),
      }));
    }
    for (const { panel, heatmap } of this.views) {
      const animated = Object.keys(panel.animation).length > 0;
      if (fresh) {
        heatmap.draw(panel.matrix, { rowLabels: panel.rows, colLabels: panel.cols, ...panel.animation, ...panel.changes, reveal: animated ? progress : 1, row: this.rowOf(panel) });
        if (this.refocus?.name === heatmap.name) {
          heatmap.canvas.focus();
          this.refocus = null;
        }
      } else if (animated && heatmap.options.reveal !== progress) {
        // a frame of the animation: only the animated panels, only their canvas
        heatmap.options.reveal = progress;
        heatmap.render();
      }
    }
    this.at = { trace, head, batch, step, progress };
    this.mark();
  }

  // Light up what the step combines: the animation's current cell or row,
  // or the one the learner points at; the end state keeps the last one.
  mark() {
    if (!this.at) return;
    const { trace, head, batch, step, progress } = this.at;
    const result = this.views.find((v) => v.panel.name === step)?.panel.matrix;
    if (!result) return;
    const [rows, cols] = result.shape;
    const active = this.pinned ?? activeOf(step, progress, rows, cols);
    const marks = marksFor(step, active, trace, head, batch);
    for (const { panel, heatmap } of this.views) heatmap.setMarks(marks[panel.name] ?? null);
  }

  // A step's matrices side by side, at most three to a row (or the rows a
  // step names, as q, k, v with biases does): which share this panel's row,
  // and their columns together.
  rowOf(panel) {
    const index = this.views.findIndex((v) => v.panel === panel);
    const group = panel.row !== undefined ? this.views.filter((v) => v.panel.row === panel.row)
      : this.views.slice(index - (index % 3), index - (index % 3) + 3);
    return { count: group.length, columns: group.reduce((n, v) => n + v.panel.matrix.shape[1], 0) };
  }

  redraw() {
    for (const { heatmap } of this.views) {
      heatmap.layout = null;  // the width may have changed
      heatmap.render();
    }
  }

  heatmaps() {
    return this.views.map((v) => v.heatmap);
  }
}
