// Writes only a value that changed: an equal textContent still replaces its
// text node, an equal style still restyles. For views changed in place on
// every keystroke (the token chips, the next-token bars).
export function set(target, key, value) {
  if (target[key] !== value) target[key] = value;
}
