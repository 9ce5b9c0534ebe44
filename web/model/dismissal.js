// What the Model view's two guides share ("Start here", start-here.js, and
// "Try:", try-list.js): a dismissal remembered in
// localStorage under the guide's key (storage refused, in a sandboxed frame:
// the guide shows, and a dismissal lasts the visit).

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
