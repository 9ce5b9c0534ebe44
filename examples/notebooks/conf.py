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
# (no widgets here), no MathJax (no math in these notebooks).
nbsphinx_requirejs_path = ""
html_sidebars = {"**": ["about.html", "navigation.html"]}
