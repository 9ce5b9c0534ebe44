// What the Model view's two guides share ("Start here", start-here.js, and
// "Try:", try-list.js): a small DOM builder, and a dismissal remembered in
// localStorage under the guide's key (storage refused, in a sandboxed frame:
// the guide shows, and a dismissal lasts the visit).

// A new element under parent with the given properties.
export function element(parent, tag, props = {}) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  parent.append(e);
  return e;
}

export function dismissed(key) {
  try {
    return globalThis.localStorage?.getItem(key) === '1';
  } catch {
    return false;
  }
}

export function rememberDismissed(key) {
  try {
    globalThis.localStorage?.setItem(key, '1');
  } catch {
    // kept for this visit only
  }
}
