// What a heatmap's canvas paints besides its cells: its size (set only when
// it changes, since that clears it) and the hatches over −∞ cells.

// Setting a canvas's size reallocates and clears it: only when it changes.
export function resize(canvas, width, height, ratio) {
  const w = Math.ceil(width * ratio), h = Math.ceil(height * ratio);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
}

// Hatches at 3:1 against the −∞ cell they cross, in either theme: dark on
// the dark theme's light grey cells, light on the light theme's dark ones.
export function hatchStyle(onLight) {
  return onLight ? 'rgba(0, 0, 0, 0.55)' : 'rgba(255, 255, 255, 0.45)';
}

export function hatch(g, x, y, size, onLight = false) {
  g.save();
  g.beginPath();
  g.rect(x, y, size, size);
  g.clip();
  g.strokeStyle = hatchStyle(onLight);
  g.lineWidth = 1.5;
  for (let d = -size; d < size; d += 6) {
    g.beginPath();
    g.moveTo(x + d, y + size);
    g.lineTo(x + d + size, y);
    g.stroke();
  }
  g.restore();
}

