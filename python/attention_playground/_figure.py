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
    """Choose which figures' outputs carry the element's engine.

    The engine is one script of about 1 MB: the element, its styles, the
    presets and the core's wasm. The page needs it once; a figure without
    it finds it on the page.

    :param mode: ``"once"`` (the default): only the first figure the kernel
        displays carries the engine. ``"every"``: every figure's
        output carries it, for front ends that show each output in its own
        frame, or show only some outputs.
    :type mode: str
    :returns: None
    :raises ValueError: for any other mode.

    Example::

        import attention_playground as ap

        ap.inline("every")
    """
    global _mode
    if mode not in ("once", "every"):
        raise ValueError(f"inline: mode must be 'once' or 'every'; got {mode!r}")
    _mode = mode


def _engine_html():
    # </script> cannot occur inside: the bundle is minified JS whose strings
    # never hold it (checked by the tests); the script is a classic one.
    return f'<script data-attention-playground-engine="{html.escape(version())}">{engine_script()}</script>'


class Engine:
    """An output that carries only the engine: what :func:`engine` returns."""

    def _repr_html_(self):
        global _sent
        _sent = True
        return _engine_html()


def engine():
    """An output that carries only the element's engine.

    Display it in a cell when the page lost the figure that carried the
    engine (its output cleared, or not rendered): the figures then load.
    Each figure without the engine says so in a line of its own.

    :returns: an output whose ``_repr_html_`` is the engine's ``<script>``.

    Example::

        import attention_playground as ap

        ap.engine()
    """
    return Engine()


_fallback = ("Attention Playground: loading. If this line stays, this page lacks the engine that the "
             "notebook's first figure carries: run ap.engine() in a cell, or ap.inline(\"every\").")


class Figure:
    """One figure: the element's attributes, and its data for given weights.

    :func:`show` and :func:`attention` make figures. A notebook displays one
    through its ``_repr_html_``: the element, and the engine when
    :func:`inline` says this figure carries it. Outside a notebook,
    :meth:`tag` gives the element alone.

    :param attributes: the element's attributes, name to text as the tag
        writes it (``""`` writes a bare attribute).
    :type attributes: dict
    :param data: the JSON data inside the element (``view="attention"``),
        or None.
    :type data: dict or None
    :param notes: lines of text shown under the figure.
    :type notes: tuple of str
    """

    def __init__(self, attributes, data=None, notes=()):
        self.attributes = dict(attributes)
        self.data = data
        self.notes = tuple(notes)
        self._with_engine = None

    def json(self):
        """The data's JSON, as the element reads it.

        This is the text of the ``<script type="application/json">`` inside
        the element: compact, with ``<`` escaped so no text can close the
        script.

        :returns: the JSON text.
        :rtype: str
        :raises ValueError: if the data holds NaN or an infinity (JSON has
            neither; :func:`attention` refuses them first).
        """
        # "<" escaped, so no text can close the <script>
        text = json.dumps(self.data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        return text.replace("<", "\\u003c")

    def tag(self):
        """The element's HTML alone, without the engine.

        For a page that loads the element itself, such as a documentation
        site that ships the playground. The tag also holds a fallback line,
        shown until the element is defined. Without a ``theme`` attribute
        the figure follows the front end's theme.

        :returns: the ``<attention-playground>`` element's HTML.
        :rtype: str

        Example::

            import attention_playground as ap

            html = ap.show(preset="bank-raw", view="graph").tag()
        """
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
