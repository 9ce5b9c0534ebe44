// Text widths measured once per font and string: measureText is the
// costliest call of a frame that draws many labels (a training model's heads
// every few hundred ms, a keystroke's heatmap and graph), and a label's
// width never changes while its font does not. They are measured on a
// canvas outside the page: on a view's own canvas, setting the font or
// measuring a text forces the page's pending style and layout first.
import { create } from './dom.js';

const widths = new Map();  // font → Map(text → px)
const most = 20000;        // strings kept per font before the cache starts over
let measurer = null;       // a 2D context outside the page, and the font it has
let measurerFont = null;

// The width in px of `text` in canvas context g's current font.
export function textWidth(g, text) {
  return fontWidth(g.font, text);
}

// The width in px of `text` in `font` (a canvas font: '12px system-ui, sans-serif').
export function fontWidth(font, text) {
  let byText = widths.get(font);
  if (!byText) widths.set(font, (byText = new Map()));
  let w = byText.get(text);
  if (w === undefined) {
    if (byText.size >= most) byText.clear();
    measurer ??= (typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : create('canvas')).getContext('2d');
    if (measurerFont !== font) measurer.font = measurerFont = font;
    w = measurer.measureText(text).width;
    byText.set(text, w);
  }
  return w;
}
