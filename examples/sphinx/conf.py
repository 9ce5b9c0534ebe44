# A real Sphinx site (Debian's python3-sphinx 5.3, the alabaster theme) that
# embeds Attention Playground figures. Build:
#   make dist && mkdir -p examples/sphinx/_static/attention-playground \
#     && cp -r dist/. examples/sphinx/_static/attention-playground/ \
#     && rm -rf examples/sphinx/_static/attention-playground/docs
#   sphinx-build -b html examples/sphinx build/sphinx
# The browser tests build it so and serve it under a sub-path with a strict
# Content-Security-Policy.
project = "Attention, step by step"
html_theme = "alabaster"
html_static_path = ["_static"]

# The element: one module script on every page.
html_js_files = [("attention-playground/attention-playground.js", {"type": "module"})]

# Under a strict CSP (no 'unsafe-inline'): alabaster's search box is an inline
# <script> and an inline style="display: none", both blocked. Its other
# sidebars have neither.
html_sidebars = {"**": ["about.html", "navigation.html", "relations.html"]}

# Without one, the browser asks the site's root for /favicon.ico.
html_favicon = "_static/attention-playground/favicon.svg"
