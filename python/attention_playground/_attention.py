"""ap.attention: attention weights you computed, drawn by the element's
view="attention" (its data as JSON inside the element; the contract and the
limits are web/element/attention-data.js's, which the element checks again).

Shapes: (T, T), (H, T, T), (L, H, T, T), or what transformers returns with
output_attentions=True: a tuple of L tensors of shape (1, H, T, T). numpy
arrays or torch tensors; torch is never imported, a tensor is known by its
type's module and converted with its own methods.
"""
import numpy as np

from ._assets import element
from ._figure import Figure
from ._text import checked, kind, shown, units

_shapes = "(T, T), (H, T, T), (L, H, T, T), (L, 1, H, T, T), or transformers' tuple of L tensors (1, H, T, T)"


def _fail(message):
    raise ValueError(f"attention: {message}")


def _is_torch(x):
    return type(x).__module__.split(".")[0] == "torch" and hasattr(x, "detach")


def _array(x, where):
    """numpy float64 array from a numpy array, a torch tensor or nested lists."""
    if _is_torch(x):
        x = x.detach().to("cpu")
        if getattr(x, "is_floating_point", lambda: True)() and str(x.dtype) != "torch.float64":
            x = x.float()  # float16 and bfloat16 have no numpy dtype
        x = x.numpy()
    try:
        a = np.asarray(x)
    except ValueError:
        _fail(f"{where} is ragged: its rows differ in length; expected {_shapes}")
    except (TypeError, OverflowError):  # e.g. an int past int64 beside a float
        _fail(f"{where} is not an array of numbers numpy can hold; expected {_shapes}")
    if a.dtype == object:
        _fail(f"{where} is ragged or not numbers; expected {_shapes}")
    if a.dtype.kind == "b" or a.dtype.kind not in "iuf":
        _fail(f"{where} must hold numbers; got dtype {a.dtype}")
    return a


def _weights(attention):
    """(array (L, H, T, T) or fewer axes as given, axes names)"""
    if isinstance(attention, (tuple, list)) and len(attention) and all(hasattr(t, "shape") for t in attention):
        layers = [_array(t, f"attention[{i}]") for i, t in enumerate(attention)]
        if all(a.ndim < 4 for a in layers):
            # a list of arrays: heads (T, T), layers (H, T, T) or rows, stacked as given
            for i, a in enumerate(layers):
                if a.shape != layers[0].shape:
                    _fail(f"attention[{i}] has shape {tuple(a.shape)} but attention[0] has {tuple(layers[0].shape)}")
            return _stacked(np.stack(layers))
        # transformers: one (B, H, T, T) tensor per layer
        for i, a in enumerate(layers):
            if a.ndim != 4:
                _fail(f"attention[{i}] has shape {tuple(a.shape)}; transformers' attentions are one (1, H, T, T) tensor per layer")
            if a.shape[0] > 1:
                _fail(f"attention[{i}] holds a batch of {a.shape[0]} sequences (axis 0); give one: "
                      f"tuple(a[j:j+1] for a in attentions)")
            if a.shape[1:] != layers[0].shape[1:]:
                _fail(f"attention[{i}] has shape {tuple(a.shape)} but attention[0] has {tuple(layers[0].shape)}")
        return np.concatenate(layers, axis=0)  # (L, H, T, T)
    return _stacked(_array(attention, "attention"))


def _stacked(a):
    """One array: (T, T), (H, T, T), (L, H, T, T) kept, (L, 1, H, T, T) unbatched."""
    if a.ndim == 5:
        # torch.stack(outputs.attentions): (L, B, H, T, T)
        if a.shape[1] != 1:
            _fail(f"attention of shape {tuple(a.shape)} holds a batch of {a.shape[1]} sequences (axis 1, as "
                  f"torch.stack(outputs.attentions) gives); give one: attention[:, j:j+1]")
        return a[:, 0]
    if a.ndim not in (2, 3, 4):
        _fail(f"attention has {a.ndim} {'axis' if a.ndim == 1 else 'axes'}, shape {tuple(a.shape)}; expected {_shapes}")
    return a


def _tokens(tokens):
    if isinstance(tokens, str):
        _fail("tokens is one string; give a list of strings, one per position (e.g. tokenizer.convert_ids_to_tokens(ids))")
    if _is_torch(tokens) or isinstance(tokens, np.ndarray):
        if len(getattr(tokens, "shape", ())) != 1:  # a 0-d array's tolist() is one string
            _fail(f"tokens must be a list of strings, one per position; got an array of shape {tuple(tokens.shape)}")
        tokens = tokens.tolist()
    try:
        tokens = list(tokens)
    except TypeError:
        _fail(f"tokens must be a list of strings, one per position; got {kind(tokens)}")
    for i, t in enumerate(tokens):
        if not isinstance(t, str):
            _fail(f"tokens[{i}] must be a string; got {kind(t)}")
    # a str subclass's own methods are not the text json.dumps writes
    return [checked(_fail, f"tokens[{i}]", str.__str__(t)) for i, t in enumerate(tokens)]


def _index(name, value, count, axis):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        _fail(f"{name} must be a whole number from 0; got {shown(value)}")
    if axis is None:
        _fail(f"{name} {shown(value)} is beyond the data, which has no {name}s axis")
    if value >= count:
        _fail(f"{name} {shown(value)} is beyond the data's {count} {axis if count != 1 else axis[:-1]}")
    return int(value)


def _where(axes, index):
    names = ("layer", "head", "row", "column")[4 - axes:]
    return ", ".join(f"{n} {i}" for n, i in zip(names, index))


def _shortest(a):
    """float64 values whose JSON is the weights' shortest decimal (float32
    data stays short: 0.1, not 0.10000000149011612)."""
    if a.dtype.itemsize <= 4 and a.dtype.kind == "f":
        return a.astype(np.float32).astype(str).astype(np.float64)
    return a.astype(np.float64)


def attention(tokens, attention, *, layer=None, head=None, title=None):
    """Attention weights you computed, drawn by the element.

    The figure is the element's ``view="attention"``: every head as a
    thumbnail, one head's weights as a matrix, and its communication graph.
    The weights travel as JSON inside the element, so the figure needs no
    file and no server.

    :param tokens: one string per position, such as
        ``tokenizer.convert_ids_to_tokens(ids)``.
    :type tokens: list of str
    :param attention: the weights, shaped (T, T), (H, T, T) or
        (L, H, T, T); or what transformers returns with
        ``output_attentions=True``, a tuple of L tensors of shape
        (1, H, T, T), or that tuple stacked, (L, 1, H, T, T). numpy arrays,
        torch tensors (float16 and bfloat16 too), nested lists, or a list of
        arrays of one shape, stacked. torch is never imported: a tensor is
        converted with its own methods.
    :param layer: the layer of the head drawn large; the weights need an L
        axis.
    :type layer: int or None
    :param head: the head drawn large; the weights need an H axis.
    :type head: int or None
    :param title: the figure's title, up to 200 characters.
    :type title: str or None
    :returns: the figure; a notebook shows it through its ``_repr_html_``.
    :rtype: Figure
    :raises ValueError: one line starting ``attention:``, naming the
        problem: a shape that disagrees with the tokens (naming the axis), a
        wrong number of axes, a batch of more than one sequence, layers of
        different shapes, a NaN, infinite or negative weight (naming the
        first one's layer, head, row and column), tokens that are not a list
        of strings, a ``layer`` or ``head`` beyond the data, a lone
        surrogate in a token or the title, or one of the element's limits:
        512 tokens, 1,024 heads (L · H), 4,194,304 weights, 200 characters
        a token or title, 64,000,000 characters of JSON. Lengths count
        UTF-16 units, as the element does.

    Rows that do not sum to 1 are drawn with a note, not refused. float32
    weights are written in their shortest decimal form (0.1, not
    0.10000000149011612).

    Example::

        import numpy as np
        import attention_playground as ap

        tokens = ["The", "cat", "sat"]
        weights = np.tril(np.ones((3, 3)))
        weights /= weights.sum(axis=1, keepdims=True)
        ap.attention(tokens, weights, title="Uniform causal attention")

        # a transformers model's attentions, layer 0's head 1 drawn large
        outputs = model(**inputs, output_attentions=True)
        ids = inputs["input_ids"][0]
        ap.attention(tokenizer.convert_ids_to_tokens(ids), outputs.attentions, layer=0, head=1)
    """
    known = element()
    limits = known.get("attention")
    if limits is None:
        _fail("this build of the package has no attention view (built from a checkout without it)")
    tokens = _tokens(tokens)
    a = _weights(attention)
    axes = a.ndim
    T = len(tokens)
    if T == 0:
        _fail("tokens is empty; give one string per position")
    if T > limits["tokens"]:
        _fail(f"{T} tokens is beyond the element's limit of {limits['tokens']} tokens")
    # lengths in UTF-16 units, as the element's JavaScript measures (😀 is 2)
    for i, t in enumerate(tokens):
        if units(t) > limits["token"]:
            _fail(f"tokens[{i}] is {units(t)} characters long (UTF-16 units, as the element counts), "
                  f"beyond the element's limit of {limits['token']}")
    names = ("layers", "heads", "queries", "keys")[4 - axes:]
    for k, (size, name) in enumerate(zip(a.shape, names)):
        if k >= axes - 2 and size != T:
            _fail(f"axis {k} ({name}) has {size} entries but there are {T} tokens; shape {tuple(a.shape)}")
        if size == 0:
            _fail(f"axis {k} ({name}) is empty; shape {tuple(a.shape)}")
    L = a.shape[0] if axes == 4 else 1
    H = a.shape[-3] if axes >= 3 else 1
    if L * H > limits["heads"]:
        _fail(f"{L * H} heads ({L} layers × {H} heads) is beyond the element's limit of {limits['heads']}")
    if a.size > limits["weights"]:
        _fail(f"{a.size} weights ({' × '.join(map(str, a.shape))}) is beyond the element's limit of {limits['weights']}")
    bad = ~np.isfinite(a)
    if bad.any():
        i = tuple(int(v) for v in np.argwhere(bad)[0])
        _fail(f"weight at {_where(axes, i)} is {a[i]}: weights must be finite numbers")
    negative = a < 0
    if negative.any():
        i = tuple(int(v) for v in np.argwhere(negative)[0])
        _fail(f"weight at {_where(axes, i)} is negative ({a[i]}): weights must be 0 or more")
    weights = _shortest(a)
    big = ~np.isfinite(weights)  # a longdouble past float64's range, which JSON carries
    if big.any():
        i = tuple(int(v) for v in np.argwhere(big)[0])
        _fail(f"weight at {_where(axes, i)} is {a[i]}, beyond float64's range (the element's numbers)")
    data = {"tokens": tokens, "attention": weights.tolist()}
    layer = _index("layer", layer, L, "layers" if axes == 4 else None)
    head = _index("head", head, H, "heads" if axes >= 3 else None)
    if layer is not None:
        data["layer"] = layer
    if head is not None:
        data["head"] = head
    if title is not None:
        if not isinstance(title, str):
            _fail(f"title must be a string; got {kind(title)}")
        title = checked(_fail, "title", str.__str__(title))
        if units(title) > limits["title"]:
            _fail(f"title is {units(title)} characters long (UTF-16 units, as the element counts), "
                  f"beyond the element's limit of {limits['title']}")
        data["title"] = title
    figure = Figure({"view": "attention"}, data)
    # the text the element reads: the JSON inside its <script>, as written
    size = units(figure.json())
    if size > limits["characters"]:
        _fail(f"the data is {size} characters of JSON (UTF-16 units), beyond the element's limit of {limits['characters']}")
    return figure
