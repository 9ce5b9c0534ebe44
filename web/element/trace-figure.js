// A trace's figure (view="matrices", "graph" or "both"): its title, the
// transport unless controls="none", the matrices and/or the graph, the
// detail panel with controls="full", and the footer. The element mounts it
// and plays the trace through its views.
import { footer, make } from './figure.js';
import { buildTransport } from './transport.js';
import { LinkedViews } from '../views/linked.js';
import { create } from '../views/dom.js';

// s: the element's settings; summary: the trace's; steps, player, choose
// (a head or batch element picked): the transport's; link: "Open in the
// playground"'s. → {root, views, transport (null without controls)}.
export function traceFigure(s, summary, { steps, player, choose, link }) {
  const root = create('div', { className: 'root', attrs: { part: 'root' } });
  make(root, 'p', 'title', summary.title || summary.id);
  const transport = s.controls === 'none' ? null : buildTransport(root, { s, summary, steps, player, choose });
  const body = make(root, 'div', 'body');
  const matrices = s.view !== 'graph' ? make(body, 'div', 'matrices') : null;
  const graph = s.view !== 'matrices' ? make(body, 'div', 'graph-box') : null;
  const detail = s.controls === 'full' ? make(root, 'div', 'detail') : null;
  if (detail) detail.setAttribute('aria-live', 'polite');
  footer(root, s, link);
  const views = new LinkedViews({ matrices, graph, detail, graphLayout: s.layout });
  return { root, views, transport };
}
