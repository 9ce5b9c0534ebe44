"""ap.show: a preset (or a sentence) played by the core, as on the site."""
import numbers

import numpy as np

from ._assets import element
from ._figure import Figure


def _value(name, value):
    """An attribute's text: True is present (""), numbers and text as written."""
    if isinstance(value, (bool, np.bool_)):
        return "" if value else None
    if isinstance(value, (numbers.Real, str)):  # numpy's numbers too (heads=np.int64(2))
        return str(value)
    raise ValueError(f"show: {name} must be text, a number or True/False; got {type(value).__name__}")


def show(preset=None, step=None, **attributes):
    """The <attention-playground> element: ``preset`` is its ``scenario``,
    ``step`` its step, any other keyword the attribute of that name with
    ``_`` written as ``-`` (``head_size=8`` → ``head-size="8"``).
    Raises ValueError naming an unknown attribute, preset or step."""
    known = element()
    given = {}
    if preset is not None:
        if not isinstance(preset, str) or preset not in known["presets"]:
            raise ValueError(f"show: no preset {preset!r}; the presets are {', '.join(known['presets'])}")
        given["scenario"] = preset
    if step is not None:
        if step not in known["steps"]:
            raise ValueError(f"show: no step {step!r}; the steps are {', '.join(known['steps'])}")
        given["step"] = step
    for key, value in attributes.items():
        name = key.replace("_", "-")
        if name == "scenario":
            raise ValueError("show: scenario is given as preset= (a notebook has no site to load a scenario file from)")
        if name not in known["attributes"] or name == "step":
            raise ValueError(f"show: unknown attribute {key!r}; the attributes are preset, step, "
                             f"{', '.join(a.replace('-', '_') for a in known['attributes'] if a not in ('scenario', 'step'))}")
        if name == "view" and value == "attention":
            raise ValueError('show: view="attention" shows given weights: call ap.attention(tokens, attention)')
        text = _value(key, value)
        if text is not None:
            given[name] = text
    if "scenario" in given and "sentence" in given:
        raise ValueError("show: give a preset or a sentence, not both")
    # the element would refuse these inside the figure; the cell says it first
    sized = [name for name in known.get("sentenceOnly", ()) if name in given]
    if "scenario" in given and sized:
        raise ValueError(f"show: {sized[0].replace('-', '_')} applies to a sentence; preset {given['scenario']!r} "
                         f"fixes its own sizes (give sentence= to size your own)")
    _within_preset(known, given)
    return Figure(given)


def _within_preset(known, given):
    """step, head and batch checked against the preset's trace (its facts
    are the core's, computed when the package's assets were built)."""
    facts = known.get("presetFacts", {}).get(given.get("scenario"))
    if facts is None or given.get("view", "both") not in ("matrices", "graph", "both"):
        return  # a lesson plays its own scenarios
    preset = given["scenario"]
    if "step" in given and given["step"] not in facts["steps"]:
        raise ValueError(f"show: step {given['step']!r} needs a preset with rotary positions; "
                         f"{preset!r} has the steps {', '.join(facts['steps'])}")
    for name, count, what in (("head", facts["heads"], "head"), ("batch", facts["batch"], "batch element")):
        text = given.get(name, "")
        if text.isdigit() and int(text) >= count:
            raise ValueError(f"show: {name} {int(text)} is beyond preset {preset!r}, which has {count} "
                             f"{what}{'s' if count != 1 else ''} (from 0)")
