"""The element's attribute rules in Python: web/element/settings.js's
readSettings with web/state/state.js's props, parseValue and describe, in
their order, so show() refuses in the cell, with the element's words, what
the figure would refuse inside itself. element.json carries the names, the
presets and the steps; the rest is written here, and tests/test_parity.py
checks it against web/ (with node) wherever the checkout is.
"""
import re

from ._text import js_has_space, js_number, js_trim, units

lesson_ids = ["trick", "qkv", "encoder", "cross", "multihead", "scaling", "space", "position", "learn", "lecture"]
views = ["matrices", "graph", "both", *lesson_ids, "train", "model", "attention"]
speeds = ["10", "25", "50", "100", "0"]
default_scenario = "sun-rises-causal"
default_sentence = "The sun rises in the east"
max_words = 64  # web/state/sentence.js
# whole numbers: (min, max), state.js's props (steps: settings.js's own)
ints = {"head": (0, 63), "batch": (0, 63), "heads": (1, 8), "head-size": (1, 64), "value-size": (1, 64),
        "embed": (1, 64), "seed": (0, 2 ** 31 - 1), "steps": (1, 100000), "layer": (0, 63)}
temperature = (0.05, 20)
text_max = 400  # sentence, caption, model and text
mask_limit = 64

_int = re.compile(r"[0-9]{1,10}")
_mask = re.compile(r"[01]+(?:\.[01]+)*")
_highlight = re.compile(r"([0-9]{1,3})(?:,([0-9]{1,3}))?")
_control = re.compile("[\x00-\x1f\x7f]")


def read(known, given, shown, fail):
    """known: element.json; given: attribute name → its text, as the tag
    writes it; shown: name → the value as the message shows it. Returns the settings the element
    reads (view, sentence, scenario, head, batch, heads, highlight, mask),
    or calls fail(one line)."""
    has = given.__contains__
    py = lambda name: name.replace("-", "_")  # noqa: E731: the keyword's name in messages

    def one_of(name, values, default):
        if not has(name):
            return default
        if given[name] not in values:
            fail(f"{py(name)} must be one of {', '.join(values)}; got {shown[name]}")
        return given[name]

    def whole(name):
        low, high = ints[name]
        text = given[name]
        if not _int.fullmatch(text) or not low <= int(text) <= high:
            fail(f"{py(name)} must be a whole number from {low} to {high}; got {shown[name]}")
        return int(text)

    s = {}
    s["view"] = one_of("view", views, "both")
    one_of("controls", ["full", "player", "none"], None)
    one_of("theme", ["light", "dark", "auto"], None)
    s["step"] = one_of("step", known["steps"], "weights")
    one_of("layout", ["arcs", "columns"], None)
    for name in ("head", "batch"):
        s[name] = whole(name) if has(name) else 0
    s["mask"] = None
    if has("mask"):
        s["mask"] = _read_mask(given["mask"])
        if s["mask"] is None:
            fail(f"mask must be causal, none, or up to {mask_limit} rows of up to {mask_limit} 0/1 joined by dots; got {shown['mask']}")
    if has("scale") and given["scale"] not in ("0", "1"):
        fail(f"scale must be 0 or 1; got {shown['scale']}")
    if has("temperature"):
        n = js_number(given["temperature"])
        low, high = temperature
        if given["temperature"] == "" or not low <= n <= high:  # NaN and inf are outside
            fail(f"temperature must be a number from {low} to {high}; got {shown['temperature']}")

    if has("scenario") and has("sentence"):
        fail("give a preset or a sentence, not both")
    sentence_only = known.get("sentenceOnly", ())
    sized = [name for name in sentence_only if has(name)]
    if has("scenario") and sized:
        fail(f"{py(sized[0])} applies to a sentence; preset {shown['scenario']} fixes its own sizes "
             f"(give sentence= to size your own)")
    s["sentence"] = given.get("sentence", default_sentence if sized else None)
    s["scenario"] = given.get("scenario", default_scenario) if s["sentence"] is None else None
    if s["sentence"] is not None:
        if js_trim(s["sentence"]) == "":
            fail("sentence must have at least one word")
        if units(s["sentence"]) > text_max:
            fail(f"sentence must be at most {text_max} characters; got {units(s['sentence'])}")
    for name in sentence_only:
        if has(name):
            s[name] = whole(name)
    s["heads"] = s.get("heads", 1)

    if has("positions"):
        if given["positions"] not in ("0", "1"):
            fail(f"positions must be 0 or 1; got {shown['positions']}")
        if s["view"] != "space":
            fail('positions applies to view="space", the lesson on position encodings')
    s["highlight"] = None
    if has("highlight"):
        m = _highlight.fullmatch(given["highlight"])
        if not m:
            fail(f"highlight must be a row, like 3, or a cell, like 3,1; got {shown['highlight']}")
        s["highlight"] = (int(m[1]), None if m[2] is None else int(m[2]))
    if has("caption") and units(given["caption"]) > text_max:
        fail(f"caption must be at most {text_max} characters; got {units(given['caption'])}")

    for name in ("training", "steps", "speed"):
        if has(name) and s["view"] != "train":
            fail(f'{name} applies to view="train"')
    if has("training") and js_trim(given["training"]) == "":
        fail("training must be a training preset id or the URL of a training file")
    if has("steps"):
        whole("steps")
    one_of("speed", speeds, None)

    for name in ("model", "text"):
        if has(name) and s["view"] != "model":
            fail(f'{name} applies to view="model"')
    if has("layer") and s["view"] not in ("model", "attention"):
        fail('layer applies to view="model" or view="attention"')
    if has("model"):
        model = given["model"]
        if not 0 < units(model) <= text_max or _control.search(model) or js_has_space(model):
            fail(f"model must be a model preset id or a URL on this site, up to {text_max} characters "
                 f"without spaces; got {shown['model']}")
    if has("text") and not 0 < units(given["text"]) <= text_max:
        fail(f"text must be 1 to {text_max} characters; got {shown['text']}")
    if has("layer"):
        whole("layer")
    return s


def _read_mask(text):
    """state.js's maskFromText: 'causal', 'none' or rows (None if refused)."""
    if text in ("causal", "none"):
        return text
    if units(text) > mask_limit * (mask_limit + 1) or not _mask.fullmatch(text):
        return None
    rows = text.split(".")
    if len(rows) > mask_limit or len(rows[0]) > mask_limit or any(len(r) != len(rows[0]) for r in rows):
        return None
    return rows
