// How close each head is to the task's ideal patterns, evaluation by
// evaluation: the core's previous-token and induction scores
// (core/transformer/head_scores.hpp), one colour per head, one dash per score,
// on the loss chart's steps so the two read together. A marker shows the
// evaluation the timeline is on; a click picks the evaluation nearest to it.
import { clearFrom } from '../views/head-role.js';
import { margin, StepChart } from './step-chart.js';
import { element } from './dom.js';

// Okabe–Ito, 3:1 or more on either theme's panel; then the ink.
const colors = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#999999'];
const dashes = { previous: [], induction: [6, 4] };
export const scoreNames = { previous: 'previous-token', induction: 'induction' };

export class ScoreChart extends StepChart {
  // onPick(step): the learner clicked the chart at this step
  constructor(parent, { onPick }) {
    super(parent, 'curves training-scores', onPick);
    this.legend = element(this.figure, 'ul', { className: 'training-scores-legend' });
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
      this.legend.textContent = '';
      heads.forEach((name, k) => {
        const item = element(this.legend, 'li', { className: k === selected ? 'selected' : null });
        element(item, 'span', { className: 'swatch-line' }).style.setProperty('--swatch', colors[k % colors.length]);
        item.append(name);
      });
    }
    const height = 130, top = 8, bottom = 22;
    const last = evals.at(-1);
    const said = (k) => kinds.map((kind) => `${scoreNames[kind]} ${last?.scores?.[k]?.[kind]?.toFixed(2) ?? 'none'}`).join(', ');
    const { g, x } = this.begin({ width, height, top, bottom, steps,
      caption: `How close each head is to ${kinds.map((k) => `${k === 'induction' ? 'an' : 'a'} ${scoreNames[k]} head`).join(' or ')} (1: exactly; ${kinds.length > 1 ? 'solid: previous-token, dashed: induction' : 'its weight on the token before'})`,
      label: `Head scores by step; at step ${last?.step ?? 0}: ${heads.map((name, k) => `${name}: ${said(k)}`).join('; ')}` });
    const y = (score) => top + (1 - Math.max(0, Math.min(1, score))) * (height - top - bottom);
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    g.fillText('1', margin.left - 4, y(1));
    g.fillText('0', margin.left - 4, y(0));
    g.textAlign = 'center';
    g.textBaseline = 'top';
    g.fillText(`${steps} steps`, width - margin.right, height - bottom + 6);
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
    this.marker(g, marked === null ? null : x(marked));
  }
}

// A text model's heads, in one sentence: what to look for in their maps.
// The head with the largest previous-token score (the core's, on the probe)
// is named when it puts half its weight or more (views/head-role.js) on
// the character just before: the bright line just under the diagonal.
// scores: [{previous}], layer by layer; heads: a layer's count. A choice among the core's numbers.
export function lookFor(scores, heads) {
  const named = (k) => `layer ${Math.floor(k / heads)}, head ${k % heads}`;
  const order = scores.map((s, k) => k).filter((k) => Number.isFinite(scores[k]?.previous))
    .sort((a, b) => scores[b].previous - scores[a].previous || a - b);
  if (!order.length) return '';
  const [top] = order;
  const score = scores[top].previous.toFixed(2);
  if (scores[top].previous < clearFrom)
    return `What to look for: a head that learns to look at the character just before draws a bright line just under the diagonal; no head puts half its weight there on this probe (the most: ${named(top)}, previous-token score ${score}).`;
  const also = order.slice(1).filter((k) => scores[k].previous >= clearFrom)
    .map((k) => `${named(k)}: ${scores[k].previous.toFixed(2)}`);
  const rest = order.length - 1 - also.length;
  return `What to look for: ${named(top)}’s bright line just under the diagonal, a previous-token head: each character puts ${score} of its weight, on average, on the one before it`
    + `${also.length ? ` (${also.join('; ')})` : ''}${rest ? `; the other ${rest === 1 ? 'head puts' : 'heads put'} less than half there` : ''}.`;
}
