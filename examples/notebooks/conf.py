# A documentation site built from notebooks: Sphinx (Debian's python3-sphinx)
# with nbsphinx (python3-nbsphinx) executes each notebook here, committed
# without outputs, and renders it with its Attention Playground figures (the
# package's own script, inlined in the first figure's output: no files to copy).
# Build, with the package installed in VENV (python/README.md):
#   VENV/bin/python -m sphinx -b html examples/notebooks build/notebooks-site
project = "Attention in a notebook"
html_theme = "alabaster"
extensions = ["nbsphinx"]
exclude_patterns = ["_build", "**.ipynb_checkpoints", "README.md"]
nbsphinx_execute = "always"
nbsphinx_kernel_name = "python3"
nbsphinx_timeout = 120
# The page works from file:// with no network: no require.js from a CDN
# (no widgets here), no MathJax (no math in these notebooks; setup below).
nbsphinx_requirejs_path = ""
html_sidebars = {"**": ["about.html", "navigation.html"]}


# nbsphinx asks Sphinx for MathJax (from a CDN) on every notebook page; these
# notebooks have no math, and the page must work offline: it is left out.
def _no_mathjax(app, pagename, templatename, context, doctree):
    if "script_files" in context:
        context["script_files"] = [f for f in context["script_files"] if "mathjax" not in str(f).lower()]


def setup(app):
    app.connect("html-page-context", _no_mathjax, priority=900)
