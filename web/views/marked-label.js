// A token label the views mark apart on a canvas (a token the model wrote,
// Generate's): a dotted line under its text, as its chip has a dotted
// underline. x, y: where fillText drew `text` (textBaseline 'middle'), in
// the context's current (maybe rotated) coordinates; below: px from y to the
// line (half the font's size and 1, unless a narrow chip has less room).
export function underline(g, text, x, y, align = 'left', below = null) {
  const width = g.measureText(text).width;
  if (!width) return;
  const size = Number(/(\d+(?:\.\d+)?)px/.exec(g.font)?.[1] ?? 11);
  const from = align === 'right' || align === 'end' ? x - width : align === 'center' ? x - width / 2 : x;
  const at = Math.round(y + (below ?? size / 2 + 1)) + 0.5;
  g.save();
  g.setLineDash([1.5, 1.5]);
  g.lineWidth = 1.2;
  g.strokeStyle = g.fillStyle;
  g.beginPath();
  g.moveTo(from, at);
  g.lineTo(from + width, at);
  g.stroke();
  g.restore();
}
