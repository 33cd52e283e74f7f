"""Real architectures as subjects of the suite: torch.nn's recurrent and attention
models and transformers' encoders, decoders, encoder-decoders and vision models, drawn
as data (``Architecture``: family, config literal, flags, dtype, seed) that replays, and
that shrinks toward the smallest model (one layer, one head, hidden size 8, float32).

``architectures()`` draws one; ``to_source(arch)`` writes the model and its inputs as
Python, and ``build(arch)`` runs that very source, so that the harness and the
reproducer build the same model; ``error_bound(arch)`` is eager's own rounding error on
it, by the suite's precision rule.
"""

from __future__ import annotations

from typing import Any

import torch
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from ..drawing import padded
from ..ops.base import UNIT
from .family import Family
from .hf import HF
from .spec import Architecture
from .torch_nn import TORCH_NN

__all__ = ["DTYPES", "FAMILIES", "Architecture", "Family", "architectures", "build", "error_bound", "to_source"]

#: Every family, simplest first: the draw shrinks toward the first.
FAMILIES: dict[str, Family] = {f.name: f for f in (*TORCH_NN, *HF)}
DTYPES = ("float32", "float16", "bfloat16")
#: Choices a family's config and flags take, padded up to (the most any family draws).
FAMILY_CHOICES = 24


@st.composite
def _architecture(draw: st.DrawFn, families: tuple[str, ...], dtypes: tuple[str, ...]) -> Architecture:
    family = FAMILIES[draw(st.sampled_from(families))]
    # The dtype before the config, among the same dtypes whatever the family: the
    # shrinker's move to a simpler family (a GRU to an LSTM) then keeps a float16 that
    # a planted distortion needs, where a dtype drawn after configs of other lengths
    # read another choice.
    dtype = draw(st.sampled_from(dtypes))
    if dtype not in family.dtypes:
        dtype = draw(st.sampled_from([d for d in dtypes if d in family.dtypes]))
    # A block of fixed length: a move to a family that draws more choices (a ViT to a
    # BERT) would otherwise run out of them, and the shrinker could not make it.
    config, flags = padded(draw, FAMILY_CHOICES, family.draw)
    return Architecture(family.name, tuple(config.items()), tuple(flags.items()), dtype, draw(st.integers(0, 2**16)))


def architectures(*, families: tuple[str, ...] | list[str] | None = None,
                  dtypes: tuple[str, ...] | list[str] | None = None) -> st.SearchStrategy[Architecture]:
    """Architectures of the ``families`` named (default: all, ``FAMILIES``) in one of
    ``dtypes`` (default: float32, float16, bfloat16)."""
    families = tuple(FAMILIES) if families is None else tuple(families)
    dtypes = DTYPES if dtypes is None else tuple(dtypes)
    unknown = [f for f in families if f not in FAMILIES]
    if not families or unknown:
        raise InvalidArgument(f"families={families!r}: name some of {', '.join(FAMILIES)}")
    if not dtypes or any(d not in DTYPES for d in dtypes):
        raise InvalidArgument(f"dtypes={dtypes!r}: name some of {', '.join(DTYPES)}")
    return _architecture(families, dtypes)


def to_source(arch: Architecture) -> str:
    """The model and its inputs as a standalone script: it sets ``model``, ``args`` and ``kwargs``."""
    imports, lines = FAMILIES[arch.family].source(arch)
    return "\n".join([*imports, "", *lines]) + "\n"


def build(arch: Architecture) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
    """Runs ``to_source(arch)``: the model (in eval mode), args and kwargs."""
    scope: dict[str, Any] = {"__name__": f"architecture_{arch.family}"}
    exec(compile(to_source(arch), f"<architecture {arch.family}>", "exec"), scope)  # noqa: S102 - our own source
    return scope["model"].eval(), tuple(scope["args"]), dict(scope["kwargs"])


def error_bound(arch: Architecture) -> float:
    """A bound on eager's own rounding error at any float output, by the suite's rule
    (``strategies.ops``: k + 1 units of roundoff for a contraction over k), over the
    layers on the longest path: two valid implementations may differ by twice it. Values
    are of order 1 (normalised, or bounded by tanh and softmax)."""
    family = FAMILIES[arch.family]
    return family.depth(arch) * (family.width(arch) + 1) * UNIT[arch.dtype]
