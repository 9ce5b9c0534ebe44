# The documentation site: Sphinx, MyST Markdown and the furo theme, all from
# Debian's packages. Built by `make docs` into build/docs/, with the built
# playground copied into build/docs/playground/: every page loads the
# <attention-playground> element from there (_templates/base.html).
#
# The site passes the playground's strict Content-Security-Policy (no inline
# script or style) and links nowhere outside itself: _templates/ replaces
# furo's inline theme script, its inline CSS variables, its hidden icon
# sprite's style attribute and its footer's outside links.
import os
import sys

# The notebook package's API pages come from its docstrings (autodoc).
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "python")))

project = "Attention Playground"
author = "The Attention Playground authors"
copyright = "The Attention Playground authors, MIT License"
extensions = ["myst_parser", "sphinx.ext.autodoc"]
html_theme = "furo"
html_title = "Attention Playground"
exclude_patterns = ["README.md", "images"]

# Links to a heading of another page: [text](../reference/cli.md#trace)
myst_heading_anchors = 3

templates_path = ["_templates"]
html_static_path = ["_static"]
# site.css: what furo's inline styles did, and the element inside furo's
# column. (_static/theme.js is loaded by _templates/base.html.)
html_css_files = ["site.css"]
# Without one, the browser asks the site's root for /favicon.ico.
html_favicon = "../web/favicon.svg"
# Sphinx's index pages carry inline style attributes; the site has the
# search page instead.
html_use_index = False
html_domain_indices = False

# furo's CSS variables (the code blocks' colours, light and dark), which it
# writes as an inline <style>, go to this file; _templates/base.html links it.
CSS_VARIABLES = "_static/furo-variables.css"


def _css_variables(selector, colors, custom, indent):
    values = {"color-code-background": colors["background"], "color-code-foreground": colors["foreground"], **(custom or {})}
    inner = "".join(f"{indent}  --{name}: {value};\n" for name, value in values.items())
    return f"{indent}{selector} {{\n{inner}{indent}}}\n"


def _keep_theme_context(app, pagename, templatename, context, doctree):
    # after furo's own handler (priority 500), which computes furo_pygments
    if "furo_pygments" in context:
        app.furo_css = (
            context["furo_pygments"],
            context.get("theme_light_css_variables"),
            context.get("theme_dark_css_variables"),
        )
    # docutils' generator <meta> names an outside URL
    context["metatags"] = "\n".join(
        line for line in context.get("metatags", "").splitlines() if 'name="generator"' not in line
    )


def _write_css_variables(app, exception):
    if exception is not None or not getattr(app, "furo_css", None):
        return
    pygments, light, dark = app.furo_css
    text = (
        "/* furo's CSS variables, as its inline <style> would set them (conf.py) */\n"
        + _css_variables("body", pygments["light"], light, "")
        + "@media not print {\n"
        + _css_variables('body[data-theme="dark"]', pygments["dark"], dark, "  ")
        + "  @media (prefers-color-scheme: dark) {\n"
        + _css_variables('body:not([data-theme="light"])', pygments["dark"], dark, "    ")
        + "  }\n}\n"
    )
    path = os.path.join(app.builder.outdir, CSS_VARIABLES)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _drop_jquery(app):
    # Sphinx 5 still adds jQuery and underscore.js for old extensions; no
    # script of this site uses them.
    unused = {"_static/jquery.js", "_static/underscore.js", "_static/_sphinx_javascript_frameworks_compat.js"}
    builder = app.builder
    if hasattr(builder, "script_files"):
        builder.script_files[:] = [s for s in builder.script_files if str(s) not in unused]


def setup(app):
    app.connect("builder-inited", _drop_jquery)
    app.connect("html-page-context", _keep_theme_context, priority=900)
    app.connect("build-finished", _write_css_variables)
