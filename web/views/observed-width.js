// An element's clientWidth, read once and kept until the element resizes
// (a ResizeObserver says so) or the window does: reading it after a frame's
// writes forces a layout, which a frame that only repaints new numbers on the
// same structure must not pay.
const kept = new WeakMap();  // element → [its clientWidth, the window's size generation then]
const observed = new Set();  // swept of elements taken out of the page (forget)
let generation = 0;
const reported = new WeakMap();  // element → the content width the observer last reported
const watchers = new WeakMap();  // element → [onChange(width) …] (watchWidth)
// a report of another width drops the width kept, and so does the first: the
// element may have changed between the read and the observer's first look;
// a change of height alone (a heatmap that grows a row) keeps it
const observer = typeof ResizeObserver === 'function'
  ? new ResizeObserver((entries) => entries.forEach(({ target, contentRect }) => {
    if (!target.isConnected) return forget(target);
    const before = reported.get(target);
    if (before !== contentRect.width) kept.delete(target);
    reported.set(target, contentRect.width);
    if (before !== undefined && before !== contentRect.width) for (const onChange of watchers.get(target) ?? []) onChange(contentRect.width);
  }))
  : null;
// An element taken out of the page (a lesson left) is no longer observed, so
// the observer does not keep it and its view alive. Not always reported: a
// hidden element (0 wide) removed stays 0 wide, so a new observation sweeps
// the others first. Its watchers stay (a weak map): observed again when drawn
// again, a view put back in the page follows its width again.
function forget(element) {
  observer.unobserve(element);
  kept.delete(element);
  reported.delete(element);
  observed.delete(element);
}

function observe(element) {
  for (const other of observed) if (!other.isConnected) forget(other);
  observed.add(element);
  observer.observe(element);
}

// a window's resize event comes before the observer's reports in a frame
if (typeof window !== 'undefined') window.addEventListener('resize', () => generation++);

// fresh: read it now (a view whose structure changed: the DOM written in
// this task may have moved the element, and no observer has said so yet).
export function observedWidth(element, { fresh = false } = {}) {
  const known = kept.get(element);
  if (!fresh && known && known[1] === generation) return known[0];
  const width = element.clientWidth;
  if (!observer || !element.isConnected) return width;  // a detached element: nothing would say when it changes
  if (!observed.has(element)) observe(element);
  kept.set(element, [width, generation]);
  return width;
}

// onChange(width) whenever the element's width changes (a window resized, a
// phone turned), not for its first width: a view laid out for the width it
// read lays itself out again.
export function watchWidth(element, onChange) {
  if (!observer) return;
  if (!watchers.has(element)) watchers.set(element, []);
  watchers.get(element).push(onChange);
  if (!observed.has(element)) observe(element);
}
