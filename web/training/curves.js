// The loss and accuracy curves of a training run: the training loss of every
// step (thin), the validation loss and accuracy at each evaluation (dots and
// lines), on one canvas: loss on the left axis, accuracy 0 … 1 on the right,
// steps along the bottom. A marker shows the evaluation the timeline is on.
// A text task's curves are its losses alone: what a language model is judged by.
// A click on the chart picks the evaluation nearest to that step.
import { margin, StepChart } from './step-chart.js';

export class Curves extends StepChart {
  // onPick(step): the learner clicked the chart at this step
  constructor(parent, { onPick = () => {} } = {}) {
    super(parent, 'curves', onPick);
  }

  // losses: per step; evals: [{step, loss, accuracy}]; steps: the run's length;
  // marked: a step or null; accuracy: whether to draw it (not for a text task)
  // uniform: the loss of guessing uniformly over the vocab (the core's ln V)
  draw({ losses, evals, steps, marked = null, accuracy = true, uniform = null, vocab = null }) {
    const width = Math.max(240, Math.min(720, this.figure.parentElement?.clientWidth || 480));
    this.width = width;  // the head scores' chart shares these steps
    const height = accuracy ? 200 : 240, top = 10, bottom = 26;
    const last = evals.at(-1);
    const { g, x, ink } = this.begin({ width, height, top, bottom, steps,
      caption: (accuracy ? 'Loss (blue, left) and validation accuracy (green, right) by step'
        : 'Loss by step (log scale): training (thin, every step) and validation (thick, at each evaluation)')
        + (uniform ? `; dashed: ${this.guessText(uniform, vocab)}, where an untrained model starts` : ''),
      label: last
        ? `Training curves: after ${last.step} of ${steps} steps, validation loss ${last.loss.toFixed(3)}${accuracy ? `, accuracy ${(last.accuracy * 100).toFixed(1)}%` : ''}`
        : 'Training curves: not started' });
    // the loss axis zooms to the curves and the guessing line: a text task's
    // on a log scale, so the slow stretch from 2.8 to 2.2 is as tall as the fall from 4.4
    // (a diverging run's losses may be Infinity or NaN: the axis holds the finite ones)
    const all = [...losses, ...evals.map((e) => e.loss)].filter(Number.isFinite);
    const ceiling = Math.max(0.1, uniform ?? 0, ...losses.slice(0, 5).filter(Number.isFinite), ...evals.map((e) => e.loss).filter(Number.isFinite));
    const log = !accuracy && all.length > 0 && Math.min(...all) > 0.05;
    const floor = log ? Math.min(...all) * 0.92 : 0;
    const scale = log ? Math.log : (v) => v;
    const [y0, y1] = [scale(floor), scale(ceiling * 1.04)];
    const yLoss = (loss) => top + (1 - Math.max(0, Math.min(1, (scale(Math.max(loss, floor)) - y0) / (y1 - y0)))) * (height - top - bottom);
    const yAcc = (acc) => top + (1 - acc) * (height - top - bottom);
    const { left, right } = margin;
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    // ticks every 0.5, or 1, 2, 5, 10 … so that at most 8 fit, each with a faint line across
    let spacing = 0.5;
    for (let n = 0; (ceiling * 1.04 - floor) / spacing > 8; n++) spacing = [1, 2, 5][n % 3] * 10 ** Math.floor(n / 3);
    g.strokeStyle = 'rgba(128,128,128,0.22)';
    const ticks = [];  // [loss, y px]: a hook for tests (data-ticks)
    for (let v = Math.ceil(floor / spacing) * spacing; v <= ceiling * 1.04; v += spacing) {
      const y = yLoss(v);
      ticks.push([v, Math.round(y)]);
      g.fillText(Number.isInteger(v) ? String(v) : v.toFixed(1), left - 4, y);
      g.beginPath();
      g.moveTo(left, y);
      g.lineTo(width - right, y);
      g.stroke();
    }
    this.figure.dataset.axis = log ? 'log' : 'linear';
    this.figure.dataset.ticks = ticks.map(([v, y]) => `${v}:${y}`).join(',');
    g.textAlign = 'left';
    if (accuracy) {
      g.fillText('100%', width - right + 4, top);
      g.fillText('0%', width - right + 4, height - bottom);
    }
    g.textAlign = 'center';
    g.textBaseline = 'top';
    g.fillText('0', left, height - bottom + 6);
    g.fillText(`${steps.toLocaleString('en')} steps`, width - right, height - bottom + 6);
    // the loss of guessing every token alike (the core's ln V), named in words
    if (uniform) {
      const y = yLoss(uniform);
      g.save();
      g.strokeStyle = ink;
      g.globalAlpha = 0.7;
      g.setLineDash([5, 4]);
      g.beginPath();
      g.moveTo(left, y);
      g.lineTo(width - right, y);
      g.stroke();
      g.restore();
      g.textAlign = 'right';
      g.textBaseline = 'bottom';
      g.fillText(this.guessText(uniform, vocab), width - right - 4, y - 2);
    }
    // the training loss, step by step
    const blue = getComputedStyle(this.canvas).getPropertyValue('--accent').trim() || '#0b63c4';
    g.strokeStyle = blue;
    g.globalAlpha = 0.45;
    g.beginPath();
    losses.forEach((loss, i) => (i ? g.lineTo(x(i + 1), yLoss(loss)) : g.moveTo(x(1), yLoss(loss))));
    g.stroke();
    g.globalAlpha = 1;
    // validation loss and accuracy at the evaluations
    const line = (color, y) => {
      g.strokeStyle = color;
      g.fillStyle = color;
      g.lineWidth = 2;
      g.beginPath();
      evals.forEach((e, i) => (i ? g.lineTo(x(e.step), y(e)) : g.moveTo(x(e.step), y(e))));
      g.stroke();
    };
    line(blue, (e) => yLoss(e.loss));
    if (!accuracy) evals.forEach((e) => g.fillRect(x(e.step) - 2, yLoss(e.loss) - 2, 4, 4));  // each evaluation a dot
    if (accuracy) line('#2f9e44', (e) => yAcc(e.accuracy));
    this.marker(g, marked === null ? null : x(marked));
  }

  // The guessing line in words: "guessing uniformly: ln 81 = 4.39".
  guessText(uniform, vocab) {
    return `guessing uniformly: ln ${vocab} = ${uniform.toFixed(2)}`;
  }
}
