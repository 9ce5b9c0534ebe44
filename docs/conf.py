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
import re
import shutil
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

# Code colours that keep WCAG AA contrast (4.5:1) for every token, light and
# dark (furo's defaults, tango and native, do not).
pygments_style = "xcode"
pygments_dark_style = "github-dark"
html_theme_options = {
    # a shade under the page's white, so a code block stands out as one
    "light_css_variables": {"color-code-background": "#f6f8fa"},
}

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
    for key in ("body", "furo_navigation_tree", "toc"):
        if isinstance(context.get(key), str):
            context[key] = _accessible(context[key])


def _accessible(html):
    # a toctree caption is a heading, and a heading has a level
    html = html.replace('<p class="caption" role="heading">', '<p class="caption" role="heading" aria-level="2">')
    # a code block or a table that scrolls sideways is reached by the keyboard
    html = html.replace('<div class="highlight"><pre>', '<div class="highlight"><pre tabindex="0">')
    return re.sub(r'<div class="((?:[^"]* )?table-wrapper(?: [^"]*)?)">', r'<div class="\1" tabindex="0">', html)


def _write_css_variables(app, exception):
    if exception is not None:
        return
    # furo's files are copied again on every build, even when no page is written
    fixes = _furo_css_fixes(os.path.join(app.builder.outdir, "_static", "styles", "furo.css"))
    _furo_js_fix(os.path.join(app.builder.outdir, "_static", "scripts"))
    if not getattr(app, "furo_css", None):
        return  # no page written: the file from the last build stands
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
    text += fixes
    path = os.path.join(app.builder.outdir, CSS_VARIABLES)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _furo_css_fixes(furo_css):
    """Debian's furo.css, as packaged, imports normalize.css from the
    server's root (/javascript/normalize.css/normalize.css: a 404 anywhere
    but on a Debian web server) and lacks the dark colours of its "auto"
    theme when the system is dark. The first is copied beside furo.css and
    imported from there; the second comes back here, from furo.css's own
    dark block. Returns the CSS to add to furo-variables.css."""
    with open(furo_css, encoding="utf-8") as f:
        css = f.read()

    def local(match):
        source = os.path.join("/usr/share", match.group(1).lstrip("/"))
        if not os.path.isfile(source):
            raise RuntimeError(f"furo.css imports {match.group(1)}, which is not in {source} (install node-normalize.css)")
        shutil.copyfile(source, os.path.join(os.path.dirname(furo_css), os.path.basename(source)))
        return f"@import url({os.path.basename(source)});"

    fixed = re.sub(r"@import url\((/javascript/[^)]+)\);", local, css)
    if fixed != css:
        with open(furo_css, "w", encoding="utf-8") as f:
            f.write(fixed)
    if "prefers-color-scheme" in css:
        return ""
    dark = re.search(r'@media not print \{\s*body\[data-theme="dark"\] \{([^}]*)\}', css)
    if not dark:
        raise RuntimeError("furo.css has neither an auto dark theme nor a dark block to make one from")
    declarations = "".join(f"      {d.strip()};\n" for d in dark.group(1).split(";") if d.strip())
    return (
        "/* furo's auto theme in a dark system (Debian's furo.css lacks it) */\n"
        "@media not print {\n"
        "  @media (prefers-color-scheme: dark) {\n"
        f'    body:not([data-theme="light"]) {{\n{declarations}    }}\n'
        '    html body:not([data-theme="light"]) .only-light { display: none !important; }\n'
        '    body:not([data-theme="light"]) .only-dark { display: block !important; }\n'
        "  }\n}\n"
    )


def _furo_js_fix(scripts):
    """Debian's furo.js, as packaged, is furo's unbundled ES module source
    (`import Gumshoe from "./gumshoe-patched.js"`), loaded as a classic
    script: a SyntaxError, and no theme toggle or contents scroll-spy. Bundled
    here as furo's own build bundles it: gumshoe (which sets window.Gumshoe)
    then furo.js, in one function, as a classic script."""
    furo_js = os.path.join(scripts, "furo.js")
    with open(furo_js, encoding="utf-8") as f:
        source = f.read()
    statement = 'import Gumshoe from "./gumshoe-patched.js";'
    if statement not in source:
        return
    with open(os.path.join(scripts, "gumshoe-patched.js"), encoding="utf-8") as f:
        gumshoe = f.read()
    # gumshoe's UMD wrapper looks for `define`, `exports` and `global`, which a
    # page's element ids can define (a heading "Exports" is window.exports):
    # they are shadowed, so that it always sets window.Gumshoe.
    bundle = (
        "// furo.js with gumshoe-patched.js, bundled as a classic script (docs/conf.py)\n"
        f"(function () {{\n(function (define, exports, module, global) {{\n{gumshoe}\n}})();\n"
        f"const Gumshoe = window.Gumshoe;\n{source.replace(statement, '')}\n}})();\n"
    )
    with open(furo_js, "w", encoding="utf-8") as f:
        f.write(bundle)


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
