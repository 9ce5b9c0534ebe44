"""Hostile input, fuzzed: any call either returns a figure a notebook can
save (its output as Jupyter writes it, UTF-8) and the element takes, or
raises ValueError/TypeError with one line of the package's own. Seeded
(derandomize) and without deadlines, so a busy machine cannot fail it."""
import json
import re
from html.parser import HTMLParser

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attention_playground as ap
from attention_playground import _assets

known = _assets.element()
# every character, lone surrogates too, and the pieces the element's rules turn on
pieces = ["0", "1", "2", "9", "63", "64", "400", "²", "١", "-1", "1e1", "0x10", " ", "\t", "\r\n", "\x00", "\ufeff",
          "\u2028", "😀", "\ud800", "\udfff", ".", ",", "_", "causal", "none", "10.11", "1.11", "3,1", "nan",
          "Infinity", "https://example.org/", "http://1.2.3.4:80/p", "x.html", "javascript:x", "<", "\"", "&",
          *known["steps"], *known["presets"], "matrices", "graph", "space", "train", "model", "attention", "lecture"]
texts = st.one_of(st.text(max_size=12),  # any character but a surrogate: pieces has those
                  st.lists(st.sampled_from([p for p in pieces if p not in ("\ud800", "\udfff")]), max_size=6).map("".join),
                  st.sampled_from(pieces))
values = st.one_of(
    texts, st.booleans(), st.none(),
    # 10 ** 5000: str() of it raises past 4300 digits
    st.integers(-2 ** 70, 2 ** 70), st.integers(1, 3).map(lambda k: 10 ** (5000 * k)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(0, 70).map(np.int64), st.floats(width=32).map(np.float32), st.booleans().map(np.bool_),
    st.sampled_from([object(), [1], ("a",), {"a": 1}, np.array([1, 2]), np.array("x"), b"1", 1j, str]))
EXAMPLES = 500  # each test; both together take about 10 s
names = st.sampled_from([a.replace("-", "_") for a in known["attributes"] if a not in ("scenario", "step")]
                        + ["colour", "scenario", "head-size", "HEAD"])


def attributes_of(tag):
    """The element's attributes as an HTML parser reads the tag."""
    found = {}

    class Parser(HTMLParser):
        def handle_starttag(self, name, attrs):
            if name == "attention-playground" and not found:
                found.update((k, v or "") for k, v in attrs if k != "data-notebook-theme")

    Parser().feed(tag)
    return found


def saved(figure):
    """The output as Jupyter's notebook file holds it: JSON, UTF-8."""
    html = figure._repr_html_()
    json.dumps({"output_type": "display_data", "data": {"text/html": html}}, ensure_ascii=False).encode("utf-8")
    return html


def refused_in_own_words(error, prefix):
    message = str(error)
    assert message.startswith(prefix) and "\n" not in message and "\r" not in message, message
    message.encode("utf-8")  # a message shows in the notebook too


small = st.one_of(st.integers(-1, 70), st.sampled_from(pieces), st.floats(0, 25))


def sometimes(draw, usual, rarely, odds=8):
    """usual, or rarely once in odds draws (one_of alone leans on its last branches)"""
    return draw(rarely if draw(st.integers(0, odds - 1)) == 0 else usual)


@st.composite
def show_calls(draw):
    """a preset or not, a step or not, and up to four attributes, mostly plausible
    (so the element's rules are reached), sometimes anything"""
    call = {"preset": sometimes(draw, st.sampled_from([None, None, *known["presets"]]), values),
            "step": sometimes(draw, st.sampled_from([None, None, *known["steps"]]), values)}
    for name in draw(st.lists(names, max_size=4, unique=True)):
        call[name] = sometimes(draw, small, values, odds=4)
    return call


@settings(deadline=None, derandomize=True, database=None, max_examples=EXAMPLES)
@given(call=show_calls())
def test_show_any_input(element_checks, call):
    try:
        figure = ap.show(**call)
    except (ValueError, TypeError) as error:
        refused_in_own_words(error, "show: ")
        return
    saved(figure)
    if element_checks is not None:
        assert element_checks.refuses({"attributes": attributes_of(figure.tag())}) is None, call


anything = st.one_of(
    st.lists(st.one_of(texts, values), max_size=4), values,
    hnp.arrays(st.sampled_from([np.float64, np.int8, np.bool_, np.complex64, np.longdouble]),
               hnp.array_shapes(min_dims=0, max_dims=5, min_side=0, max_side=3)),
    st.lists(st.lists(st.one_of(st.floats(), st.integers(-2, 2 ** 70), texts), max_size=3), max_size=3))
weight = st.one_of(st.floats(0, 1), st.sampled_from([0.0, -0.0, 1.0, 1e300, 1e-320]))


@st.composite
def attention_calls(draw):
    """tokens and weights that mostly agree (T tokens, (…, T, T)), and sometimes not."""
    T = draw(st.integers(1, 5))
    # near the element's 200-unit token limit: characters of one and two units
    long = st.lists(st.text(st.sampled_from(["a", "😀", "<"]), min_size=95, max_size=205), min_size=T, max_size=T)
    tokens = sometimes(draw, long if draw(st.integers(0, 3)) == 0 else st.lists(texts, min_size=T, max_size=T), anything)
    lead = draw(st.sampled_from([(), (2,), (2, 3), (2, 1, 3), (1, T)]))
    n = T * T * int(np.prod(lead))
    w = np.array(draw(st.lists(weight, min_size=n, max_size=n)))
    if draw(st.integers(0, 7)) == 0:  # one weight NaN, infinite or negative
        w[draw(st.integers(0, n - 1))] = draw(st.floats(allow_nan=True, allow_infinity=True))
    with np.errstate(all="ignore"):  # NaN or 1e300 cast to int8 or float16: garbage is the point
        w = w.reshape(lead + (T, T)).astype(draw(st.sampled_from([np.float64, np.float32, np.float16, np.int8, np.longdouble])))
    form = draw(st.sampled_from(["array", "array", "list", "layers"]))
    attention = {"array": w, "list": w.tolist(), "layers": [w[i:i + 1] for i in range(len(w))] if w.ndim == 4 else list(w)}[form]
    index = st.one_of(st.none(), st.none(), st.none(), st.integers(-1, 3))
    return dict(tokens=tokens, attention=sometimes(draw, st.just(attention), anything),
                layer=sometimes(draw, index, values), head=sometimes(draw, index, values),
                title=sometimes(draw, st.one_of(st.none(), texts), values))


@settings(deadline=None, derandomize=True, database=None, max_examples=EXAMPLES)
@given(call=attention_calls())
def test_attention_any_input(element_checks, call):
    try:
        figure = ap.attention(call.pop("tokens"), call.pop("attention"), **call)
    except (ValueError, TypeError) as error:
        refused_in_own_words(error, "attention: ")
        return
    # the figure's own data: the engine sent before it may hold the same words
    data = re.search(r'<attention-playground[^>]*><script type="application/json">(.*?)</script>', saved(figure), re.S)[1]
    if element_checks is not None:
        assert element_checks.refuses({"json": data}) is None, call
