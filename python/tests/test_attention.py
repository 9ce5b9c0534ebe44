"""ap.attention: every shape people have, every refusal, the JSON it writes."""
import json
import re
import sys
import types

import numpy as np
import pytest

import attention_playground as ap
from attention_playground import _assets

T = 4
tokens = ["The", "cat", "sat", "<b>"]


def softmax(a):
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def weights(*lead, seed=0):
    return softmax(np.random.default_rng(seed).standard_normal((*lead, T, T)))


def data_of(figure):
    html = figure.tag()
    match = re.search(r'<script type="application/json">(.*?)</script>', html, re.S)
    assert match, html
    return json.loads(match[1])


def test_a_single_matrix():
    w = weights()
    data = data_of(ap.attention(tokens, w))
    assert data["tokens"] == tokens
    assert np.array_equal(np.array(data["attention"]), w)  # float64: every digit kept
    assert 'view="attention"' in ap.attention(tokens, w).tag()


def test_heads_and_layers_keep_their_axes():
    assert np.array(data_of(ap.attention(tokens, weights(3)))["attention"]).shape == (3, T, T)
    data = data_of(ap.attention(tokens, weights(2, 3), layer=1, head=2))
    assert np.array(data["attention"]).shape == (2, 3, T, T)
    assert (data["layer"], data["head"]) == (1, 2)


def test_float32_is_written_short():
    w = weights(2).astype(np.float32)
    text = ap.attention(tokens, w).tag()
    assert "0000000" not in text  # 0.1, not 0.10000000149011612
    assert np.array_equal(np.array(data_of(ap.attention(tokens, w))["attention"], dtype=np.float32), w)


def test_stacked_layers_with_a_batch_of_one():
    stacked = weights(3, 1, 2)  # torch.stack(outputs.attentions): (L, 1, H, T, T)
    data = data_of(ap.attention(tokens, stacked))
    assert np.array_equal(np.array(data["attention"]), stacked[:, 0])


def test_transformers_tuple_of_layers():
    layers = tuple(weights(1, 2, seed=i) for i in range(3))  # L tensors (1, H, T, T)
    data = data_of(ap.attention(tokens, layers))
    assert np.array(data["attention"]).shape == (3, 2, T, T)
    assert np.array_equal(np.array(data["attention"])[2], layers[2][0])


def test_a_list_of_arrays_is_stacked():
    # heads as a list of (T, T) arrays, layers as a list of (H, T, T) tensors, rows as arrays
    heads = [weights(seed=i) for i in range(3)]
    assert np.array_equal(np.array(data_of(ap.attention(tokens, heads))["attention"]), np.stack(heads))
    layers = [weights(2, seed=i) for i in range(3)]
    assert np.array(data_of(ap.attention(tokens, layers))["attention"]).shape == (3, 2, T, T)
    rows = list(weights())
    assert np.array_equal(np.array(data_of(ap.attention(tokens, rows))["attention"]), weights())
    with pytest.raises(ValueError, match=r"attention\[1\] has shape \(3, 4, 4\) but attention\[0\] has \(4, 4\)"):
        ap.attention(tokens, [weights(), weights(3)])


class FakeTensor:
    """What ap.attention may touch of a torch tensor (torch is never imported)."""
    def __init__(self, array):
        self.array = array
        self.shape = array.shape
        self.dtype = "torch.bfloat16"
    def detach(self):
        return self
    def to(self, device):
        assert device == "cpu"
        return self
    def is_floating_point(self):
        return True
    def float(self):
        return FakeTensor(self.array.astype(np.float32))
    def numpy(self):
        return self.array


FakeTensor.__module__ = "torch"


def test_tensors_by_duck_typing_without_importing_torch():
    had_torch = "torch" in sys.modules
    data = data_of(ap.attention(tokens, tuple(FakeTensor(weights(1, 2, seed=i)) for i in range(2))))
    assert np.array(data["attention"]).shape == (2, 2, T, T)
    assert np.array(data_of(ap.attention(tokens, FakeTensor(weights(2))))["attention"]).shape == (2, T, T)
    assert ("torch" in sys.modules) == had_torch


def test_real_torch_tensors_when_torch_is_there():
    torch = pytest.importorskip("torch")
    w = torch.softmax(torch.randn(2, 3, T, T, dtype=torch.bfloat16), dim=-1)
    data = data_of(ap.attention(tokens, tuple(w[i:i + 1] for i in range(2))))
    assert np.array(data["attention"]).shape == (2, 3, T, T)


def test_rows_that_do_not_sum_to_one_are_shown_not_refused():
    w = weights(2) * 0.5
    data = data_of(ap.attention(tokens, w))  # the element adds the note
    assert np.allclose(np.array(data["attention"]), w)


def test_tokens_and_json_are_escaped():
    figure = ap.attention(["</script><script>alert(1)</script>", "b", "c", "d"], weights())
    assert "</script><script>alert" not in figure.tag()
    assert data_of(figure)["tokens"][0] == "</script><script>alert(1)</script>"


limits = _assets.element()["attention"]


@pytest.mark.parametrize("call, words", [
    (lambda: ap.attention(tokens[:3], weights()), ["axis 0 (queries) has 4 entries but there are 3 tokens"]),
    (lambda: ap.attention(tokens, weights()[:, :3]), ["axis 1 (keys) has 3 entries but there are 4 tokens"]),
    (lambda: ap.attention(tokens, weights(2, 3)[:, :, :2]), ["axis 2 (queries)", "2 entries"]),
    (lambda: ap.attention(tokens, weights(2, 3, 1, 1)), ["6 axes"]),
    (lambda: ap.attention(tokens, weights(2, 3, 1)), ["batch of 3 sequences (axis 1"]),
    (lambda: ap.attention(tokens, weights()[0]), ["has 1 axis,", "(T, T)"]),
    (lambda: ap.attention(tokens, (weights(2, 2), weights(2, 2))), ["batch of 2", "axis 0"]),
    (lambda: ap.attention(tokens, (weights(1, 2), weights(1, 3))), ["attention[1] has shape (1, 3, 4, 4)"]),
    (lambda: ap.attention(tokens, np.where(np.eye(T) > 0, np.nan, weights())), ["row 0, column 0", "finite"]),
    (lambda: ap.attention(tokens, np.full((2, T, T), np.inf)), ["head 0, row 0, column 0", "finite"]),
    (lambda: ap.attention(tokens, weights() - 0.5), ["negative"]),
    (lambda: ap.attention(tokens, [[1, 0], [0.5]]), ["ragged"]),
    (lambda: ap.attention(tokens, np.array([["a"] * T] * T)), ["numbers"]),
    (lambda: ap.attention("The cat sat", weights()), ["one string"]),
    (lambda: ap.attention(["a", 2, "c", "d"], weights()), ["tokens[1] must be a string"]),
    (lambda: ap.attention([], np.zeros((0, 0))), ["empty"]),
    (lambda: ap.attention(tokens, weights(3), head=3), ["head 3 is beyond the data's 3 heads"]),
    (lambda: ap.attention(tokens, weights(2, 3), layer=2), ["layer 2 is beyond the data's 2 layers"]),
    (lambda: ap.attention(tokens, weights(3), layer=0), ["no layers axis"]),
    (lambda: ap.attention(tokens, weights(3), head=-1), ["whole number"]),
    (lambda: ap.attention(["t"] * (limits["tokens"] + 1), np.eye(limits["tokens"] + 1)),
     [f"{limits['tokens'] + 1} tokens", f"limit of {limits['tokens']} tokens"]),
    (lambda: ap.attention(["x" * (limits["token"] + 1)] + tokens[1:], weights()), ["tokens[0]", f"limit of {limits['token']}"]),
    (lambda: ap.attention(tokens, np.broadcast_to(np.eye(T), (33, 32, T, T))), ["1056 heads", f"limit of {limits['heads']}"]),
    (lambda: ap.attention(["t"] * 300, np.broadcast_to(np.eye(300), (50, 300, 300))), ["4500000 weights", f"limit of {limits['weights']}"]),
    (lambda: ap.attention(tokens, weights(), title="t" * 201), ["title", "limit of 200"]),
    # a lone surrogate: accepted, the notebook could not save the figure
    (lambda: ap.attention(["a\ud800"] + tokens[1:], weights()), ["tokens[0] holds a lone surrogate (U+D800 at character 1)"]),
    (lambda: ap.attention(tokens, weights(), title="\udc00"), ["title holds a lone surrogate"]),
    # lengths in UTF-16 units, as the element measures: 😀 is 2
    (lambda: ap.attention(["😀" * 150] + tokens[1:], weights()), ["tokens[0] is 300 characters long", "limit of 200"]),
    (lambda: ap.attention(tokens, weights(), title="😀" * 101), ["title is 202 characters long", "limit of 200"]),
    # every value in the package's words, never Python's own
    (lambda: ap.attention(tokens, weights(3), head=-10 ** 5000), ["head must be a whole number from 0; got a whole number of"]),
    (lambda: ap.attention(tokens, weights(3), head="1"), ["head must be a whole number from 0; got '1'"]),
    (lambda: ap.attention(tokens, weights(3), layer=True), ["layer must be a whole number from 0; got True"]),
    (lambda: ap.attention(np.array("The cat"), weights()), ["tokens must be a list of strings", "shape ()"]),
    (lambda: ap.attention(tokens, [[1.0, 10 ** 400, 0, 0]] * T), ["attention is ragged or not numbers"]),
])
def test_refusals_are_one_line_naming_the_problem(call, words):
    with pytest.raises(ValueError) as error:
        call()
    message = str(error.value)
    assert "\n" not in message and message.startswith("attention: ")
    for word in words:
        assert word in message, message


def test_lengths_are_utf16_units_as_the_element_counts(monkeypatch):
    wide = ["😀" * 100] * T  # 200 units each, as the title
    figure = ap.attention(wide, weights(), title="😀" * 100)
    assert data_of(figure)["tokens"] == wide
    # the JSON limit: the <script>'s text in UTF-16 units (500 more than its
    # characters here), not the tag's characters (about 350 more)
    text = figure.json()
    assert len(text) < len(figure.tag()) < len(text) + 500
    monkeypatch.setitem(limits, "characters", len(figure.tag()))
    with pytest.raises(ValueError, match=rf"the data is {len(text) + 500} characters of JSON \(UTF-16 units\)"):
        ap.attention(wide, weights(), title="😀" * 100)


def test_within_the_limits_is_accepted():
    n = limits["tokens"]
    figure = ap.attention([str(i) for i in range(n)], np.eye(n))
    assert len(data_of(figure)["tokens"]) == n


def test_the_engine_goes_out_once_with_show():
    first = ap.attention(tokens, weights())._repr_html_()
    second = ap.show(preset="sun-rises")._repr_html_()
    assert "data-attention-playground-engine" in first and "data-attention-playground-engine" not in second
