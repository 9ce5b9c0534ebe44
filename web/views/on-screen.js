// Whether an element is on screen (or within 200 px of it), as an
// IntersectionObserver last said, and a call when it comes on screen: a view
// whose numbers change while it is scrolled away (a model that trains) paints
// them when the learner scrolls to it, not in every frame meanwhile.
const onScreen = new WeakMap();  // element → boolean; absent: not known yet
const shown = new WeakMap();     // element → what to call when it comes on screen
const observer = typeof IntersectionObserver === 'function'
  ? new IntersectionObserver((entries) => entries.forEach(({ target, isIntersecting }) => {
    onScreen.set(target, isIntersecting);
    if (isIntersecting) shown.get(target)?.();
  }), { rootMargin: '200px' })
  : null;

// Whether `element` is off screen for certain; from the first call on,
// onShown() is called each time it comes on screen.
export function offScreen(element, onShown) {
  if (!observer) return false;
  if (!shown.has(element)) {
    shown.set(element, onShown);
    observer.observe(element);
  }
  return onScreen.get(element) === false;
}
