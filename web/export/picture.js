// Exports of the current view and computation: PNG and SVG pictures of the
// matrices and the graph, the scenario, the trace, a PyTorch script.

export function download(filename, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A view (heatmap or graph) drawn again into a canvas of its own at `ratio`
// device pixels per CSS pixel, whatever the screen's: a detached canvas has
// no page styles, so it draws in the light theme's ink, as the white page wants.
export function snapshot(view, ratio) {
  const screen = view.canvas;
  const canvas = document.createElement('canvas');
  view.canvas = canvas;
  view.exportRatio = ratio;
  try {
    view.render();
  } finally {
    view.canvas = screen;
    view.exportRatio = undefined;
  }
  return canvas;
}

// The picture a learner can paste into notes: a title and what it shows
// (step, head, batch), then each figure under its caption with its legend in
// words, on a white page, at `ratio` (2: sharp when printed or zoomed).
// figures: [{view, caption, legend}]
export function picturePNG({ title, subtitle, figures }, ratio = 2) {
  const pad = 12, gap = 30, line = 18;
  const canvases = figures.map((f) => snapshot(f.view, ratio));
  const sizes = canvases.map((c) => ({ width: c.width / ratio, height: c.height / ratio }));
  // wide enough for the title and every legend line too, not only the figures
  const measure = document.createElement('canvas').getContext('2d');
  const textWidth = (font, text) => { measure.font = font; return measure.measureText(text).width; };
  const words = [textWidth('700 15px system-ui, sans-serif', title), textWidth('13px system-ui, sans-serif', subtitle),
    ...figures.map((f) => Math.max(textWidth('600 13px system-ui, sans-serif', f.caption), textWidth('12px system-ui, sans-serif', f.legend ?? '')))];
  const width = Math.ceil(Math.max(360, ...sizes.map((s) => s.width), ...words)) + 2 * pad;
  const header = 2 * line + 14;
  const height = header + sizes.reduce((h, s) => h + s.height + gap + line, 0) + pad;
  const out = document.createElement('canvas');
  out.width = Math.ceil(width * ratio);
  out.height = Math.ceil(height * ratio);
  const g = out.getContext('2d');
  g.scale(ratio, ratio);
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#1d2329';
  g.font = '700 15px system-ui, sans-serif';
  g.fillText(title, pad, pad + 12);
  g.font = '13px system-ui, sans-serif';
  g.fillStyle = '#5b6570';
  g.fillText(subtitle, pad, pad + 12 + line);
  let y = header;
  figures.forEach((f, i) => {
    g.fillStyle = '#1d2329';
    g.font = '600 13px system-ui, sans-serif';
    g.fillText(f.caption, pad, y + 14);
    g.drawImage(canvases[i], pad, y + gap - 6, sizes[i].width, sizes[i].height);
    y += sizes[i].height + gap;
    g.fillStyle = '#5b6570';
    g.font = '12px system-ui, sans-serif';
    if (f.legend) g.fillText(f.legend, pad, y + 6);
    y += line;
  });
  return new Promise((done) => out.toBlob(done, 'image/png'));
}

// SVG parts ({svg, width, height}) stacked top to bottom in one document.
export function pictureSVG(parts) {
  const width = Math.max(...parts.map((p) => p.width)) + 20;
  let y = 10;
  const body = parts.map((p) => {
    const g = `<g transform="translate(10 ${y})">${p.svg}</g>`;
    y += p.height + 24;
    return g;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" font-family="sans-serif" font-size="11">\n<rect width="100%" height="100%" fill="#ffffff"/>\n${body.join('\n')}\n</svg>\n`;
}
