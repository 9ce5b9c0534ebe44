// Figures written by the Python package (data-notebook-theme: no theme= was
// given) follow the notebook front end's theme. Where the front end marks
// one on <body> (JupyterLab, nbconvert's lab template, VS Code), the element
// itself follows it under theme="auto" (element/figure.js's hostTheme).
// Where it marks none (the classic Notebook, a Sphinx theme), the colour
// behind the figure decides, light or dark by its luminance, so a dark
// system does not darken a figure in a light notebook; with no colour at
// all, the element's prefers-color-scheme stays. Once per page.
import { hostTheme } from '../../web/element/figure.js';

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
    const marked = hostTheme() !== null;
    for (const figure of document.querySelectorAll('attention-playground[data-notebook-theme]')) {
      const theme = marked ? null : behind(figure);
      if (theme === null) figure.removeAttribute('theme');
      else if (figure.getAttribute('theme') !== theme) figure.setAttribute('theme', theme);
    }
  };
  apply();
  new MutationObserver(apply).observe(document.body, { attributes: true, attributeFilter: ['class', 'data-jp-theme-light', 'data-vscode-theme-kind'] });
  // outputs added later (a cell run again) get it too
  new MutationObserver((records) => {
    if (records.some((r) => r.addedNodes.length)) apply();
  }).observe(document.body, { childList: true, subtree: true });
}

// The Python tag's line "this page lacks the engine" shows while a figure
// loads (and stays where no engine came); a figure the element refused keeps
// what the author put inside under its message, so with the engine here
// that line would contradict it. Once per page.
export function hideEngineLine() {
  const style = document.createElement('style');
  style.textContent = 'attention-playground[data-state="error"]>.attention-playground-fallback{display:none}';
  document.head.append(style);
}
