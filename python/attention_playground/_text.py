"""Text as the element sees it, and user values inside messages.

The element is JavaScript: a string's length is its UTF-16 units (😀 is
2), its \\s and trim() know their own whitespace, Number() its own
numerals. Every length and every parse here measures as it does, so a
value the cell accepts is one the figure accepts.
"""
import re

import numpy as np

# JavaScript's WhiteSpace and LineTerminator (trim(), \s): not Python's
# str.isspace, which also has U+001C-U+001F and U+0085 but not U+FEFF
JS_SPACE = "\t\n\x0b\x0c\r \xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000\ufeff"
_js_space = f"[{re.escape(JS_SPACE)}]"
_surrogate = re.compile("[\ud800-\udfff]")


def units(text):
    """The length JavaScript gives: UTF-16 units (a character past U+FFFF is two)."""
    return len(text) + sum(1 for c in text if c > "\uffff")


def js_trim(text):
    return text.strip(JS_SPACE)


def js_words(text):
    """text.trim().split(/\\s+/).filter(Boolean)"""
    return [w for w in re.split(f"{_js_space}+", js_trim(text)) if w]


def js_has_space(text):
    return re.search(_js_space, text) is not None


_decimal = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_radix = {"x": (16, re.compile(r"0[xX][0-9a-fA-F]+")), "o": (8, re.compile(r"0[oO][0-7]+")), "b": (2, re.compile(r"0[bB][01]+"))}


def js_number(text):
    """Number(text): NaN for what JavaScript does not read as a number
    (float() would read '1_0', 'nan' and Arabic-Indic digits)."""
    t = js_trim(text)
    if t == "":
        return 0.0
    if t in ("Infinity", "+Infinity", "-Infinity"):
        return float(t.replace("Infinity", "inf"))
    if _decimal.fullmatch(t):
        return float(t)  # an exponent past the range is inf, as in JavaScript
    if len(t) > 2 and t[1].lower() in _radix:
        base, pattern = _radix[t[1].lower()]
        if pattern.fullmatch(t):
            n = int(t[2:], base)
            return float(n) if n.bit_length() <= 1024 else float("inf")
    return float("nan")


def quote(text, max=40):
    """User text inside a message: repr (one line, control and invisible
    characters escaped, a lone surrogate too), shortened past max."""
    if len(text) <= max:
        return repr(text)
    shown = repr(text[:max])
    return f"{shown[:-1]}…{shown[-1]} ({units(text)} characters)"


def kind(value):
    """A value's type name for a message (a class's name can be any text)."""
    name = type(value).__name__
    return name if name.isidentifier() and len(name) <= 40 else quote(name)


def shown(value):
    """Any value inside a message, one short line: text quoted, a number
    written (a huge one by its size: str() of one past 4300 digits raises),
    anything else by its type."""
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, (int, np.integer)):
        n = int(value)
        return str(n) if n.bit_length() <= 64 else f"a whole number of {n.bit_length()} bits"
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return kind(value)


def checked(fail, name, text):
    """text unless the element could not get it as given: a lone surrogate
    (half of a UTF-16 pair) cannot be written as UTF-8, so the notebook
    could not save the figure; the page itself never makes one."""
    bad = _surrogate.search(text)
    if bad:
        fail(f"{name} holds a lone surrogate (U+{ord(bad[0]):04X} at character {bad.start()}), "
             f"which a notebook cannot save as UTF-8; give whole characters")
    return text
