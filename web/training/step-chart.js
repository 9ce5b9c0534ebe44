// What the training view's charts share: a figure of a caption and a canvas
// over the run's steps, drawn at the screen's pixel ratio, a frame around
// the plot, the marker of the evaluation the timeline is on, and a click
// that picks the step under it. Text is written only when it changes.
import { watchWidth } from '../views/observed-width.js';
import { create, element } from './dom.js';

export const margin = { left: 40, right: 40 };

// The charts are drawn at their box's width in the theme's ink: draw() again,
// once a frame, when the box's width changes (a window resized, a phone
// turned) or the colour scheme does, even with the run paused. → a function
// that stops listening.
export function redrawOnChange(box, draw) {
  let frame = null, stopped = false;
  const again = () => {
    if (!stopped) frame ??= requestAnimationFrame(() => { frame = null; draw(); });
  };
  watchWidth(box, again);
  const scheme = window.matchMedia?.('(prefers-color-scheme: dark)');
  scheme?.addEventListener('change', again);
  return () => {
    stopped = true;
    if (frame) cancelAnimationFrame(frame);
    scheme?.removeEventListener('change', again);
  };
}

export class StepChart {
  // className: the figure's; onPick(step): the learner clicked at this step
  constructor(parent, className, onPick) {
    this.figure = create('figure', { className });
    this.caption = element(this.figure, 'figcaption');
    this.canvas = element(this.figure, 'canvas', { attrs: { role: 'img' } });
    parent.append(this.figure);
    this.canvas.addEventListener('click', (event) => {
      if (!this.plot) return;
      const { width, steps } = this.plot;
      const x = event.clientX - this.canvas.getBoundingClientRect().left;
      onPick(Math.round(Math.max(0, Math.min(1, (x - margin.left) / (width - margin.left - margin.right))) * steps));
    });
  }

  // A cleared canvas of width × height CSS pixels with its frame (top and
  // bottom: the plot's margins): {g, x(step), ink}.
  begin({ width, height, top, bottom, steps, caption, label }) {
    if (this.caption.textContent !== caption) this.caption.textContent = caption;
    if (this.canvas.getAttribute('aria-label') !== label) this.canvas.setAttribute('aria-label', label);
    const ratio = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.ceil(width * ratio) || this.canvas.height !== Math.ceil(height * ratio)) {
      this.canvas.width = Math.ceil(width * ratio);
      this.canvas.height = Math.ceil(height * ratio);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    this.plot = { width, height, top, bottom, steps };
    const g = this.canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    g.setLineDash([]);  // the context keeps the last draw's dashes and alpha
    g.globalAlpha = 1;
    g.strokeStyle = 'rgba(128,128,128,0.5)';
    g.lineWidth = 1;
    g.strokeRect(margin.left, top, width - margin.left - margin.right, height - top - bottom);
    const ink = getComputedStyle(this.canvas).color || '#222';
    this.figure.dataset.ink = ink;  // the theme it was drawn in (a hook for tests)
    g.fillStyle = ink;
    g.font = '11px system-ui, sans-serif';
    const x = (step) => margin.left + (step / Math.max(1, steps)) * (width - margin.left - margin.right);
    return { g, x, ink };
  }

  // The evaluation the timeline is on, as a line across the plot (none: null).
  marker(g, x) {
    if (x === null) return;
    const { height, top, bottom } = this.plot;
    g.setLineDash([]);
    g.globalAlpha = 1;
    g.strokeStyle = '#d9480f';
    g.lineWidth = 1.5;
    g.beginPath();
    g.moveTo(x, top);
    g.lineTo(x, height - bottom);
    g.stroke();
  }
}
