"""Attention masks as models build them: non-finite or extreme fills, then a softmax.

* ``mask_softmax``: ``scores.masked_fill(mask, float("-inf")).softmax(-1)`` (or the fill
  ``torch.finfo(scores.dtype).min``, as transformers writes it; an integer mask masks its
  zeros, ``mask == 0``), the mask broadcast from the shape it has in a model
  (``mask[:, None, None, :]`` over (batch, heads, query, key) scores, ``mask[..., None]``
  over whole rows, or the scores' own shape);
* ``causal_softmax``: ``(scores + torch.full((q, k), float("-inf"), dtype=...,
  device=...).triu(1)).softmax(-1)``, the mask made from the scores' sizes
  (``scores.shape[-2]``), so under a dynamic dimension the size flows into the creation op.

Eager defines every value: a row with an unmasked entry is a softmax over those entries
(a masked one is exactly 0); a row whose every entry is masked is NaN under ``-inf``
(``-inf - -inf``) and uniform under ``finfo.min`` (every entry equal). A causal row always
keeps its first entry. A compiler that folds the fill into a finite constant, computes
the softmax without its maximum, or turns the NaN of an all-masked row into 0 or a
uniform row gets a value wrong; the type says where NaN may be (``nonfinite``), and only
ops that move NaN take such a result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..choices import sampled
from .base import Op, TensorType, Type, finish, real, rounding
from .idioms import MASK_LAYOUTS, lined_up

#: How a mask of a model's shape lines up with the scores: its own shape, or the wider
#: tensor's layouts of ``idioms`` (``mask[..., None]``, ``mask[:, None, None, :]``).
LAYOUTS: dict[str, tuple[str, Callable[[int], list[int] | None]]] = {
    "same": ("", lambda r: list(range(r))), **MASK_LAYOUTS}
#: The fill of a masked entry: ``float("-inf")``, or the dtype's lowest finite value.
FILLS = {"inf": 'float("-inf")', "min": "torch.finfo({x}.dtype).min"}


def _scores_ok(x: TensorType) -> bool:
    return isinstance(x, TensorType) and x.is_float and real(x) and not x.nonfinite and x.rank >= 1


def _layouts(x: TensorType, m: TensorType) -> list[str]:
    if not (_scores_ok(x) and isinstance(m, TensorType) and (m.is_bool or m.is_int) and m.exact and m.rank >= 1):
        return []
    return lined_up(x, m, LAYOUTS)


def _softmax_type(x: TensorType, out: Type, may_be_nan: bool) -> Type:
    """A softmax along the last dim over some of ``x``'s entries: in [0, 1], off by the
    operand's error and a rounding per entry summed (``mathops._derive_softmax``)."""
    n = x.shape[-1]
    typed = finish(out, 0.0, 1.0, x.err + rounding(out, 0.0, 1.0, n + 4))
    return replace(typed, nonfinite=True) if may_be_nan and isinstance(typed, TensorType) else typed


def _draw_mask(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"layout": draw(sampled(_layouts(*types))), "fill": draw(sampled(tuple(FILLS)))}


def _render_mask(o: tuple[str, ...], a: dict, s: str) -> str:
    fill = FILLS[a["fill"]].format(x=o[0])
    # A bool mask says where to mask; an integer one (transformers' attention_mask of 0
    # and 1) masks its zeros.
    mask = f"{o[1]}{LAYOUTS[a['layout']][0]}" + ("" if a["_types"][1].is_bool else " == 0")
    return f"{o[0]}.masked_fill({mask}, {fill}).softmax(-1)"


def _derive_mask(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    # Under -inf a row with every entry masked is NaN; finfo.min makes it uniform.
    return _softmax_type(types[0], out, may_be_nan=attrs["fill"] == "inf")


def _causal_ok(x: TensorType) -> bool:
    return _scores_ok(x) and x.rank >= 2 and x.shape[-1] >= 1


def _render_causal(o: tuple[str, ...], a: dict, s: str) -> str:
    x = o[0]
    fill = FILLS[a["fill"]].format(x=x)
    return (f"({x} + torch.full(({x}.shape[-2], {x}.shape[-1]), {fill}, dtype={x}.dtype, device={x}.device)"
            f".triu(1)).softmax(-1)")


def _derive_causal(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    # Every row keeps its first entry: no row is all masked. A masked score is the fill
    # plus a finite one: -inf, or finfo.min + x, which rounds to finfo.min's neighbourhood
    # (at most |x| above it) and whose exp after the row's maximum is taken is 0.
    return _softmax_type(types[0], out, may_be_nan=False)


OPS = [
    Op("mask_softmax", "mask", 2, lambda x, m: bool(_layouts(x, m)), _render_mask, _derive_mask, _draw_mask),
    Op("causal_softmax", "mask", 1, _causal_ok, _render_causal, _derive_causal,
       lambda draw, types: {"fill": draw(sampled(tuple(FILLS)))}),
]

__all__ = ["FILLS", "LAYOUTS", "OPS"]
