"""Attention Playground's figures in a Jupyter notebook.

::

    import attention_playground as ap
    ap.show(preset="karpathy-value", step="weights")   # a preset, played by the core
    ap.attention(tokens, weights)                      # attention weights you computed

Each call returns a :class:`Figure` whose HTML (``_repr_html_``) is the
``<attention-playground>`` element. The first figure a kernel displays
carries the element's engine (one script with its wasm inside); later ones
reuse it, so a saved notebook works from a file with no network.
"""
from ._assets import version as _version
from ._attention import attention
from ._figure import Figure, engine, inline
from ._show import show

__all__ = ["show", "attention", "engine", "inline", "Figure", "__version__"]


def __getattr__(name):
    # __version__ is read from the built assets when first asked for, so the
    # package imports before they are built (its API documentation does).
    if name == "__version__":
        return _version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
