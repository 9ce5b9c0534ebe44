// A heatmap's legend: its colour bar with the bound the cells use, the −∞
// swatch when masked cells show, the mask's two swatches; and the same in
// words for a picture without the page around it.
import { formatNumber } from './format.js';
import { element } from './dom.js';

// The legend in words, for a picture without the page around it.
export function legendText(heatmap) {
  if (heatmap.scale === 'binary') return 'mask: 1 may attend, 0 hidden';
  const masked = Array.prototype.some.call(heatmap.matrix.data, (v) => v === -Infinity) ? '; −∞ (masked) dark grey' : '';
  if (heatmap.scale === 'sequential') return `colours: 0 … 1, viridis${masked}`;
  const bound = heatmap.colorBound();
  return `colours: ${formatNumber(-bound, 2)} … ${formatNumber(bound, 2)}, blue to red${masked}`;
}

// A gradient bar with its end values, and the −∞ swatch when masked cells show.
export function drawLegend(heatmap) {
  const { data } = heatmap.matrix;
  const finite = Array.from(data).filter(Number.isFinite);
  const masked = finite.length < data.length;
  heatmap.legend.textContent = '';
  const item = (className, text) => element(heatmap.legend, 'span', { className, text });
  if (heatmap.scale === 'binary') {
    item('swatch swatch-keep', '');
    item('legend-label', '1 may attend');
    item('swatch swatch-masked', '');
    item('legend-label', '0 hidden');
    return;
  }
  const bound = heatmap.colorBound();
  const [low, high] = heatmap.scale === 'sequential' ? [0, 1] : [-bound, bound];
  item('legend-label', formatNumber(low, 2));
  item(`legend-bar legend-${heatmap.scale}`, '');
  item('legend-label', formatNumber(high, 2));
  if (masked) {
    item('swatch swatch-masked', '');
    item('legend-label', '−∞ masked');
  }
}
