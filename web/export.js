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

// Canvases stacked top to bottom, each under its caption, on a white page.
export function picturePNG(figures) {
  const ratio = window.devicePixelRatio || 1;
  const gap = 28;
  const width = Math.max(...figures.map((f) => f.canvas.width / ratio)) + 20;
  const height = figures.reduce((h, f) => h + f.canvas.height / ratio + gap, 10);
  const out = document.createElement('canvas');
  out.width = Math.ceil(width * ratio);
  out.height = Math.ceil(height * ratio);
  const g = out.getContext('2d');
  g.scale(ratio, ratio);
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#1d2329';
  g.font = '600 13px system-ui, sans-serif';
  let y = 10;
  for (const f of figures) {
    g.fillText(f.caption, 10, y + 14);
    g.drawImage(f.canvas, 10, y + gap - 6, f.canvas.width / ratio, f.canvas.height / ratio);
    y += f.canvas.height / ratio + gap;
  }
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
