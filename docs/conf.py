# The documentation site: Sphinx, MyST Markdown and the furo theme, all from
# Debian's packages. Built by `make docs` into build/docs/.
project = "Attention Playground"
author = "The Attention Playground authors"
extensions = ["myst_parser"]
html_theme = "furo"
exclude_patterns = ["README.md", "images"]
