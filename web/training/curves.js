// The loss and accuracy curves of a training run: the training loss of every
// step (thin), the validation loss and accuracy at each evaluation (dots and
// lines), on one canvas: loss on the left axis, accuracy 0 … 1 on the right,
// steps along the bottom. A marker shows the evaluation the timeline is on.
// A text task's curves are its losses alone: what a language model is judged by.
// A click on the chart picks the evaluation nearest to that step.
export class Curves {
  // onPick(step): the learner clicked the chart at this step
  constructor(parent, { onPick = () => {} } = {}) {
    this.figure = document.createElement('figure');
    this.figure.className = 'curves';
    this.caption = document.createElement('figcaption');
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.figure.append(this.caption, this.canvas);
    parent.append(this.figure);
    this.canvas.addEventListener('click', (event) => {
      if (!this.geometry) return;
      const { left, plot, steps } = this.geometry;
      const x = event.clientX - this.canvas.getBoundingClientRect().left;
      onPick(Math.round(Math.max(0, Math.min(1, (x - left) / plot)) * steps));
    });
  }

  // losses: per step; evals: [{step, loss, accuracy}]; steps: the run's length;
  // marked: a step or null; accuracy: whether to draw it (not for a text task)
  draw({ losses, evals, steps, marked = null, accuracy = true }) {
    const caption = accuracy ? 'Loss (blue, left) and validation accuracy (green, right) by step'
      : 'Loss by step: training (thin, every step) and validation (thick, at each evaluation)';
    if (this.caption.textContent !== caption) this.caption.textContent = caption;
    const width = Math.max(240, Math.min(720, this.figure.parentElement?.clientWidth || 480));
    const height = 200;
    const ratio = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.ceil(width * ratio)) {
      this.canvas.width = Math.ceil(width * ratio);
      this.canvas.height = Math.ceil(height * ratio);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    const g = this.canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const style = getComputedStyle(this.canvas);
    const ink = style.color || '#222';
    const left = 40, right = 40, top = 10, bottom = 26;
    this.width = width;  // the head scores' chart shares these steps
    this.geometry = { left, plot: width - left - right, steps };
    const top_loss = Math.max(0.1, ...losses.slice(0, 5), ...evals.map((e) => e.loss));
    const x = (step) => left + (step / Math.max(1, steps)) * (width - left - right);
    const yLoss = (loss) => top + (1 - Math.min(1, loss / top_loss)) * (height - top - bottom);
    const yAcc = (acc) => top + (1 - acc) * (height - top - bottom);
    // axes
    g.strokeStyle = 'rgba(128,128,128,0.5)';
    g.lineWidth = 1;
    g.strokeRect(left, top, width - left - right, height - top - bottom);
    g.fillStyle = ink;
    g.font = '11px system-ui, sans-serif';
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    g.fillText(top_loss.toFixed(1), left - 4, top);
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
    const blue = style.getPropertyValue('--accent').trim() || '#0b63c4';
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
    if (marked !== null) {
      g.strokeStyle = '#d9480f';
      g.lineWidth = 1.5;
      g.beginPath();
      g.moveTo(x(marked), top);
      g.lineTo(x(marked), height - bottom);
      g.stroke();
    }
    const last = evals.at(-1);
    const label = last
      ? `Training curves: after ${last.step} of ${steps} steps, validation loss ${last.loss.toFixed(3)}${accuracy ? `, accuracy ${(last.accuracy * 100).toFixed(1)}%` : ''}`
      : 'Training curves: not started';
    if (this.canvas.getAttribute('aria-label') !== label) this.canvas.setAttribute('aria-label', label);
  }
}
