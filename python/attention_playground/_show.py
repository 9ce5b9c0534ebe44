"""ap.show: a preset (or a sentence) played by the core, as on the site."""
import re

import numpy as np

from . import _settings
from ._assets import element
from ._figure import Figure
from ._text import checked, js_words, kind, quote, shown


def _fail(message):
    raise ValueError(f"show: {message}")


def _value(key, value):
    """An attribute's text: True is present (""), numbers and text as written.
    Only these types: str() of any other object is the object's own code."""
    if isinstance(value, (bool, np.bool_)):
        return "" if value else None
    if isinstance(value, str):
        text = str.__str__(value)  # a str subclass's __str__ is not the text
    elif isinstance(value, (int, np.integer)):  # numpy's numbers too (heads=np.int64(2))
        n = int.__int__(value) if isinstance(value, int) else int(value)
        if n.bit_length() > 1400:  # str() refuses past 4300 digits; no attribute takes 400
            _fail(f"{key} is a whole number of {n.bit_length()} bits; no attribute takes one so long")
        text = str(n)
    elif isinstance(value, np.floating):
        text = str(value)  # float32's shortest form: 0.5, 0.1
    elif isinstance(value, float):
        text = float.__repr__(value)
    else:
        _fail(f"{key} must be text, a number or True/False; got {kind(value)}")
    checked(_fail, key, text)
    if "\x00" in text:
        _fail(f"{key} holds a NUL character (U+0000), which HTML turns into U+FFFD; leave it out")
    return text


def show(preset=None, step=None, **attributes):
    """The ``<attention-playground>`` element, playing a preset or your sentence.

    Every keyword is an attribute of the element (see the element's
    reference). ``preset`` is its ``scenario``, ``step`` its ``step``, and
    any other keyword the attribute of that name with ``_`` written as ``-``:
    ``head_size=8`` writes ``head-size="8"``. ``True`` writes a bare
    attribute (``autoplay=True``); ``False`` leaves it out. Each value is
    checked as the element checks its attribute, so the cell refuses what
    the figure would refuse, in the element's words.

    :param preset: a preset id, such as ``"karpathy-value"``. Without it the
        element plays ``sun-rises-causal``, or your ``sentence=``.
    :type preset: str or None
    :param step: the step shown: ``"x"``, ``"qkv"``, ``"rotate"`` (a preset
        with rotary positions only), ``"scores"``, ``"scaled"``,
        ``"masked"``, ``"weights"`` (the default) or ``"out"``.
    :type step: str or None
    :param attributes: any other attribute of the element (``view``,
        ``head``, ``sentence``, ``heads``, ``mask``, ``temperature``,
        ``caption``, ...), as text, a whole number, a float, or
        ``True``/``False``. Lengths count UTF-16 units, as the element does.
    :returns: the figure; a notebook shows it through its ``_repr_html_``.
    :rtype: Figure
    :raises ValueError: one line starting ``show:``, for an unknown
        attribute, preset or step (listing the known ones); a value the
        attribute does not take; an attribute that sizes a sentence's model
        (``heads``, ``head_size``, ``value_size``, ``embed``, ``seed``) with
        a preset, which fixes its own sizes; ``scenario=`` (give
        ``preset=``); ``view="attention"`` (call :func:`attention`); a
        ``step``, ``head`` or ``batch`` beyond the preset, or a ``head``,
        ``highlight`` or ``mask`` beyond the sentence; text with a lone
        surrogate or a NUL character; a ``playground`` that is not a full
        http or https URL.

    Example::

        import attention_playground as ap

        ap.show(preset="karpathy-value", step="weights")
        ap.show(sentence="the sun rises and sets", view="graph", heads=2)
        ap.show(preset="sun-rises-causal", mask="none", temperature=0.5, highlight="2,1")
    """
    known = element()
    given, seen = {}, {}
    if preset is not None:
        if not isinstance(preset, str) or preset not in known["presets"]:
            _fail(f"no preset {shown(preset)}; the presets are {', '.join(known['presets'])}")
        given["scenario"] = preset
        seen["scenario"] = quote(preset)
    if step is not None:
        if not isinstance(step, str) or step not in known["steps"]:
            _fail(f"no step {shown(step)}; the steps are {', '.join(known['steps'])}")
        given["step"] = step
        seen["step"] = quote(step)
    names = {}
    for key, value in attributes.items():
        name = key.replace("_", "-")
        if name == "scenario":
            _fail("scenario is given as preset= (a notebook has no site to load a scenario file from)")
        if name not in known["attributes"] or name == "step":
            _fail(f"unknown attribute {quote(key)}; the attributes are preset, step, "
                  f"{', '.join(a.replace('-', '_') for a in known['attributes'] if a not in ('scenario', 'step'))}")
        if name in names:
            _fail(f"{names[name]} is given twice, as {quote(names[name])} and {quote(key)}")
        names[name] = key
        text = _value(key, value)
        if text is None:
            continue
        if name == "view" and text == "attention":
            _fail('view="attention" shows given weights: call ap.attention(tokens, attention)')
        given[name] = text
        seen[name] = shown(value)
    settings = _settings.read(known, given, seen, _fail)
    if "playground" in given:
        _playground(given["playground"], seen["playground"])
    _within_scenario(known, settings)
    return Figure(given)


# The playground's page, as the element reads it: new URL(text,
# document.baseURI), http or https. A notebook's page may be a file, so only
# an absolute URL is sure to be read; the host is kept to what every URL
# parser takes (letters, digits, hyphens; an IPv4 address), without userinfo.
_octet = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_url = re.compile(rf"https?://(?:(?:(?!xn--)[A-Za-z0-9-]+\.)*(?!xn--)[A-Za-z][A-Za-z0-9-]*\.?|{_octet}(?:\.{_octet}){{3}})"
                  r"(?::([0-9]{0,5}))?(?:[/?#\\].*)?", re.ASCII | re.IGNORECASE | re.DOTALL)


def _playground(text, shown_text):
    # the URL parser's own trimming: C0 controls and spaces at the ends, tabs and newlines anywhere
    url = re.sub("[\t\n\r]", "", text.strip("".join(map(chr, range(0x21)))))
    m = _url.fullmatch(url)
    if not m or (m[1] and int(m[1]) > 65535):
        _fail(f"playground must be the full http or https URL of the playground's page "
              f"(a notebook's page may be a file, so not a relative one); got {shown_text}")


def _within_scenario(known, s):
    """step, head, batch, highlight and mask within the scenario the figure
    plays: a sentence's (its words, its heads) or a preset's (the core's
    facts, computed when the package's assets were built)."""
    if s["view"] not in ("matrices", "graph", "both"):
        return  # a lesson, a training or a model plays its own
    if s["sentence"] is not None:
        words = js_words(s["sentence"])
        if len(words) > _settings.max_words:
            _fail(f"sentence has {len(words)} words; the element takes up to {_settings.max_words}")
        where = "the sentence"
        facts = {"heads": s["heads"], "batch": 1, "steps": [t for t in known["steps"] if t != "rotate"]}
        size = len(words)
    else:
        facts = known.get("presetFacts", {}).get(s["scenario"])
        if facts is None:
            return
        where = f"preset {quote(s['scenario'])}"
        size = None  # element.json does not say a preset's tokens: the figure checks those
    if s["step"] not in facts["steps"]:
        _fail(f"step {quote(s['step'])} needs a preset with rotary positions; "
              f"{'the sentence has' if size is not None else where + ' has'} the steps {', '.join(facts['steps'])}")
    for name, count, what in (("head", facts["heads"], "head"), ("batch", facts["batch"], "batch element")):
        if s[name] >= count:
            more = "; give heads= for more" if name == "head" and size is not None else ""
            _fail(f"{name} {s[name]} is beyond {where}, which has {count} {what}{'s' if count != 1 else ''} (from 0){more}")
    mask = s["mask"]
    if isinstance(mask, list):
        for i, row in enumerate(mask):
            if "1" not in row:
                _fail(f"mask row {i} allows no position: each row needs a 1")
        if size is not None and (len(mask), len(mask[0])) != (size, size):
            _fail(f"mask is {len(mask)} × {len(mask[0])} but the sentence has {size} words: give {size} rows of {size}")
    if s["highlight"] is not None and size is not None:
        for axis, i in zip(("row", "column"), s["highlight"]):
            if i is not None and i >= size:
                _fail(f"highlight: {axis} {i} is beyond the sentence's {size} words (from 0)")
