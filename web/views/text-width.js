// Text widths measured once per font and string: measureText is the
// costliest call of a frame that draws many labels (a training model's heads
// every few hundred ms, a keystroke's heatmap and graph), and a label's
// width never changes while its font does not.
const widths = new Map();  // font → Map(text → px)
const most = 20000;        // strings kept per font before the cache starts over

// The width in px of `text` in canvas context g's current font.
export function textWidth(g, text) {
  let byText = widths.get(g.font);
  if (!byText) widths.set(g.font, (byText = new Map()));
  let w = byText.get(text);
  if (w === undefined) {
    if (byText.size >= most) byText.clear();
    w = g.measureText(text).width;
    byText.set(text, w);
  }
  return w;
}
