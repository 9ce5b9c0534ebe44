// The one way the page makes an element: a `tag` appended to `parent`, with
// `props` set on it as properties (className, type, hidden, onclick, …);
// `text` sets its text. A prop that is null or undefined is not set.
export function element(parent, tag, props = {}) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === 'text') node.textContent = value;
    else node[key] = value;
  }
  parent.append(node);
  return node;
}
