// How a heatmap's canvas is painted: its size (set only when it changes,
// since that clears it), its cells (one pixel each on a scratch canvas
// shared by every heatmap, scaled up), their numbers and the hatches over
// −∞ cells.
import { textOn } from './colors.js';
import { formatNumber } from './format.js';
import { create } from './dom.js';

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

// One canvas and one ImageData per size, shared by every heatmap: a cell is a
// pixel there, which paintCells() scales onto the heatmap's own canvas.
const scratch = { canvas: null, pixels: new Map() };
function cellCanvas(cols, rows) {
  scratch.canvas ??= create('canvas');
  if (scratch.canvas.width < cols) scratch.canvas.width = cols;
  if (scratch.canvas.height < rows) scratch.canvas.height = rows;
  return scratch.canvas;
}
function cellPixels(rows, cols) {
  const key = `${rows}x${cols}`;
  if (!scratch.pixels.has(key)) {
    if (scratch.pixels.size > 16) scratch.pixels.clear();
    scratch.pixels.set(key, new ImageData(cols, rows));
  }
  return scratch.pixels.get(key);
}
// An opaque colour as one RGBA word (little-endian: A B G R).
const rgba = ([r, g, b]) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;

// The cells of a laid-out matrix on g: their colours, −∞'s hatches, the
// numbers where they fit, an empty outline for a cell not shown yet.
// layout: {rows, cols, cell, left, top, numbers, decimals}; shown: how many
// cells (row-major) are filled; valueAt(i): what cell i shows now; rgbOf(v):
// its colour; masked: {rgb, light} for −∞; binary: 0/1 printed as such.
export function paintCells(g, layout, { shown, valueAt, rgbOf, masked, binary = false }) {
  const { rows, cols, cell, left, top, numbers, decimals } = layout;
  // the cells' colours as one pixel each, scaled up unsmoothed: one
  // drawImage instead of a fillRect and a colour string per cell
  const pixels = cellPixels(rows, cols);
  const words = new Uint32Array(pixels.data.buffer);
  const values = new Float64Array(rows * cols);
  for (let i = 0; i < rows * cols; i++) {
    if (i >= shown) {
      words[i] = 0;
      continue;
    }
    const v = (values[i] = valueAt(i));
    words[i] = v === -Infinity ? rgba(masked.rgb) : rgba(rgbOf(v));
  }
  const cells = cellCanvas(cols, rows);
  cells.getContext('2d').putImageData(pixels, 0, 0);
  g.imageSmoothingEnabled = false;
  g.drawImage(cells, 0, 0, cols, rows, left, top, cols * cell, rows * cell);
  g.imageSmoothingEnabled = true;

  g.textAlign = 'center';
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      const x = left + c * cell;
      const y = top + r * cell;
      if (i >= shown) {
        g.strokeStyle = 'rgba(128, 128, 128, 0.35)';
        g.strokeRect(x + 0.5, y + 0.5, cell - 1, cell - 1);
        continue;
      }
      const v = values[i];
      if (v === -Infinity) {
        hatch(g, x, y, cell, masked.light);
        if (numbers) {
          g.fillStyle = masked.light ? '#111' : '#fff';
          g.fillText('−∞', x + cell / 2, y + cell / 2);
        }
        continue;
      }
      if (numbers) {
        g.fillStyle = textOn(rgbOf(v));
        g.fillText(binary ? String(v) : formatNumber(v, decimals), x + cell / 2, y + cell / 2);
      }
    }
  }
}
