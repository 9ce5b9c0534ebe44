// Attention as a directed graph: one node per token, each batch element its
// own pool, an edge j → i wherever i may attend to j, as thick and opaque as
// weights[i, j], with an arrowhead into i, the node that receives. The steps
// tell its story: before the mask every token could talk to every other; at
// `masked` the mask's edges fade to dashed ghosts; at `weights` the edges take
// their weight; at `out` the values travel along the edges of the row being
// built and land in its node. Drawn on a canvas, edges bucketed by strength
// so T = 64 stays fluid; graph-svg.js writes the same picture as SVG.

import { resize } from './heatmap.js';
import { buttonGroup } from './button-group.js';
import * as focus from './graph-focus.js';
import { arcsWidth, columnsPerRow, layoutFor, layoutNames } from './graph-layout.js';
import * as paint from './graph-paint.js';
import { drawEdgeLabels, drawEdges } from './graph-strokes.js';
import { graphModel, poolTitle, scoresOf } from './graph-model.js';
import { graphKey, setCaption } from './graph-words.js';
import { observedWidth, watchWidth } from './observed-width.js';
import { offScreen } from './on-screen.js';
import { fontWidth } from './text-width.js';
import { create, element } from './dom.js';

export { edgeAlpha } from './graph-strokes.js';
export { graphModel } from './graph-model.js';

export const defaults = {
  width: 460,     // when the figure's container cannot say
  maxPools: 8,
  edgeColor: [11, 99, 196],
  scoreUp: [178, 24, 43],    // RdBu's ends: a score above 0, and below
  scoreDown: [33, 102, 172],
  highlight: paint.highlight,
  removed: '#d9480f',  // the mask's edges, fading out (the SVG's; graph-strokes.js draws the canvas)
};

// past this many queries the graph opens on one query's incoming edges,
// and at weights and out it fades the edges under fadeUnder (the bar says so)
export const focusFrom = 9;
export const fadeUnder = 0.05;

// Whether a step's picture changes between two points of its animation:
// before the mask nothing moves; softmax's edges move once it normalizes.
function moving(step, from, to) {
  if (step === 'masked' || step === 'out') return true;
  if (step === 'weights') return Math.max(from, to) > 0.5;
  return false;
}

export class Graph {
  // layout: 'arcs' | 'columns'; onLayout(name): the learner switched it (the
  // switch is offered when onLayout is given).
  // fitHeight(): the px the figure may take (the page: its view under the
  // sticky player), or null: then it shows up to maxPools pools
  constructor(parent, { onNode = () => {}, layout = 'arcs', onLayout = null, fitHeight = () => null } = {}) {
    this.onNode = onNode;
    this.fitHeight = fitHeight;
    this.layoutName = layoutNames.includes(layout) ? layout : 'arcs';
    this.edgeMode = null;  // 'all' | 'one' once the learner picks; else by T (focusFrom)
    this.query = null;     // the query whose incoming edges 'one' shows
    this.figure = create('figure', { className: 'graph' });
    this.figure.dataset.view = 'graph';  // a public hook (README.md, "Hooks")
    this.figure.dataset.layout = this.layoutName;
    this.caption = element(this.figure, 'figcaption');
    const bar = element(this.figure, 'div', { className: 'graph-bar' });
    if (onLayout) bar.append(this.switcher(onLayout));
    bar.append(this.modeSwitch());
    this.fadeNote = element(bar, 'span', { className: 'graph-fade' });  // not .graph-key: that is the key under the graph
    // the canvas alone scrolls sideways (arcsWidth)
    this.scroller = element(this.figure, 'div', { className: 'graph-scroll' });
    this.canvas = element(this.scroller, 'canvas', { tabIndex: 0, attrs: { role: 'img' } });
    this.key = element(this.figure, 'p', { className: 'graph-key' });
    parent.append(this.figure);
    this.focus = null;  // {pool, node}
    this.edgeFocus = null;  // {pool, from, to}
    this.canvas.addEventListener('mousemove', (e) => this.pick(this.nodeAt(e)));
    this.canvas.addEventListener('mouseleave', () => this.pick(null));
    // a click picks the query whose edges 'One query' shows
    this.canvas.addEventListener('click', (e) => {
      const node = this.nodeAt(e);
      if (node) this.setQuery(node.node);
    });
    this.canvas.addEventListener('focus', () => this.pick(this.focus ?? { pool: 0, node: this.mode() === 'one' ? this.query ?? 0 : 0 }));
    this.canvas.addEventListener('blur', () => this.pick(null));
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    // another width (a window resized, a phone turned): laid out again for it,
    // in the next frame (painting in the observer's report would resize it again)
    watchWidth(parent, (width) => width && requestAnimationFrame(() => this.render()));
  }

  // Two buttons: "Arcs" and "From → to".
  switcher(onLayout) {
    const { group, buttons } = buttonGroup('graph-layouts', 'Graph layout', 'layout', [['arcs', 'Arcs'], ['columns', 'From → to']], (name) => {
      this.setLayout(name);
      onLayout(name);
    });
    this.layoutButtons = buttons;
    this.markLayout();
    return group;
  }

  // Two buttons: every edge, or the incoming edges of one query, labelled
  // with their numbers (the default past focusFrom queries).
  modeSwitch() {
    const { group, buttons } = buttonGroup('graph-layouts graph-modes', 'Edges shown', 'mode', [['all', 'All edges'], ['one', 'One query']], (name) => {
      this.edgeMode = name;
      this.markMode();
      this.render();
    });
    this.modeButtons = buttons;
    return group;
  }

  // 'all' or 'one': the learner's choice, else one query past focusFrom.
  mode() {
    return this.edgeMode ?? (this.model && this.model.tq >= focusFrom ? 'one' : 'all');
  }

  markMode() {
    const mode = this.mode();
    for (const b of this.modeButtons ?? []) b.setAttribute('aria-pressed', String(b.dataset.mode === mode));
    this.figure.dataset.edgeMode = mode;
  }

  markLayout() {
    for (const b of this.layoutButtons ?? []) b.setAttribute('aria-pressed', String(b.dataset.layout === this.layoutName));
  }

  setLayout(name) {
    if (!layoutNames.includes(name) || name === this.layoutName) return;
    this.layoutName = name;
    this.figure.dataset.layout = name;
    this.markLayout();
    this.built = null;  // the columns show fewer pools side by side
    if (this.shown) this.show(...this.shown);
  }

  // New weights for pool `pool` of the graph shown (a model that trains):
  // its edges painted again on the layout it has.
  // lazy: off screen, they are painted when it comes on screen.
  reweigh(pool, weights, { lazy = false } = {}) {
    if (!this.model?.pools[pool]) return;
    this.model.pools[pool].weights = weights;
    this.stale = lazy && offScreen(this.figure, () => this.paintStale());
    if (!this.stale) this.reweighed();
  }

  // A render of new weights on the layout the graph has.
  reweighed() {
    this.reweighing = true;
    try {
      this.render();
    } finally {
      this.reweighing = false;
    }
  }

  // Weights a reweigh() kept while off screen, painted now.
  paintStale() {
    if (!this.stale) return;
    this.stale = false;
    this.reweighed();
  }

  // trace, {head, step, progress, batch}: builds the model, then draws it.
  // width: the container's px, read by a caller before its writes (else read here).
  // query: the query 'One query' opens on, when the caller picks one (new tokens: the last).
  show(trace, view, { width, query } = {}) {
    this.given = width;
    if (query !== undefined) this.query = query;
    try {
      this.showAt(trace, view);
    } finally {
      this.given = undefined;
    }
  }

  showAt(trace, view) {
    const before = this.shown?.[0];
    this.shown = [trace, view];
    const { head, step, progress, batch } = view;
    // The pools and their edges depend on the trace's id (its tokens), head,
    // batch and layout only; a step or a frame of the animation just redraws
    // them, and another trace of the same id (another head of a model on the
    // same text) just brings its numbers.
    const structure = `${trace.id}|${head}|${batch}|${this.layoutName}`;
    if (structure === this.built && this.model && trace !== before) {
      for (const pool of this.model.pools) Object.assign(pool, { weights: trace.step(head, 'weights', pool.batch).data, out: trace.step(head, 'out', pool.batch) });
      Object.assign(this.model, { step, progress });
      this.model.scores = scoresOf(trace, this.model, head, step);
      this.reweighed();
      return;
    }
    if (structure === this.built && this.model) {
      if (step === this.model.step && (progress === this.model.progress || !moving(step, this.model.progress, progress))) return;
      if (step !== this.model.step) this.model.scores = scoresOf(trace, this.model, head, step);
      Object.assign(this.model, { step, progress });
      this.render();
      return;
    }
    this.built = structure;
    const s = trace.summary;
    const width = this.width();
    const fit = this.layoutName === 'columns' ? columnsPerRow(width) : defaults.maxPools;
    let pools = Math.min(s.batch, fit);
    const span = (n) => Math.min(Math.max(0, batch - Math.floor(n / 2)), s.batch - n);
    // as many pools as the first screen holds (the caption says which; the batch picker moves them)
    const height = this.fitHeight();
    if (height !== null) {
      setCaption(this.caption, s, span(pools), pools - 1);  // as long as it will be, so the canvas sits where it will
      const room = height - (this.canvas.getBoundingClientRect().top - this.figure.getBoundingClientRect().top);
      const textWidth = (t) => t.length * 6.5;  // an estimate: only the heights matter here
      while (pools > 1 && layoutFor(this.layoutName, graphModel(trace, { head, step, batch }, span(pools), pools), width, textWidth).height > room) pools--;
    }
    const first = span(pools);
    this.model = graphModel(trace, { head, step, progress, batch }, first, pools);
    this.model.scores = scoresOf(trace, this.model, head, step);
    if (this.query === null || this.query >= this.model.tq) this.query = this.model.tq - 1;  // the last query hears the most
    this.markMode();
    const kept = Array.prototype.reduce.call(this.model.keep, (n, k) => n + (k ? 1 : 0), 0);
    this.figure.dataset.edges = this.model.pools.map(() => kept).join(',');
    this.figure.dataset.pools = String(s.batch);
    this.figure.dataset.shownPools = this.model.pools.map((p) => p.batch).join(',');
    setCaption(this.caption, s, first, pools);
    this.canvas.setAttribute('aria-label',
      `Directed graph of attention, ${s.batch > 1 ? `${pools} pool${pools > 1 ? 's' : ''} of ` : ''}${s.query_length} nodes; ${kept} edges${s.batch > 1 ? ' per pool' : ''}, each pointing to the node that receives. Arrow keys move between nodes.`);
    this.render();
  }

  // fresh: read now, not as kept since the last read (observed-width.js): a
  // new structure's DOM may have moved since; new weights on the same one have not
  width({ fresh = true } = {}) {
    if (this.given !== undefined) return Math.max(220, this.given || defaults.width);
    const parent = this.figure.parentElement;
    return Math.max(220, (parent && observedWidth(parent, { fresh })) || defaults.width);
  }

  // The query whose incoming edges 'One query' shows.
  setQuery(node) {
    if (!this.model || node < 0 || node >= this.model.tq) return;
    this.query = node;
    this.render();
  }

  // The layout and every edge's curve, kept until the width or the model
  // changes: a frame of the animation only paints.
  layout() {
    // only new weights (reweigh): the width as kept, which forces no layout
    const box = this.width({ fresh: !this.reweighing });
    const width = this.layoutName === 'arcs' ? arcsWidth(this.model, box) : box;
    if (this.L && this.L.model === this.model && this.L.width === width && this.L.name === this.layoutName) return this.L;
    const L = layoutFor(this.layoutName, this.model, width, (t) => fontWidth('11px system-ui, sans-serif', t));
    const { tq, tkv, pools } = this.model;
    const curves = pools.map((_, p) => Array.from({ length: tq * tkv }, (__, n) => L.curve(p, n % tkv, Math.floor(n / tkv))));
    return { ...L, model: this.model, curve: (p, j, i) => curves[p][i * tkv + j] };
  }

  render() {
    if (!this.model) return;
    this.stale = false;
    const L = (this.L = this.layout());
    const key = graphKey(this.model, { columns: this.layoutName === 'columns', mode: this.mode() });
    if (this.key.textContent !== key) this.key.textContent = key;
    const ratio = this.exportRatio ?? (window.devicePixelRatio || 1);  // exportRatio: see export/picture.js snapshot()
    resize(this.canvas, L.width, L.height, ratio);
    const g = this.canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, L.width, L.height);
    const style = getComputedStyle(this.canvas);
    const ink = style.color || '#222';
    // the theme's edge colour (--edge: "r g b"); a detached export canvas has none: the light one
    const themed = style.getPropertyValue('--edge').trim().split(/\s+/).map(Number);
    const [r, gr, b] = themed.length === 3 && themed.every(Number.isFinite) ? themed : defaults.edgeColor;
    const rgb = (name, fallback) => {
      const v = style.getPropertyValue(name).trim().split(/\s+/).map(Number);
      return v.length === 3 && v.every(Number.isFinite) ? v : fallback;
    };
    const up = rgb('--score-up', defaults.scoreUp), down = rgb('--score-down', defaults.scoreDown);
    const { pools, current, tq, tkv, step, progress } = this.model;
    const dense = Math.max(tq, tkv) > 16;
    const weighted = step === 'out' || (step === 'weights' && progress >= 0.5);
    // strokes as thick as the nodes are far apart: T = 64 must not blot
    const thickness = Math.max(0.35, Math.min(1, L.spacing / 28));
    const fade = this.fadeAt(weighted);
    let fadedShown = 0;
    let removedShown = 0;
    let liveShown = 0;
    let labelsShown = 0;
    let numbersShown = 0;
    let numbersDrift = 0;
    let shownQuery = null;
    const one = this.mode() === 'one';
    this.markMode();
    const panel = style.getPropertyValue('--panel').trim() || '#fff';
    const muted = style.getPropertyValue('--muted').trim() || ink;
    // wider than its box (arcsWidth): new tokens open it on the query shown,
    // and no number straddles the box's edges there (cuts)
    let scrollTo = null;
    const opened = one ? (this.focus?.pool === 0 ? this.focus.node : null) ?? this.query : null;
    if (opened !== null && this.scrolledFor !== this.built) {
      this.scrolledFor = this.built;
      const box = this.width({ fresh: false });
      const chip = L.width > box + 1 ? L.chips(0).find((c) => c.k === opened && c.role !== 'from') : null;
      if (chip) scrollTo = Math.max(0, Math.min(L.width - box, chip.x + chip.w / 2 - box / 2));
      this.cuts = chip ? [scrollTo, scrollTo + box] : [];
    }

    pools.forEach((pool, p) => {
      const frame = L.pools[p];
      if (pools.length > 1) {
        g.strokeStyle = pool.batch === current ? ink : 'rgba(128,128,128,0.35)';
        g.lineWidth = pool.batch === current ? 1.5 : 1;
        g.setLineDash(pool.batch === current ? [] : [4, 4]);
        g.strokeRect(frame.x + 2.5, frame.y + 2.5, frame.w - 5, frame.h - 5);
        g.setLineDash([]);
      }
      g.fillStyle = ink;
      g.font = '11px system-ui, sans-serif';
      g.textAlign = 'left';
      g.textBaseline = 'top';
      g.fillText(poolTitle(this.model, pool), frame.x + 8, frame.y + 6);
      if (L.heads) {
        const h = L.heads(p);
        g.fillStyle = style.getPropertyValue('--muted').trim() || ink;
        g.fillText('from', h.from.x, h.from.y);
        g.fillText('to →', h.to.x, h.to.y);
      }

      const focus = this.focus?.pool === p ? this.focus.node : null;
      const edgeFocus = this.edgeFocus?.pool === p ? this.edgeFocus : null;
      // one query: the node pointed at, else the one picked
      const query = one ? focus ?? this.query : null;
      const drawn = drawEdges(this.model, g, L, p, { query, focus, edgeFocus, edge: [r, gr, b], up, down, dense, weighted, thickness, fade });
      if (p === 0) {
        liveShown = drawn.live;
        fadedShown = drawn.faded;
        removedShown = drawn.removed;
        shownQuery = query;
      }
      if (step === 'out') paint.drawMessages(this, g, L, p);
      const labels = paint.drawChips(this, g, L, p, pool, ink, one ? focus ?? this.query : focus);
      if (p === 0) labelsShown = labels;
      if (L.glyphs && step === 'out' && pool.out) paint.drawOutVectors(this, g, L, p, pool.out);
      const numbers = drawEdgeLabels(g, L, p, drawn.labelled, { panel, ink, muted, low: L.glyphs && step === 'out' ? 34 : 0, cuts: this.cuts });
      if (p === 0) [numbersShown, numbersDrift] = [numbers.shown, numbers.drift];
    });
    // hooks for tests and scripts, for the first pool shown: the edges drawn
    // live and fading, and how many token labels could be printed
    this.figure.dataset.liveEdges = String(liveShown);
    this.figure.dataset.removedEdges = String(removedShown);
    this.figure.dataset.faded = String(fadedShown);
    // the threshold's line keeps its place while there are many tokens
    this.fadeNote.hidden = Math.max(tq, tkv) < focusFrom;
    this.fadeNote.style.visibility = fade ? '' : 'hidden';
    const note = `${fadedShown} edge${fadedShown === 1 ? '' : 's'} under ${fadeUnder} faded`;
    if (this.fadeNote.textContent !== note) this.fadeNote.textContent = note;
    this.figure.dataset.labels = String(labelsShown);
    this.figure.dataset.step = step;
    // one query's edges: which query, and how many of its numbers are printed
    if (shownQuery === null) delete this.figure.dataset.query;
    else this.figure.dataset.query = String(shownQuery);
    this.figure.dataset.edgeNumbers = String(numbersShown);
    this.figure.dataset.edgeNumberDrift = String(Math.round(numbersDrift));  // how far across from its sender a number sits
    if (scrollTo !== null) this.scroller.scrollLeft = scrollTo;
  }

  // The weight under which edges fade: with many tokens, once edges are weighted.
  fadeAt(weighted) {
    return weighted && Math.max(this.model.tq, this.model.tkv) >= focusFrom ? fadeUnder : 0;
  }

  // The learner's focus: graph-focus.js
  nodeAt(event) { return focus.nodeAt(this, event); }
  pick(target) { focus.pick(this, target); }
  onKey(event) { focus.onKey(this, event); }
  highlightEdge(batch, to, from) { focus.highlightEdge(this, batch, to, from); }

  // The picture as an SVG group for pictureSVG: the step's end state.
  async toSVGPart() {
    const { graphSVG } = await import('./graph-svg.js');  // only an SVG export needs it
    const L = this.L ?? this.layout();
    const fade = this.fadeAt(['weights', 'out'].includes(this.model.step));
    return { svg: graphSVG(this.model, L, defaults, { query: this.mode() === 'one' ? this.query : null, fade, cuts: this.cuts, measure: (t) => fontWidth('10.5px system-ui, sans-serif', t) }), width: L.width, height: L.height };
  }

  remove() {
    this.figure.remove();
  }
}
