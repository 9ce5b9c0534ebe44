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

// A file picker in a field of its own: its label (`label`) tied to the
// input (props: type file's, such as multiple, accept, webkitdirectory; id
// from `name`). onFiles(files): the files chosen; the input is emptied so
// that the same ones chosen again count again. → the input.
export function filePicker(parent, { label, name, onFiles, ...props }) {
  const field = element(parent, 'div', { className: 'field' });
  const text = element(field, 'label', { textContent: label });
  const input = element(field, 'input', { type: 'file', ...props });
  input.id = `${name}-${Math.random().toString(36).slice(2)}`;
  text.htmlFor = input.id;
  input.addEventListener('change', () => {
    const files = [...input.files];
    input.value = '';
    onFiles(files);
  });
  return input;
}
