// A token label the views mark apart on a canvas (a token the model wrote,
// Generate's): a dotted line under its text, as its chip has a dotted
// underline. x, y: where fillText drew `text` (textBaseline 'middle'), in
// the context's current (maybe rotated) coordinates; below: px from y to the
// line (unless a narrow chip has less room: just under the baseline, 0.35
// of the font's size and 1.5, nearer its own text than the next label's,
// which at 14 px a row read it as an umlaut over the next).
export function underline(g, text, x, y, align = 'left', below = null) {
  const measured = g.measureText(text).width;
  if (!measured) return;
  const size = Number(/(\d+(?:\.\d+)?)px/.exec(g.font)?.[1] ?? 11);
  // three dots at least: one dot under an I or a . reads as ! or :
  const width = Math.max(measured, size * 0.7);
  const from = align === 'right' || align === 'end' ? x - width : align === 'center' ? x - width / 2 : x;
  // clear of the text's own ink: a ␣ reaches its baseline, and dots right
  // under it read as one odd glyph
  const ink = g.measureText(text).actualBoundingBoxDescent || 0;  // a canvas without ink metrics: the rule alone
  const at = Math.round(y + (below ?? Math.max(size * 0.35 + 1.5, ink + 2.5))) + 0.5;
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
