// Every head's attention on the probe (layers by heads, click one to select
// it) and the selected head's communication graph, labelled with the tokens
// (a text task's characters); a model with no attention layer says so. On
// a toy task each head's card also shows the task's ideal pattern, dashed
// over its cells, and the core's score of how close the head is to it; a
// text model's heads get one sentence on what to look for in them.
import { Graph } from '../views/graph.js';
import { Heatmap } from '../views/heatmap.js';
import { headTrace } from '../views/head-trace.js';
import { watchWidth } from '../views/observed-width.js';
import { lookFor, scoreNames } from './scores.js';
import { element } from './dom.js';

// A text task's heads on one row as far as they fit: up to four a row with
// labelled cells of 7 px or more; where even two do not fit (a phone), two a
// row without labels (the graph below names the characters) at 5 px or more.
export function fitHeads(width, heads, T) {
  const gap = 10, frame = 8;  // the grid's gap; a figure's padding and border
  const cell = (columns, labelled) => Math.floor(((width - (columns - 1) * gap) / columns - frame - (labelled ? 26 : 10)) / T);
  let columns = Math.min(heads, 4);
  while (columns > 1 && cell(columns, true) < 7) columns--;
  if (columns === 1 && heads > 1 && cell(2, false) >= 5) return { columns: 2, maxCell: cell(2, false), labelled: false };
  return { columns, maxCell: Math.max(5, Math.min(18, cell(columns, true))), labelled: true };
}

export class TrainingHeads {
  // views: the container of both; onSelect({layer, head}): a head was clicked;
  // onOpen(): "Open … in the playground" (shown when canOpen).
  constructor(views, { onSelect, onOpen, canOpen }) {
    this.onSelect = onSelect;
    this.box = element(views, 'section', { className: 'training-heads' });
    element(this.box, 'h3', { className: 'small-heading', textContent: 'Every head’s attention on the probe' });
    // a text model's heads: what to look for in their maps, from the core's scores (scores.js's lookFor)
    this.look = element(this.box, 'p', { className: 'training-look-for', hidden: true });
    this.grid = element(this.box, 'div', { className: 'training-heads-grid' });
    this.none = element(this.box, 'p', { className: 'training-no-heads', hidden: true,
      textContent: 'This model has no attention: each character sees only itself and its position, so it predicts the next one from the current one alone, as a bigram model does.' });
    this.graphBox = element(views, 'section', { className: 'training-graph' });
    this.graphTitle = element(this.graphBox, 'h3', { className: 'small-heading' });
    this.graph = new Graph(element(this.graphBox, 'div'));
    this.open = element(this.graphBox, 'button', { type: 'button', id: 'train-open', hidden: !canOpen });
    this.open.addEventListener('click', () => onOpen());
    this.views = null;
    this.drawn = 0;
    // a window resized while it trains: the heads are laid out again for the
    // new width (a frame of new numbers only repaints cells, at the old size)
    watchWidth(this.grid, () => {
      if (!this.last) return;
      this.sequence = null;
      this.frame ??= requestAnimationFrame(() => {
        this.frame = null;
        if (this.last) this.draw(...this.last);
        if (this.lit) this.light(...this.lit);
      });
    });
  }

  // A new run: its sizes; `characters`: a text task's, whose 32 labels need smaller cells.
  reset({ layers, heads }, characters) {
    Object.assign(this, { layers, heads, characters });
    this.views = null;
    this.last = null;
    this.graphKey = null;
  }

  // shown: an evaluation ({attention: {data}, patterns?, scores?}); labels:
  // the sequence's; selected: {layer, head}; kinds: the scores this task is
  // about ('previous', 'induction'). The same sequence and selection only
  // repaint (a training model's frames must stay light); anything else rebuilds.
  // lazy: while it trains, what is off screen paints when scrolled to.
  draw(shown, labels, selected, kinds = [], { lazy = false } = {}) {
    const { layers, heads } = this;
    const T = labels.length;
    this.last = [shown, labels, selected, kinds];
    this.grid.hidden = !layers;
    this.none.hidden = layers > 0;
    this.graphBox.hidden = !layers;
    if (!layers) this.look.hidden = true;
    if (!layers) return;
    const weightsOf = (k) => ({ shape: [T, T], data: shown.attention.data.slice(k * T * T, (k + 1) * T * T) });
    const sequence = `${labels.join('\u0000')}|${kinds.join()}`;
    // the ideal cells of the task's patterns, as the core found them in this sequence
    const patterns = kinds.length && shown.patterns ? Object.fromEntries(kinds.map((k) => [k, shown.patterns[k]])) : undefined;
    if (!this.views || this.sequence !== sequence) {
      this.sequence = sequence;
      // a text task's characters: as many heads a row as fit (fitHeads)
      this.fit = this.characters ? fitHeads(this.grid.clientWidth || 600, heads, T) : { columns: heads, maxCell: 18, labelled: true };
      this.grid.textContent = '';
      this.grid.style.setProperty('--columns', String(this.fit.columns));
      this.views = [];
      for (let l = 0; l < layers; l++)
        for (let h = 0; h < heads; h++) {
          const view = new Heatmap(this.grid, { name: 'attention', hook: `attention-l${l}h${h}`, label: `layer ${l}, head ${h}`, scale: 'sequential' });
          view.figure.classList.add('training-head');
          view.figure.addEventListener('click', () => this.onSelect({ layer: l, head: h }));
          view.draw(weightsOf(this.views.length), { ...(this.fit.labelled ? { rowLabels: labels, colLabels: labels } : {}), maxCell: this.fit.maxCell, patterns });
          view.score = element(view.figure, 'p', { className: 'head-score' });
          this.views.push(view);
        }
      this.graphKey = null;
    } else this.views.forEach((view, k) => view.update(weightsOf(k), { lazy }));
    this.views.forEach((view, k) => {
      view.figure.classList.toggle('selected', k === selected.layer * heads + selected.head);
      const score = shown.scores?.[k];
      const text = score && kinds.length ? kinds.map((kind) => `${scoreNames[kind]} ${score[kind] === null ? '–' : score[kind].toFixed(2)}`).join(' · ') : '';
      if (view.score.textContent !== text) view.score.textContent = text;
      view.score.hidden = !text;
      view.figure.dataset.scores = score && kinds.length ? kinds.map((kind) => `${kind}:${score[kind] ?? ''}`).join(',') : '';
    });
    // a toy task's cards carry their own scores; a text model's heads get one sentence
    const look = !kinds.length && shown.scores?.length ? lookFor(shown.scores, heads) : '';
    if (this.look.textContent !== look) this.look.textContent = look;
    this.look.hidden = !look;
    const { layer, head } = selected;
    const key = `${layer}.${head}`;
    const weights = weightsOf(layer * heads + head).data;
    if (this.graphKey === key) {
      this.graph.reweigh(0, weights, { lazy });
      return;
    }
    this.graphKey = key;
    this.graphTitle.textContent = `Layer ${layer}, head ${head}: who listens to whom`;
    this.open.textContent = `Open layer ${layer}, head ${head} in the playground`;
    this.graph.show(headTrace(`train-${++this.drawn}`, labels, weights, T), { head: 0, step: 'weights', progress: 1, batch: 0 });
  }

  // Everything a lazy draw left for later, painted now (training stopped).
  paintStale() {
    for (const view of this.views ?? []) view.paintStale();
    this.graph.paintStale();
  }

  // A probe position the learner points at, lit in every head: its row, and
  // the cells of the positions after its earlier copies (null: none lit).
  light(position, cells) {
    this.lit = position === null ? null : [position, cells];
    for (const view of this.views ?? [])
      view.setMarks(position === null ? null : { rows: new Map([[position, 1]]), cells: cells.map(([row, col]) => ({ row, col })) });
  }
}
