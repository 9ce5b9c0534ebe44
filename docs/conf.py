# The documentation site: Sphinx, MyST Markdown and the furo theme, all from
# Debian's packages. Built by `make docs` into build/docs/.
import os
import sys

# The notebook package's API pages come from its docstrings (autodoc).
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "python")))

project = "Attention Playground"
author = "The Attention Playground authors"
extensions = ["myst_parser", "sphinx.ext.autodoc"]
html_theme = "furo"
exclude_patterns = ["README.md", "images"]

# Links to a heading of another page: [text](../reference/cli.md#trace)
myst_heading_anchors = 3
