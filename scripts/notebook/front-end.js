// Figures written by the Python package (data-notebook-theme: no theme= was
// given) follow the notebook front end's theme: JupyterLab and nbconvert's
// lab template mark <body data-jp-theme-light>, VS Code's notebooks
// body.vscode-light / vscode-dark / vscode-high-contrast. Elsewhere the
// element's own theme="auto" (prefers-color-scheme) stays. Once per page.
export function frontEndTheme(body = document.body) {
  const light = body.dataset.jpThemeLight;
  if (light === 'true') return 'light';
  if (light === 'false') return 'dark';
  if (body.classList.contains('vscode-dark') || body.classList.contains('vscode-high-contrast')) return 'dark';
  if (body.classList.contains('vscode-light') || body.classList.contains('vscode-high-contrast-light')) return 'light';
  return null;
}

export function followTheme() {
  const apply = () => {
    const theme = frontEndTheme();
    for (const figure of document.querySelectorAll('attention-playground[data-notebook-theme]')) {
      if (theme === null) figure.removeAttribute('theme');
      else if (figure.getAttribute('theme') !== theme) figure.setAttribute('theme', theme);
    }
  };
  apply();
  new MutationObserver(apply).observe(document.body, { attributes: true, attributeFilter: ['class', 'data-jp-theme-light'] });
  // outputs added later (a cell run again) get it too
  new MutationObserver((records) => {
    if (records.some((r) => r.addedNodes.length)) apply();
  }).observe(document.body, { childList: true, subtree: true });
}
