// The one way the page makes an element. create(tag, props): an HTML `tag`
// not yet placed, with `props` set on it as properties (className, type,
// hidden, onclick, …); `text` sets its text, and `attrs` ({name: value})
// sets attributes that are not properties (aria-*, data-*, role, for). A
// prop that is null or undefined is not set. element(parent, …) appends it
// to `parent` too; svgElement(parent, …) makes an SVG one.
export function create(tag, props = {}) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'attrs') setAttributes(node, value);
    else node[key] = value;
  }
  return node;
}

export function element(parent, tag, props = {}) {
  const node = create(tag, props);
  parent.append(node);
  return node;
}

// An SVG `tag` appended to `parent`, with `attributes` set as attributes (an
// SVG element's x, class, stroke-width are not properties: setAttribute, so
// a strict CSP allows them too) and `text` as its text if given.
const svgNS = 'http://www.w3.org/2000/svg';
export function svgElement(parent, tag, attributes = {}, text) {
  const node = document.createElementNS(svgNS, tag);
  setAttributes(node, attributes);
  if (text !== undefined) node.textContent = text;
  parent.append(node);
  return node;
}

function setAttributes(node, attributes) {
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
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
