// Colour-blind-safe scales: viridis (sequential, for weights in [0, 1]) and
// ColorBrewer RdBu (diverging around zero, for everything signed). A masked
// −∞ cell is neither: dark grey with hatching, drawn by the heatmap.

const viridis = ['#440154', '#482878', '#3e4989', '#31688e', '#26828e', '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725'];
const rdbu = ['#2166ac', '#4393c3', '#92c5de', '#d1e5f0', '#f7f7f7', '#fddbc7', '#f4a582', '#d6604d', '#b2182b'];

export const maskedColor = '#3a3a3a';

function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const viridisRgb = viridis.map(hexToRgb);
const rdbuRgb = rdbu.map(hexToRgb);

function ramp(stops, t) {
  const x = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  return stops[i].map((c, k) => Math.round(c + (stops[i + 1][k] - c) * f));
}

// value in [0, 1] (clamped)
export function sequential(value) {
  return ramp(viridisRgb, value);
}

// value in [-limit, limit] around zero
export function diverging(value, limit) {
  return ramp(rdbuRgb, limit > 0 ? 0.5 + value / (2 * limit) : 0.5);
}

export function css([r, g, b]) {
  return `rgb(${r}, ${g}, ${b})`;
}

// Black or white text, whichever reads better on the background.
export function textOn([r, g, b]) {
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#111' : '#fff';
}

export const gradients = {
  sequential: `linear-gradient(to right, ${viridis.join(', ')})`,
  diverging: `linear-gradient(to right, ${rdbu.join(', ')})`,
};
