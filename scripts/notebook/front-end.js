// Figures written by the Python package (data-notebook-theme: no theme= was
// given) follow the notebook front end's theme. Its own mark first:
// JupyterLab and nbconvert's lab template set <body data-jp-theme-light>,
// VS Code's notebooks body.vscode-light / vscode-dark / vscode-high-contrast.
// Else the colour behind the figure (the classic Notebook, a Sphinx theme):
// light or dark by its luminance; with no colour anywhere, the element's own
// theme="auto" (prefers-color-scheme) stays. Once per page.
function marked(body) {
  const light = body.dataset.jpThemeLight;
  if (light === 'true') return 'light';
  if (light === 'false') return 'dark';
  if (body.classList.contains('vscode-dark') || body.classList.contains('vscode-high-contrast')) return 'dark';
  if (body.classList.contains('vscode-light') || body.classList.contains('vscode-high-contrast-light')) return 'light';
  return null;
}

// The first opaque background colour from the figure up: 'light', 'dark' or null.
function behind(figure) {
  for (let node = figure.parentElement; node; node = node.parentElement) {
    const rgba = getComputedStyle(node).backgroundColor.match(/[\d.]+/g)?.map(Number);
    if (!rgba || (rgba.length > 3 && rgba[3] < 0.5)) continue;
    const [r, g, b] = rgba.map((v) => v / 255);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.4 ? 'dark' : 'light';
  }
  return null;
}

export function followTheme() {
  const apply = () => {
    const theme = marked(document.body);
    for (const figure of document.querySelectorAll('attention-playground[data-notebook-theme]')) {
      const t = theme ?? behind(figure);
      if (t === null) figure.removeAttribute('theme');
      else if (figure.getAttribute('theme') !== t) figure.setAttribute('theme', t);
    }
  };
  apply();
  new MutationObserver(apply).observe(document.body, { attributes: true, attributeFilter: ['class', 'data-jp-theme-light'] });
  // outputs added later (a cell run again) get it too
  new MutationObserver((records) => {
    if (records.some((r) => r.addedNodes.length)) apply();
  }).observe(document.body, { childList: true, subtree: true });
}
