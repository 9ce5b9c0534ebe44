"""ap.show: the tag it writes, the engine once per session, every refusal."""
import html
import re

import pytest

import attention_playground as ap
from attention_playground import _assets


def tag_of(figure):
    match = re.search(r"<attention-playground\b([^>]*)>", figure.tag())
    assert match, figure.tag()
    return dict((m[0], html.unescape(m[2] if m[2] is not None else ""))
                for m in re.findall(r'\s([a-z-]+)(="([^"]*)")?', match[1]))


def test_preset_and_step_become_scenario_and_step():
    attributes = tag_of(ap.show(preset="karpathy-value", step="weights"))
    assert attributes == {"scenario": "karpathy-value", "step": "weights", "data-notebook-theme": ""}


def test_keywords_are_attributes_with_dashes():
    attributes = tag_of(ap.show(sentence="the sun rises", head_size=8, heads=2, controls="full", autoplay=True))
    assert attributes["head-size"] == "8" and attributes["heads"] == "2"
    assert attributes["sentence"] == "the sun rises" and attributes["controls"] == "full"
    assert attributes["autoplay"] == ""
    assert "autoplay" not in tag_of(ap.show(autoplay=False))


def test_within_a_presets_trace_is_accepted():
    assert tag_of(ap.show(preset="rotary-sun-rises", step="rotate", head=1))["head"] == "1"
    assert tag_of(ap.show(preset="karpathy-value", step="weights", batch=3))["batch"] == "3"
    assert tag_of(ap.show(preset="sun-rises-multihead", head=3, view="graph"))["head"] == "3"


def test_numpy_numbers_are_numbers():
    import numpy as np
    attributes = tag_of(ap.show(sentence="the sun rises", heads=np.int64(2), temperature=np.float32(0.5), autoplay=np.bool_(True)))
    assert (attributes["heads"], attributes["temperature"], attributes["autoplay"]) == ("2", "0.5", "")
    assert "autoplay" not in tag_of(ap.show(autoplay=np.bool_(False)))


def test_a_given_theme_is_kept_and_not_followed():
    attributes = tag_of(ap.show(preset="sun-rises", theme="dark"))
    assert attributes["theme"] == "dark" and "data-notebook-theme" not in attributes


def test_sizes_apply_to_a_sentence_of_ones_own():
    attributes = tag_of(ap.show(sentence="the sun rises", heads=2, head_size=4, embed=8, value_size=4, seed=7))
    assert {k: attributes[k] for k in ("heads", "head-size", "embed", "value-size", "seed")} == \
        {"heads": "2", "head-size": "4", "embed": "8", "value-size": "4", "seed": "7"}
    assert "head-size" in tag_of(ap.show(head_size=4))  # the element's default sentence


def test_text_is_escaped_never_raw():
    figure = ap.show(caption='"><script>alert(1)</script>')
    assert "<script>alert" not in figure.tag()
    assert tag_of(figure)["caption"] == '"><script>alert(1)</script>'


@pytest.mark.parametrize("call, words", [
    (lambda: ap.show(preset="no-such-preset"), ["no preset 'no-such-preset'", "karpathy-value"]),
    (lambda: ap.show(step="softmax"), ["no step 'softmax'", "weights"]),
    (lambda: ap.show(colour="red"), ["unknown attribute 'colour'", "head_size"]),
    (lambda: ap.show(head_sizes=8), ["unknown attribute 'head_sizes'"]),
    (lambda: ap.show(scenario="x.json"), ["preset="]),
    (lambda: ap.show(preset="sun-rises", sentence="a b"), ["a preset or a sentence"]),
    (lambda: ap.show(view="attention"), ["ap.attention"]),
    # the element would show these as an error figure; the cell refuses them
    (lambda: ap.show(preset="scaled-attention", step="scaled", head_size=4),
     ["head_size applies to a sentence", "'scaled-attention'", "sentence="]),
    (lambda: ap.show(preset="karpathy-value", seed=3), ["seed applies to a sentence"]),
    # beyond what the preset's trace has: the element would refuse it inside the figure
    (lambda: ap.show(preset="karpathy-value", step="rotate"), ["step 'rotate' needs a preset with rotary", "'karpathy-value'"]),
    (lambda: ap.show(preset="sun-rises", head=9), ["head 9 is beyond preset 'sun-rises', which has 1 head "]),
    (lambda: ap.show(preset="sun-rises-multihead", step="scores", head="4"), ["head 4", "4 heads"]),
    (lambda: ap.show(preset="karpathy-value", batch=4), ["batch 4", "4 batch elements"]),
    (lambda: ap.show(caption=["a"]), ["caption must be text"]),
    # every value parsed as the element parses it, refused in the package's words
    (lambda: ap.show(preset="karpathy-value", head="²"), ["head must be a whole number from 0 to 63; got '²'"]),
    (lambda: ap.show(sentence="a b", heads="１"), ["heads must be a whole number from 1 to 8; got '１'"]),
    (lambda: ap.show(head=True), ["head must be a whole number from 0 to 63; got True"]),
    (lambda: ap.show(layer=True), ['layer applies to view="model" or view="attention"']),
    (lambda: ap.show(step=object()), ["no step object;"]),
    (lambda: ap.show(step=["weights"]), ["no step list;"]),
    (lambda: ap.show(view=__import__("numpy").array(["graph"])), ["view must be text, a number or True/False; got ndarray"]),
    (lambda: ap.show(temperature=float("nan")), ["temperature must be a number from 0.05 to 20; got nan"]),
    (lambda: ap.show(temperature="1_0"), ["temperature must be a number", "'1_0'"]),
    (lambda: ap.show(seed=10 ** 5000), ["seed is a whole number of 16610 bits"]),
    (lambda: ap.show(seed=2 ** 31), ["seed must be a whole number from 0 to 2147483647; got 2147483648"]),
    (lambda: ap.show(caption="x" * 1000), ["caption must be at most 400 characters; got 1000"]),
    (lambda: ap.show(**{"x" * 1000: 1}), ["unknown attribute 'xxx", "…' (1000 characters)"]),
    (lambda: ap.show(sentence="the sun", heads=2, head=2), ["head 2 is beyond the sentence, which has 2 heads"]),
    (lambda: ap.show(sentence="the sun", highlight="2"), ["highlight: row 2 is beyond the sentence's 2 words"]),
    (lambda: ap.show(sentence="the sun", mask="10.11.11"), ["mask is 3 × 2 but the sentence has 2 words"]),
    (lambda: ap.show(sentence=" ".join(["w"] * 65)), ["65 words", "up to 64"]),
    (lambda: ap.show(playground="index.html"), ["playground must be the full http or https URL", "'index.html'"]),
    (lambda: ap.show(caption="a\x00b"), ["caption holds a NUL character"]),
    # a lone surrogate: accepted, the notebook could not save the figure
    (lambda: ap.show(sentence="a\ud800b"), ["sentence holds a lone surrogate (U+D800 at character 1)"]),
    (lambda: ap.show(caption="\udfff"), ["caption holds a lone surrogate"]),
    # lengths in UTF-16 units, as the element measures: 😀 is 2
    (lambda: ap.show(caption="😀" * 201), ["caption must be at most 400 characters; got 402"]),
    (lambda: ap.show(sentence="😀" * 201), ["sentence must be at most 400 characters; got 402"]),
])
def test_refusals_are_one_line_naming_the_problem(call, words):
    with pytest.raises(ValueError) as error:
        call()
    message = str(error.value)
    assert "\n" not in message and message.startswith("show: "), message
    for word in words:
        assert word in message, message


def test_values_the_element_takes_are_accepted():
    assert tag_of(ap.show(caption="😀" * 200))["caption"] == "😀" * 200  # 400 UTF-16 units
    assert tag_of(ap.show(sentence="the sun", heads=2, head=1, highlight="1,1", mask="10.11"))["mask"] == "10.11"
    assert tag_of(ap.show(temperature=" 2 "))["temperature"] == " 2 "  # Number(" 2 ") is 2
    assert tag_of(ap.show(seed=2 ** 31 - 1, sentence="a"))["seed"] == "2147483647"
    assert tag_of(ap.show(playground="https://example.org/playground/"))["playground"] == "https://example.org/playground/"


def test_a_carriage_return_reaches_the_element_as_written():
    # the HTML parser turns a written CR LF into LF; a reference it keeps
    tag = ap.show(caption="a\r\nb").tag()
    assert 'caption="a&#13;\nb"' in tag


def test_every_preset_and_step_is_accepted():
    known = _assets.element()
    assert "karpathy-value" in known["presets"] and len(known["presets"]) >= 10
    for preset in known["presets"]:
        assert tag_of(ap.show(preset=preset))["scenario"] == preset
    # rotate only where the preset has rotary positions (the element refuses it elsewhere)
    rotary = next(p for p, facts in known["presetFacts"].items() if "rotate" in facts["steps"])
    for step in known["steps"]:
        assert tag_of(ap.show(preset=rotary, step=step))["step"] == step
    with pytest.raises(ValueError, match="step 'rotate' needs a preset with rotary positions; preset 'sun-rises-causal'"):
        ap.show(step="rotate")  # the element's default scenario


def test_the_engine_goes_out_once_per_session():
    first = ap.show(preset="sun-rises")._repr_html_()
    second = ap.show(preset="karpathy-value")._repr_html_()
    engine = _assets.engine_script()
    assert first.count("data-attention-playground-engine") == 1 and engine in first
    assert "data-attention-playground-engine" not in second and len(second) < 2000
    # the fallback line says how to get the engine back
    assert "ap.engine()" in second


def test_a_figure_shown_again_keeps_its_own_output():
    figure = ap.show(preset="sun-rises")
    assert figure._repr_html_() == figure._repr_html_()
    assert "data-attention-playground-engine" in figure._repr_html_()


def test_inline_every_and_engine():
    ap.inline("every")
    assert all("data-attention-playground-engine" in ap.show()._repr_html_() for _ in range(2))
    assert "data-attention-playground-engine" in ap.engine()._repr_html_()
    with pytest.raises(ValueError, match="'once' or 'every'"):
        ap.inline("twice")


def test_the_engine_is_one_offline_classic_script():
    engine = _assets.engine_script()
    assert "</script" not in engine.lower()  # it sits inside a <script> element
    assert not re.search(r"^\s*(import|export)\s", engine, re.M)
    # the wasm is inside, as base64 bytes ("\0asm" is AGFzbQ), and no URL would be fetched
    assert '"AGFzbQ' in engine
    assert re.search(r"https?://(?!www\.w3\.org/)", engine) is None, re.search(r"https?://\S{0,60}", engine)
    assert len(engine) > 500_000


def test_the_version_is_the_projects():
    import pathlib
    version = (pathlib.Path(__file__).parents[2] / "VERSION").read_text().strip()
    assert ap.__version__ == version
