// How close each head is to the task's ideal patterns, evaluation by
// evaluation: the core's previous-token and induction scores
// (core/training/head_scores.hpp), one colour per head, one dash per score,
// on the loss chart's steps so the two read together. A marker shows the
// evaluation the timeline is on; a click picks the evaluation nearest to it.

// Okabe–Ito, 3:1 or more on either theme's panel; then the ink.
const colors = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#999999'];
const dashes = { previous: [], induction: [6, 4] };
export const scoreNames = { previous: 'previous-token', induction: 'induction' };

export class ScoreChart {
  // onPick(step): the learner clicked the chart at this step
  constructor(parent, { onPick }) {
    this.figure = document.createElement('figure');
    this.figure.className = 'curves training-scores';
    this.caption = document.createElement('figcaption');
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.legend = document.createElement('ul');
    this.legend.className = 'training-scores-legend';
    this.figure.append(this.caption, this.canvas, this.legend);
    parent.append(this.figure);
    this.canvas.addEventListener('click', (event) => {
      if (!this.geometry) return;
      const { left, plot, steps } = this.geometry;
      const x = event.clientX - this.canvas.getBoundingClientRect().left;
      onPick(Math.round(Math.max(0, Math.min(1, (x - left) / plot)) * steps));
    });
  }

  // evals: [{step, scores: [{previous, induction}]}]; heads: names, layer by
  // layer; kinds: the scores this task is about; selected: a head's index;
  // steps: the run's length; marked: a step or null; width: the loss chart's
  draw({ evals, heads, kinds, selected, steps, marked = null, width }) {
    this.figure.hidden = kinds.length === 0;
    if (this.figure.hidden) return;
    const key = `${heads.join()}|${kinds.join()}|${selected}`;
    if (this.legendKey !== key) {
      this.legendKey = key;
      this.caption.textContent = `How close each head is to ${kinds.map((k) => `a ${scoreNames[k]} head`).join(' or ')} (1: exactly; ${kinds.length > 1 ? 'solid: previous-token, dashed: induction' : 'its weight on the token before'})`;
      this.legend.textContent = '';
      heads.forEach((name, k) => {
        const item = document.createElement('li');
        const swatch = document.createElement('span');
        swatch.className = 'swatch-line';
        swatch.style.setProperty('--swatch', colors[k % colors.length]);
        item.append(swatch, name);
        if (k === selected) item.className = 'selected';
        this.legend.append(item);
      });
    }
    const height = 130;
    const ratio = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.ceil(width * ratio) || this.canvas.height !== Math.ceil(height * ratio)) {
      this.canvas.width = Math.ceil(width * ratio);
      this.canvas.height = Math.ceil(height * ratio);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    const g = this.canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const ink = getComputedStyle(this.canvas).color || '#222';
    const left = 40, right = 40, top = 8, bottom = 22;
    const plot = width - left - right;
    this.geometry = { left, plot, steps };
    const x = (step) => left + (step / Math.max(1, steps)) * plot;
    const y = (score) => top + (1 - Math.max(0, Math.min(1, score))) * (height - top - bottom);
    g.strokeStyle = 'rgba(128,128,128,0.5)';
    g.lineWidth = 1;
    g.strokeRect(left, top, plot, height - top - bottom);
    g.fillStyle = ink;
    g.font = '11px system-ui, sans-serif';
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    g.fillText('1', left - 4, y(1));
    g.fillText('0', left - 4, y(0));
    g.textAlign = 'center';
    g.textBaseline = 'top';
    g.fillText(`${steps} steps`, width - right, height - bottom + 6);
    // the selected head last and thickest, over the others
    const order = heads.map((_, k) => k).sort((a, b) => (a === selected) - (b === selected));
    for (const k of order)
      for (const kind of kinds) {
        g.strokeStyle = colors[k % colors.length];
        g.lineWidth = k === selected ? 2.5 : 1.5;
        g.globalAlpha = k === selected ? 1 : 0.7;
        g.setLineDash(dashes[kind]);
        g.beginPath();
        let started = false;
        for (const e of evals) {
          const s = e.scores?.[k]?.[kind];
          if (s === null || s === undefined) continue;
          if (started) g.lineTo(x(e.step), y(s));
          else g.moveTo(x(e.step), y(s));
          started = true;
        }
        g.stroke();
      }
    g.setLineDash([]);
    g.globalAlpha = 1;
    if (marked !== null) {
      g.strokeStyle = '#d9480f';
      g.lineWidth = 1.5;
      g.beginPath();
      g.moveTo(x(marked), top);
      g.lineTo(x(marked), height - bottom);
      g.stroke();
    }
    const last = evals.at(-1);
    const said = (k) => kinds.map((kind) => `${scoreNames[kind]} ${last?.scores?.[k]?.[kind]?.toFixed(2) ?? 'none'}`).join(', ');
    const label = `Head scores by step; at step ${last?.step ?? 0}: ${heads.map((name, k) => `${name}: ${said(k)}`).join('; ')}`;
    if (this.canvas.getAttribute('aria-label') !== label) this.canvas.setAttribute('aria-label', label);
  }
}
