// view="attention": GIVEN attention weights (attention-data.js read them
// from the JSON inside the element) drawn with the views the Model view
// uses: every layer × head as thumbnails on one scale (views/model-grid.js),
// the selected head's weights as a heatmap and its communication graph,
// linked as elsewhere: a cell lights its edge, a node its row in the heatmap
// and in every thumbnail, and a line says the number under the pointer or
// the keys. Nothing is computed here: the weights are drawn as given. Loaded
// only by figures with view="attention": no engine, no wasm. attentionFigure()
// is what the element asks for.
import { Graph } from '../views/graph.js';
import { headTrace } from '../views/head-trace.js';
import { Heatmap } from '../views/heatmap.js';
import { HeadGrid } from '../views/model-grid.js';
import { formatNumber, tokenText } from '../views/format.js';
import { touchScreen } from '../views/touch.js';
import { readAttention } from './attention-data.js';
import { make } from './figure.js';
import { create } from '../views/dom.js';

const quoted = (t) => `“${tokenText(t)}”`;

// The figure of an element (its JSON child, its layer, head and highlight
// attributes over the data's own; s: its settings): {root, show() → the
// view drawn}, or {problem}: one line naming what is wrong.
export function attentionFigure(element, s) {
  let data;
  try {
    data = readAttention(element.querySelector(':scope > script[type="application/json"]')?.textContent ?? '');
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { problem: error.message };
  }
  const [L, H, T] = data.shape;
  const selected = { layer: element.hasAttribute('layer') ? s.layer : data.layer, head: element.hasAttribute('head') ? s.head : data.head };
  if (selected.layer >= L) return { problem: `layer ${selected.layer} is beyond the data's ${L} layer${L > 1 ? 's' : ''}` };
  if (selected.head >= H) return { problem: `head ${selected.head} is beyond the data's ${H} head${H > 1 ? 's' : ''}` };
  const h = s.highlight;
  if (h && (h.row >= T || (h.col ?? 0) >= T)) return { problem: `highlight: ${h.row >= T ? `row ${h.row}` : `column ${h.col}`} is beyond the data's ${T} tokens` };
  const root = create('div', { className: 'root', attrs: { part: 'root' } });
  make(root, 'p', 'title', data.title ?? 'Attention weights');
  const view = new AttentionView(root);
  return {
    root,
    show() {  // once root is in the element: the views measure their width
      view.show(data, selected);
      if (h) view.highlight(h);
      return view;
    },
  };
}

export class AttentionView {
  // root: the figure's .root, under its title
  constructor(root) {
    this.box = make(root, 'div', 'attention-view');
    this.note = make(this.box, 'p', 'note attention-note');
    this.note.hidden = true;
    const body = make(this.box, 'div', 'attention-body');
    this.gridPanel = make(body, 'section', 'attention-grid-panel');
    this.gridHeading = make(this.gridPanel, 'h3', 'small-heading');
    this.grid = new HeadGrid(this.gridPanel, { onSelect: (s) => this.select(s) });
    const headPanel = make(body, 'section', 'attention-head-panel');
    this.headTitle = make(headPanel, 'h3', 'small-heading');
    const views = make(headPanel, 'div', 'attention-head-views');
    this.heatmapBox = make(views, 'div', 'attention-heatmap');
    this.heatmap = new Heatmap(this.heatmapBox, { name: 'weights', label: 'weights', scale: 'sequential', onCell: (_, cell) => this.onCell(cell) });
    this.graph = new Graph(make(views, 'div', 'attention-graph'), { onNode: (node) => this.picking || this.onNode(node) });
    // the number under the pointer or the keys, for every reader
    this.readout = make(headPanel, 'p', 'attention-readout');
    this.readout.setAttribute('aria-live', 'polite');
  }

  // data: readAttention's answer; selected: {layer, head}
  show(data, selected) {
    this.data = data;
    const [L, H, T] = data.shape;
    this.selected = selected;
    this.note.textContent = data.note;
    this.note.hidden = !data.note;
    this.gridPanel.hidden = L * H === 1;
    this.gridHeading.textContent = `Every head: ${L > 1 ? `${L} layers × ` : ''}${H} head${H > 1 ? 's' : ''}`;
    this.box.dataset.shape = data.shape.join(',');
    this.box.dataset.causal = data.causal ? '1' : '0';
    if (L * H > 1) {
      this.grid.draw({ shape: data.shape, data: data.data }, selected, { causal: data.causal });
      this.grid.grid.style.setProperty('--layers', String(L));  // element.css: the layers share a height
    }
    this.graphId = `attention:${data.causal ? '' : 'both:'}${T}:${data.tokens.join('\u0000')}`;
    this.drawHead();
  }

  select(selected) {
    this.selected = selected;
    this.drawHead();
  }

  // One head's T × T weights: a view of the one array, nothing copied.
  weights() {
    const { layer, head } = this.selected;
    const [, H, T] = this.data.shape;
    const at = (layer * H + head) * T * T;
    return this.data.data.subarray(at, at + T * T);
  }

  drawHead() {
    const { layer, head } = this.selected;
    const [L, H, T] = this.data.shape;
    const weights = this.weights();
    this.headTitle.textContent = `${this.headName()}: who listens to whom`;
    this.box.dataset.layer = String(layer);
    this.box.dataset.head = String(head);
    const labels = this.data.tokens;
    this.drawHeatmap();
    // the same tokens keep the graph's layout: another head only reweighs its edges
    this.graph.show(headTrace(this.graphId, labels, weights, T, { causal: this.data.causal, unnormalized: this.data.off.rows > 0 }), { head: 0, step: 'weights', progress: 1, batch: 0 });
    if (L * H > 1) this.grid.select(this.selected);
    this.onCell(this.heatmap.focus);
  }

  // A cell under the pointer or the keys: its edge in the graph, its number in words.
  onCell(cell) {
    this.graph.highlightEdge(0, cell ? cell.row : null, cell?.col);
    if (!cell) {
      this.say(null, touchScreen() ? 'Tap a cell or a token.' : 'Point at a cell or a token, or focus the matrix or the graph and use the arrow keys.');
      return;
    }
    const T = this.data.shape[2];
    const value = this.weights()[cell.row * T + cell.col];
    const { tokens } = this.data;
    this.say({ row: cell.row, col: cell.col, value }, `${quoted(tokens[cell.row])} (row ${cell.row}) listens to ${quoted(tokens[cell.col])} (column ${cell.col}) with weight ${formatNumber(value, 4)}`);
  }

  // A node of the graph: its row in the heatmap and in every thumbnail.
  onNode(node) {
    const t = node ? node.node : null;
    this.heatmap.setHighlightRow(t);
    if (this.data.shape[0] * this.data.shape[1] > 1) this.grid.markRow(t);
    if (t !== null) this.say({ row: t }, `${quoted(this.data.tokens[t])} (row ${t}): its incoming edges, and its row in every head`);
  }

  say(where, text) {
    this.readout.textContent = text;
    for (const key of ['row', 'col', 'value']) {
      if (where && where[key] !== undefined) this.readout.dataset[key] = String(where[key]);
      else delete this.readout.dataset[key];
    }
  }

  // highlight="3" or "3,1" (within the tokens): lit as hovering lights it
  highlight({ row, col }) {
    if (col === null) {
      this.picking = true;
      try {
        this.graph.pick({ pool: 0, node: row });
      } finally {
        this.picking = false;
      }
      this.onNode({ node: row });
      return;
    }
    this.heatmap.focus = { row, col };
    this.heatmap.drawOverlay();
    this.onCell(this.heatmap.focus);
  }

  // the element's width or theme changed: its canvases painted again
  redraw() {
    if (!this.data) return;
    this.drawHeatmap();
    this.graph.render();
  }

  headName() {
    const { layer, head } = this.selected;
    return this.data.axes === 4 ? `Layer ${layer}, head ${head}` : this.data.axes === 3 ? `Head ${head}` : 'The weights';
  }

  drawHeatmap() {
    const T = this.data.shape[2];
    const labels = this.data.tokens;
    this.heatmap.draw({ shape: [T, T], data: this.weights() }, { rowLabels: labels, colLabels: labels });
    // its name after every draw: a resize's redraw gave it back the heatmap's own ("weights, 5 × 5 matrix")
    this.heatmap.canvas.setAttribute('aria-label', `${this.headName()}: the weights, ${T} × ${T}, a row per token listening, a column per token heard; arrow keys move between cells`);
  }
}
