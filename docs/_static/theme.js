// furo's light / dark / auto choice, which its toggle (furo.js) keeps in
// localStorage, set on <body> before the page paints. furo writes this as an
// inline script, which the playground's strict Content-Security-Policy
// blocks; base.html loads this file at the same place instead.
let chosen = 'auto';
try {
  chosen = localStorage.getItem('theme') || 'auto';
} catch {
  // storage refused (a file:// page in some browsers): the system's choice
}
document.body.dataset.theme = chosen;

// A figure whose author gave it no theme follows the toggle: theme="auto"
// follows the system as furo's "auto" does, and a chosen light or dark is
// passed on to it.
function followTheme() {
  const theme = document.body.dataset.theme || 'auto';
  for (const figure of document.querySelectorAll('attention-playground')) {
    if (!('followsPage' in figure.dataset)) {
      if (figure.hasAttribute('theme')) continue;
      figure.dataset.followsPage = '';
    }
    if ((figure.getAttribute('theme') ?? 'auto') !== theme) figure.setAttribute('theme', theme);
  }
}
document.addEventListener('DOMContentLoaded', () => {
  followTheme();
  new MutationObserver(followTheme).observe(document.body, { attributes: true, attributeFilter: ['data-theme'] });
});
