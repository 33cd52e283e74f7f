"""Ops that read a tensor's sizes and compute with them, the way model code does:
``x.reshape(*x.shape[:-1], heads, -1)``, ``x.reshape(x.shape[0], -1)``,
``torch.arange(x.shape[d])``, ``x.narrow(d, 0, x.size(d) // 2)``,
``x[..., :torch.sym_max(x.shape[-1] - 1, 1)]``, ``x.new_zeros(x.shape[:-1])``,
``x.new_full((*x.shape[:-1], 2), v)``.

Their source names no literal size, so under a dynamic dimension the size flows as a
symbol through the arithmetic (``s // 2``, ``sym_max(s - 1, 1)``) into the op that takes it
(``torch.sym_max``, as export-ready model code writes it: Python's ``max`` of a symbolic
size branches, and torch.export then specialises the range).
Values are moved or created, never computed: ranges carry over (``derive_same``) or are
the constant's. Static programs draw the family too: there the sizes are Python ints,
and the arithmetic is folded by the tracer or kept as int ops, as model code leaves it
(the ``ci`` profile draws it in dynamic cases only: ``harness.config``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..choices import integers, sampled
from .base import Op, TensorType, Type, derive_same, dt, finish, real
from .shapes import _CREATE_DTYPES

_FILLS = {"bool": (True, False), "uint8": (0, 1, 3), "int": (0, 1, -3), "float": (0.5, -1.25, 0.0)}


def _fill(dtype: str) -> tuple:
    if dtype in ("bool", "uint8"):
        return _FILLS[dtype]
    return _FILLS["float" if dtype.startswith(("float", "bfloat")) else "int"]


def _derive_arange(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    n = types[0].shape[attrs["dim"]]
    return finish(out, 0, max(0, n - 1), 0)


def _derive_fill(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    v = float(attrs["value"])
    return finish(out, v, v, 0)


def _draw_dim(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dim": draw(integers(-types[0].rank, types[0].rank - 1))}


def _draw_arange(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {**_draw_dim(draw, types), "dtype": draw(sampled(("int64", "float32", "int32")))}


def _draw_new_full(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    dtype = draw(sampled(_CREATE_DTYPES))
    return {"dtype": dtype, "value": draw(sampled(_fill(dtype)))}


def _splits_last(t: TensorType) -> bool:
    return real(t) and t.rank >= 1 and t.numel > 0 and t.shape[-1] % 2 == 0


def _render_arange(o: tuple[str, ...], a: dict, s: str) -> str:
    return f"torch.arange({o[0]}.shape[{a['dim']}], dtype={dt(a['dtype'])})"


OPS = [
    # Attention heads: the last dim split in two, the rest kept by reading them.
    Op("split_heads", "size", 1, _splits_last, lambda o, a, s: f"{o[0]}.reshape(*{o[0]}.shape[:-1], 2, -1)",
       derive_same),
    # Everything after the batch flattened, the batch read from the tensor.
    Op("flatten_batch", "size", 1, lambda t: real(t) and t.rank >= 2 and t.numel > 0,
       lambda o, a, s: f"{o[0]}.reshape({o[0]}.shape[0], -1)", derive_same),
    # Positions: arange over a dim's size.
    Op("arange_of", "size", 1, lambda t: t.rank >= 1, _render_arange, _derive_arange, _draw_arange),
    # The first half of a dim: floor division of a size as a bound.
    Op("narrow_half", "size", 1, lambda t: real(t) and t.rank >= 1,
       lambda o, a, s: f"{o[0]}.narrow({a['dim']}, 0, {o[0]}.size({a['dim']}) // 2)", derive_same, _draw_dim),
    # All but the last position, never empty: max of a size expression as a slice bound.
    Op("slice_but_last", "size", 1, lambda t: real(t) and t.rank >= 1,
       lambda o, a, s: f"{o[0]}[..., :torch.sym_max({o[0]}.shape[-1] - 1, 1)]", derive_same),
    # Tensors shaped after an input's sizes.
    Op("new_zeros_rows", "size", 1, lambda t: real(t) and t.rank >= 1,
       lambda o, a, s: f"{o[0]}.new_zeros({o[0]}.shape[:-1])", lambda types, attrs, out: finish(out, 0, 0, 0)),
    Op("new_full_pairs", "size", 1, lambda t: real(t) and t.rank >= 1,
       lambda o, a, s: f"{o[0]}.new_full((*{o[0]}.shape[:-1], 2), {a['value']!r}, dtype={dt(a['dtype'])})",
       _derive_fill, _draw_new_full),
]

__all__ = ["OPS"]
