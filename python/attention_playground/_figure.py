"""A figure: the <attention-playground> tag, and the engine once per page.

The engine (about 1 MB: the element's modules, its CSS, the presets and the
core's wasm) goes into the first figure a kernel session displays; later
figures find it on ``window`` (``window.__attentionPlayground``). A front end
that renders only some outputs, or shows each in its own frame, loses it:
the tag's own text then says so, and ``ap.inline("every")`` puts the engine
into every output (``ap.engine()`` into one).
"""
import html
import json

from ._assets import engine_script, version

_mode = "once"
_sent = False  # the engine went out in this kernel session


def inline(mode):
    """'once' (default): the engine in the session's first figure only;
    'every': in every figure's output (front ends that isolate outputs)."""
    global _mode
    if mode not in ("once", "every"):
        raise ValueError(f"inline: mode must be 'once' or 'every'; got {mode!r}")
    _mode = mode


def _engine_html():
    # </script> cannot occur inside: the bundle is minified JS whose strings
    # never hold it (checked by the tests); the script is a classic one.
    return f'<script data-attention-playground-engine="{html.escape(version())}">{engine_script()}</script>'


class Engine:
    """Output that carries only the engine (for a page whose first figure is gone)."""

    def _repr_html_(self):
        global _sent
        _sent = True
        return _engine_html()


def engine():
    return Engine()


_fallback = ("Attention Playground: loading. If this line stays, this page lacks the engine that the "
             "notebook's first figure carries: run ap.engine() in a cell, or ap.inline(\"every\").")


class Figure:
    """One figure: attributes of the element, and JSON data inside it (view="attention")."""

    def __init__(self, attributes, data=None, notes=()):
        self.attributes = dict(attributes)
        self.data = data
        self.notes = tuple(notes)
        self._with_engine = None

    def json(self):
        """The data's JSON as the element reads it (its <script>'s text)."""
        # "<" escaped, so no text can close the <script>
        text = json.dumps(self.data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        return text.replace("<", "\\u003c")

    def tag(self):
        """The element alone, without the engine."""
        # a CR as a reference: the HTML parser turns a written CR (and CR LF)
        # into LF, which would change the text and its length
        attrs = "".join(
            f' {name}' if value == "" else f' {name}="{html.escape(value, quote=True).replace(chr(13), "&#13;")}"'
            for name, value in self.attributes.items())
        # the theme follows the front end's (JupyterLab's, VS Code's) unless given
        if "theme" not in self.attributes:
            attrs += " data-notebook-theme"
        inside = "" if self.data is None else f'<script type="application/json">{self.json()}</script>'
        notes = "".join(f'<p class="attention-playground-note">{html.escape(n)}</p>' for n in self.notes)
        return (f'<attention-playground{attrs}>{inside}<p class="attention-playground-fallback">{html.escape(_fallback)}</p></attention-playground>{notes}')

    def _repr_html_(self):
        global _sent
        if self._with_engine is None:
            self._with_engine = _mode == "every" or not _sent
            _sent = _sent or self._with_engine
        engine = _engine_html() if self._with_engine else ""
        return f'<div class="attention-playground-output" style="max-width:100%">{engine}{self.tag()}</div>'

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in self.attributes.items())
        return f"<attention_playground figure {shown}>"
