// The one DOM builder the training view's parts share: an element with its
// properties (text as textContent, never markup), appended to its parent.
export function element(parent, tag, props = {}) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  parent.append(e);
  return e;
}
