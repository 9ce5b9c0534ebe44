// A keystroke's page work in the Model view, as `make bench` measures it
// (bench_models.mjs) and tests/bench/keystroke.mjs alone: on the main thread,
// from the input event to the end of the frame that shows its run: the
// input's handler, the view's draw once the worker has answered (its
// 'model-draw' measure) and that frame's style, layout and paint (from the
// frame's start to its next task). Also the median and percentiles both report.

// count keystrokes into the open Model view of `page`, each the first 1 … 31
// characters of `typed`: [{handler, draw, frame, total} ms …].
export function viewKeystrokes(page, { typed = 'To be, or not to be, that is the question', count = 60 } = {}) {
  return page.evaluate(async ({ typed, count }) => {
    const input = document.querySelector('.model-view textarea');
    const box = document.querySelector('.model-view');
    const nextFrameWork = () => new Promise((resolve) => requestAnimationFrame(() => {
      const started = performance.now();
      setTimeout(() => resolve(performance.now() - started), 0);
    }));
    const work = [];
    for (let i = 0; i < count; i++) {
      const text = typed.slice(0, 1 + (i % 31));
      const tokensBefore = box.dataset.tokens;
      performance.clearMeasures('model-draw');
      const t0 = performance.now();
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const handler = performance.now() - t0;
      // the worker's answer drawn: a 'model-draw' measure appears
      while (!performance.getEntriesByName('model-draw').length) await new Promise((r) => setTimeout(r, 1));
      const draw = performance.getEntriesByName('model-draw')[0].duration;
      const frame = await nextFrameWork();
      work.push({ handler, draw, frame, total: handler + draw + frame });
      if (box.dataset.tokens === tokensBefore && i > 0 && text.length > 1) throw new Error('bench: the Model view did not redraw');
      await new Promise((r) => setTimeout(r, 50));
    }
    return work;
  }, { typed, count });
}

export const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const percentile = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  const i = p * (s.length - 1);
  const lo = Math.floor(i);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
};
