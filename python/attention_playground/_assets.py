"""The page assets built into the package (scripts/notebook-bundle.mjs):
engine.js, the element's bundle, and element.json, what its tag accepts."""
import functools
import json
import pathlib

_here = pathlib.Path(__file__).parent / "assets"


@functools.lru_cache(maxsize=None)
def element():
    """{version, attributes, sentenceOnly, presets, steps, attention: {limits}}"""
    return json.loads((_here / "element.json").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def engine_script():
    return (_here / "engine.js").read_text(encoding="utf-8")


def version():
    return element()["version"]
