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
  draw({ losses, evals, steps, marked = null, accuracy = true }) {
    const width = Math.max(240, Math.min(720, this.figure.parentElement?.clientWidth || 480));
    this.width = width;  // the head scores' chart shares these steps
    const height = 200, top = 10, bottom = 26;
    const last = evals.at(-1);
    const { g, x } = this.begin({ width, height, top, bottom, steps,
      caption: accuracy ? 'Loss (blue, left) and validation accuracy (green, right) by step'
        : 'Loss by step: training (thin, every step) and validation (thick, at each evaluation)',
      label: last
        ? `Training curves: after ${last.step} of ${steps} steps, validation loss ${last.loss.toFixed(3)}${accuracy ? `, accuracy ${(last.accuracy * 100).toFixed(1)}%` : ''}`
        : 'Training curves: not started' });
    const topLoss = Math.max(0.1, ...losses.slice(0, 5), ...evals.map((e) => e.loss));
    const yLoss = (loss) => top + (1 - Math.min(1, loss / topLoss)) * (height - top - bottom);
    const yAcc = (acc) => top + (1 - acc) * (height - top - bottom);
    const { left, right } = margin;
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    g.fillText(topLoss.toFixed(1), left - 4, top);
    g.fillText('0', left - 4, height - bottom);
    g.textAlign = 'left';
    if (accuracy) {
      g.fillText('100%', width - right + 4, top);
      g.fillText('0%', width - right + 4, height - bottom);
    }
    g.textAlign = 'center';
    g.textBaseline = 'top';
    g.fillText('0', left, height - bottom + 6);
    g.fillText(`${steps} steps`, width - right, height - bottom + 6);
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
}
