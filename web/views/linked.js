// The matrices, the graph and the detail panel of one trace, linked: a
// matrix cell lights its edge, a node its row of the weights, and each
// explains itself in the detail panel. The page and the custom element both
// use it; any of the three containers may be left out.
import { clearDetail, showDetail, showNodeDetail, showProductDetail } from './detail.js';
import { Graph } from './graph.js';
import { Stage } from './stage.js';

// Matrices whose cell (i, j) is the edge j → i of the graph.
const pairSteps = ['mask', 'scores', 'scaled', 'masked', 'weights'];

export class LinkedViews {
  // graphLayout, onGraphLayout: the graph's layout and who hears it switched;
  // fitBottom: see Stage; fitHeight: see Graph
  constructor({ matrices = null, graph = null, detail = null, onEdit = null, graphLayout = 'arcs', onGraphLayout = null,
    fitBottom = () => null, fitHeight = () => null }) {
    this.detail = detail;
    this.stage = matrices ? new Stage(matrices, { onCell: (h, c) => this.onCell(h, c), onEdit, fitBottom }) : null;
    this.graph = graph ? new Graph(graph, { onNode: (n) => this.onNode(n), layout: graphLayout, onLayout: onGraphLayout, fitHeight }) : null;
    if (detail) clearDetail(detail);
  }

  // view: {head, batch, step, progress}
  show(trace, view) {
    this.trace = trace;
    this.view = view;
    this.stage?.show(trace, view);
    this.graph?.show(trace, view);
  }

  redraw() {
    this.stage?.redraw();
    this.graph?.render();
  }

  heatmaps() {
    return this.stage?.heatmaps() ?? [];
  }

  clear() {
    if (this.detail) clearDetail(this.detail);
  }

  // What hovering lights, set from outside (an element's highlight="…"):
  // a row lights node `row` and its row of every pair matrix; a cell (row,
  // col) outlines that cell in the step's matrix and lights edge col → row.
  highlight({ batch, row, col }) {
    if (col === null || col === undefined) {
      const pool = this.graph?.model?.pools.findIndex((p) => p.batch === batch) ?? -1;
      if (pool >= 0) this.graph.pick({ pool, node: row });  // tells onNode, as a hover does
      else this.onNode({ batch, node: row });
      return;
    }
    const matrices = this.heatmaps().filter((h) => pairSteps.includes(h.name));
    const heatmap = matrices.find((h) => h.name === this.view.step) ?? matrices.at(-1);
    if (!heatmap) {
      this.graph?.highlightEdge(batch, row, col);
      return;
    }
    heatmap.focus = { row, col };
    heatmap.drawOverlay();
    this.onCell(heatmap, heatmap.focus);  // the edge, and the cell's story in the detail panel
  }

  onCell(heatmap, cell) {
    for (const other of this.heatmaps())
      if (other !== heatmap && other.focus && other.canvas.getRootNode().activeElement !== other.canvas) {
        other.focus = null;
        other.drawOverlay();
      }
    const { head, batch } = this.view;
    // the out step's weights row and products are row i = the row being built
    const i = this.stage?.outRowShown ?? 0;
    if (cell && heatmap.name === 'weights-row') this.graph?.highlightEdge(batch, i, cell.row);
    else this.graph?.highlightEdge(batch, cell && pairSteps.includes(heatmap.name) ? cell.row : null, cell?.col);
    if (!this.detail) return;
    if (!cell || !this.trace) {
      clearDetail(this.detail);
      return;
    }
    const s = this.trace.summary;
    if (heatmap.name === 'weights-row' || heatmap.name === 'products') {
      const tokens = s.tokens[batch], context = s.context_tokens[batch];
      const where = { row: i, rowLabel: tokens?.[i] ?? String(i), colLabel: context?.[cell.row] ?? String(cell.row) };
      if (heatmap.name === 'weights-row') {
        showDetail(this.detail, { name: 'weights', label: 'weights', ...where, col: cell.row, value: heatmap.matrix.data[cell.row],
          explanation: this.trace.explain(head, 'weights', batch, i, cell.row), cross: s.cross });
      } else {
        showProductDetail(this.detail, { ...where, j: cell.row, c: cell.col, explanation: this.trace.explain(head, 'out', batch, i, cell.col) });
      }
      return;
    }
    const { matrix, options } = heatmap;
    const explanation = s.heads[head].steps[heatmap.name]
      ? this.trace.explain(head, heatmap.name, batch, cell.row, cell.col)
      : null;
    showDetail(this.detail, {
      name: heatmap.name,
      label: heatmap.label.split(' ')[0],
      row: cell.row,
      col: cell.col,
      value: matrix.data[cell.row * matrix.shape[1] + cell.col],
      rowLabel: options.rowLabels?.[cell.row] ?? String(cell.row),
      colLabel: options.colLabels?.[cell.col] ?? String(cell.col),
      explanation,
      cross: s.cross,
    });
  }

  onNode(node) {
    for (const heatmap of this.heatmaps())
      if (pairSteps.includes(heatmap.name)) heatmap.setHighlightRow(node && node.batch === this.view.batch ? node.node : null);
    if (!this.detail) return;
    if (!node) clearDetail(this.detail);
    else if (!node.pool) return;  // a highlight with no graph: nothing more to tell
    else showNodeDetail(this.detail, node, this.trace.summary, this.trace.keep);
  }
}
