"""Reductions, scans, and the ops that sort or select along a dim (several of which
return ``torch.return_types`` structseqs: ``topk``, ``sort``, ``max(dim=)``).

Each is defined where eager defines it: no reduction of an empty dim that eager
rejects or turns into NaN (mean, var, logsumexp of nothing), index results only of
exact values (ties are decided by value), and results within their dtype.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from ..choices import booleans, integers, sampled
from .base import (
    Op,
    TensorType,
    TupleType,
    Type,
    derive_same,
    dim_args,
    dims,
    draw_dim,
    draw_dim_or_all,
    finish,
    fits,
    real,
    reduced_count,
    rounding,
)


def _largest_count(t: TensorType) -> int:
    return max([t.numel, *t.shape])


def _index_type(item: TensorType, size: int) -> TensorType:
    return finish(item, 0, max(0, size - 1), 0)


# -- sums and products -----------------------------------------------------------------------


def _sum_ok(t: TensorType) -> bool:
    n = _largest_count(t)
    return real(t) and (not t.is_float or fits(t.dtype, n * t.lo, n * t.hi)) and fits("int64", n * t.lo, n * t.hi)


def _derive_sum(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = reduced_count(t, attrs)
    lo, hi = min(0, n * t.lo), max(0, n * t.hi)
    if t.is_bool:
        lo, hi = 0, n
    return finish(out, lo, hi, n * t.err + rounding(out, lo, hi, max(n, 1)))


def _derive_cumsum(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = t.shape[attrs["dim"]] if t.rank else 1
    lo, hi = min(t.lo, n * t.lo), max(t.hi, n * t.hi)
    if t.is_bool:
        lo, hi = 0, n
    return finish(out, lo, hi, n * t.err + rounding(out, lo, hi, max(n, 1)))


def _mean_ok(t: TensorType) -> bool:
    # The mean of zero elements is 0/0 = NaN: an empty tensor is reduced along a dim
    # that has elements (the result is empty too), never over all of it.
    return t.is_float and (t.numel > 0 or bool(dims(t, nonempty=True)))


def _draw_mean(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    nonempty = lambda t: dims(t, nonempty=True)  # noqa: E731
    choose = draw_dim(nonempty) if types[0].numel == 0 else draw_dim_or_all(nonempty)
    return {**choose(draw, types), "to_float64": draw(booleans())}


def _derive_mean(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = reduced_count(t, attrs)
    return finish(out, t.lo, t.hi, t.err + rounding(out, t.lo, t.hi, max(n, 1)))


def _prod_ok(t: TensorType) -> bool:
    # prod over one dim of at most 3 elements, within the result's dtype.
    top = t.mag**3
    return real(t) and bool(dims(t, max_size=3)) and fits("int64", -top, top) and (not t.is_float or fits(t.dtype, -top, top))


def _derive_prod(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = t.shape[attrs["dim"]] if t.rank else 1
    top = max(1.0, t.mag) ** n
    lo = -top if t.can_be_negative else 0.0
    if t.is_bool:
        return finish(out, 0, 1, 0)
    return finish(out, lo, top, n * max(1.0, t.mag) ** max(n - 1, 0) * t.err + rounding(out, lo, top, n))


def _cumprod_ok(t: TensorType) -> bool:
    return t.rank >= 1 and _prod_ok(t) and bool(dims(t, max_size=3))


# -- spread ------------------------------------------------------------------------------------


def _spread_dims(t: TensorType) -> list[int]:
    # Variance with Bessel's correction needs two elements: of one it is NaN.
    return [d for d, s in enumerate(t.shape) if s >= 2]


def _var_ok(t: TensorType) -> bool:
    # The sum of squared deviations must not overflow (a ``wide`` input reaches 1e30).
    return t.is_float and t.numel >= 2 and fits(t.dtype, 0, (2 * t.mag) ** 2 * t.numel)


def _draw_spread(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    if not _spread_dims(t) or draw(booleans()):  # all of it (two elements at least)
        return {}
    return draw_dim(_spread_dims)(draw, types)


def _variance(t: TensorType, n: int) -> tuple[float, float]:
    width = t.hi - t.lo
    top = width**2 * n / (4 * max(n - 1, 1))
    return top, 4 * width * t.err + rounding(t, 0, top, 4 * n)


def _derive_spread(kind: str) -> Callable:
    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        t = types[0]
        n = reduced_count(t, attrs)
        top, err = _variance(t, n)
        if "std" in kind:
            # |sqrt(a) - sqrt(b)| <= sqrt(|a - b|): sqrt is not Lipschitz at 0.
            spread = (0.0, math.sqrt(top), math.sqrt(err) + rounding(t, 0, math.sqrt(top), 4))
        else:
            spread = (0.0, top, err)
        if kind.endswith("_mean"):
            mean = finish(out.items[1], t.lo, t.hi, t.err + rounding(t, t.lo, t.hi, n))
            return replace(out, items=(finish(out.items[0], *spread), mean))
        return finish(out, *spread)

    return derive


def _render_spread(name: str) -> Callable:
    def render(o: tuple[str, ...], a: dict, s: str) -> str:
        args = dim_args(a)
        return f"torch.{name}({o[0]}{', ' + args if args else ''})"

    return render


def _logsumexp_ok(t: TensorType) -> bool:
    return t.is_float and t.rank >= 1 and bool(dims(t, nonempty=True)) and fits(t.dtype, t.lo, t.hi + 10)


def _derive_logsumexp(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = t.shape[attrs["dim"]]
    hi = t.hi + math.log(n)
    return finish(out, t.lo, hi, t.err + rounding(out, t.lo, hi, 4 + n))


_NORMS = {"1": 1, "2": 2, "inf": math.inf}


def _draw_norm(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    # The inf norm (a max) of an empty tensor has no identity: eager raises.
    orders = tuple(_NORMS) if types[0].numel > 0 else ("1", "2")
    return {**draw_dim_or_all(dims)(draw, types), "p": draw(sampled(orders))}


def _render_norm(o: tuple[str, ...], a: dict, s: str) -> str:
    p = "float('inf')" if a["p"] == "inf" else a["p"]
    args = dim_args(a)
    return f"torch.linalg.vector_norm({o[0]}, ord={p}{', ' + args if args else ''})"


def _derive_norm(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = max(reduced_count(t, attrs), 1)
    p = _NORMS[attrs["p"]]
    hi = t.mag * (n if p == 1 else math.sqrt(n) if p == 2 else 1)
    return finish(out, 0.0, hi, n * t.err + rounding(out, 0, hi, 2 * n))


# -- order: max/min, arg*, sort, topk --------------------------------------------------------------


def _ordered_ok(t: TensorType) -> bool:
    """Values compared against each other: exact (ties and order decided by value)."""
    return real(t) and not t.is_bool and t.exact and bool(dims(t, nonempty=True))


def _derive_indices(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return _index_type(out, reduced_count(t, attrs) if "dim" in attrs else t.numel)


def _derive_values_indices(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    """(values, indices) structseqs: the values are moved, the indices index a dim."""
    t = types[0]
    values = derive_same(types, attrs, out.items[0])
    size = t.shape[attrs["dim"]] if t.rank else 1
    return replace(out, items=(values, _index_type(out.items[1], size)))


def _derive_aminmax(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    return replace(out, items=tuple(derive_same(types, attrs, item) for item in out.items))


def _draw_topk(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    dim = draw(sampled(dims(t, nonempty=True))) if t.rank else None
    size = t.shape[dim] if dim is not None else 1
    return {"dim": dim, "k": draw(integers(1, size)), "largest": draw(booleans())}


def _render_topk(o: tuple[str, ...], a: dict, s: str) -> str:
    dim = "" if a["dim"] is None else f", dim={a['dim']}"
    largest = "" if a["largest"] else ", largest=False"
    return f"torch.topk({o[0]}, {a['k']}{dim}{largest})"


def _derive_topk(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    size = t.shape[attrs["dim"]] if attrs["dim"] is not None else 1
    return replace(out, items=(derive_same(types, attrs, out.items[0]), _index_type(out.items[1], size)))


def _draw_sort(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    return {"dim": draw(sampled(list(range(t.rank)))) if t.rank else -1, "descending": draw(booleans())}


def _render_sort(name: str) -> Callable:
    def render(o: tuple[str, ...], a: dict, s: str) -> str:
        descending = ", descending=True" if a["descending"] else ""
        # stable=True: the order of ties is defined (by position), so indices are too.
        return f"torch.{name}({o[0]}, dim={a['dim']}{descending}, stable=True)"

    return render


def _derive_sort(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    size = t.shape[attrs["dim"]] if t.rank else 1
    if isinstance(out, TupleType):
        return replace(out, items=(derive_same(types, attrs, out.items[0]), _index_type(out.items[1], size)))
    return _index_type(out, size)


def _draw_scan(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dim": draw(sampled(list(range(types[0].rank))))}


def _derive_cummax(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return replace(out, items=(derive_same(types, attrs, out.items[0]), _index_type(out.items[1], t.shape[attrs["dim"]])))


def _distinct_float(t: TensorType) -> bool:
    """Random values of ``t`` have no ties (topk's and cummax's indices are undefined on
    them): float32 or float64 from a domain with many values (``precise`` has 63 per
    sign), and few enough elements that two equal ones are a 1e-4 chance in float32."""
    return t.dtype in ("float32", "float64") and t.numel <= 64 and t.mag >= 1.5


OPS = [
    # Reductions on float, int and bool inputs.
    Op("sum", "reduce", 1, _sum_ok, lambda o, a, s: f"{o[0]}.sum({dim_args(a)})", _derive_sum, draw_dim_or_all(dims)),
    Op("mean", "reduce", 1, _mean_ok, lambda o, a, s: (
        f"{o[0]}.mean({dim_args(a) or 'dim=None'}, dtype=torch.float64)" if a.get("to_float64")
        else f"{o[0]}.mean({dim_args(a)})"), _derive_mean, _draw_mean),
    Op("prod", "reduce", 1, _prod_ok, lambda o, a, s: f"{o[0]}.prod({dim_args(a)})", _derive_prod,
       draw_dim(lambda t: dims(t, max_size=3))),
    Op("cumsum", "reduce", 1, lambda t: real(t) and t.rank >= 1 and _sum_ok(t),
       lambda o, a, s: f"{o[0]}.cumsum(dim={a['dim']})", _derive_cumsum, draw_dim(dims, keepdim=False)),
    # amax/argmax are undefined on an empty dim: eager raises. amax/amin/aminmax of a
    # bool are any/all (argmax raises on bool, and sort/max(dim=) indices break ties).
    Op("amax", "reduce", 1, lambda t: real(t) and bool(dims(t, nonempty=True)),
       lambda o, a, s: f"{o[0]}.amax({dim_args(a)})", derive_same, draw_dim(lambda t: dims(t, nonempty=True))),
    Op("argmax", "reduce", 1, _ordered_ok, lambda o, a, s: f"{o[0]}.argmax({dim_args(a)})", _derive_indices,
       draw_dim(lambda t: dims(t, nonempty=True))),
    Op("any", "reduce", 1, lambda t: real(t) and t.exact, lambda o, a, s: f"{o[0]}.any({dim_args(a)})",
       lambda types, attrs, out: finish(out, 0, 1, 0), draw_dim_or_all(dims)),
    Op("all", "reduce", 1, lambda t: real(t) and t.exact, lambda o, a, s: f"{o[0]}.all({dim_args(a)})",
       lambda types, attrs, out: finish(out, 0, 1, 0), draw_dim_or_all(dims)),
    Op("amin", "reduce", 1, lambda t: real(t) and bool(dims(t, nonempty=True)),
       lambda o, a, s: f"{o[0]}.amin({dim_args(a)})", derive_same, draw_dim(lambda t: dims(t, nonempty=True))),
    Op("argmin", "reduce", 1, _ordered_ok, lambda o, a, s: f"{o[0]}.argmin({dim_args(a)})", _derive_indices,
       draw_dim(lambda t: dims(t, nonempty=True))),
    Op("cumprod", "reduce", 1, _cumprod_ok, lambda o, a, s: f"{o[0]}.cumprod(dim={a['dim']})", _derive_prod,
       draw_dim(lambda t: dims(t, max_size=3), keepdim=False)),
    *[
        Op(name, "reduce", 1, _var_ok, _render_spread(name), _derive_spread(name), _draw_spread)
        for name in ("var", "std", "var_mean", "std_mean")
    ],
    Op("logsumexp", "reduce", 1, _logsumexp_ok, lambda o, a, s: f"torch.logsumexp({o[0]}, {dim_args(a)})",
       _derive_logsumexp, draw_dim(lambda t: dims(t, nonempty=True))),
    # The 2-norm sums squares: they must fit too.
    Op("norm", "reduce", 1, lambda t: t.is_float and fits(t.dtype, 0, max(t.mag, t.mag**2) * _largest_count(t)),
       _render_norm, _derive_norm, _draw_norm),
    # Order: structseqs (values, indices) and index tensors, anywhere in the output tree.
    Op("max_dim", "sort", 1, _ordered_ok, lambda o, a, s: f"torch.max({o[0]}, {dim_args(a)})",
       _derive_values_indices, draw_dim(lambda t: dims(t, nonempty=True))),
    Op("min_dim", "sort", 1, _ordered_ok, lambda o, a, s: f"torch.min({o[0]}, {dim_args(a)})",
       _derive_values_indices, draw_dim(lambda t: dims(t, nonempty=True))),
    Op("aminmax", "sort", 1, lambda t: real(t) and t.numel > 0,
       lambda o, a, s: f"torch.aminmax({o[0]}{', ' + dim_args(a) if dim_args(a) else ''})", _derive_aminmax,
       draw_dim_or_all(lambda t: dims(t, nonempty=True))),
    Op("sort", "sort", 1, lambda t: real(t) and not t.is_bool and t.exact, _render_sort("sort"), _derive_sort, _draw_sort),
    Op("argsort", "sort", 1, lambda t: real(t) and not t.is_bool and t.exact, _render_sort("argsort"), _derive_sort,
       _draw_sort),
    # topk and cummax break ties as they like: random float inputs have none.
    Op("topk", "sort", 1, lambda t: _distinct_float(t) and t.numel > 0, _render_topk, _derive_topk, _draw_topk,
       inputs_only=True),
    Op("cummax", "sort", 1, lambda t: _distinct_float(t) and t.rank >= 1,
       lambda o, a, s: f"torch.cummax({o[0]}, dim={a['dim']})", _derive_cummax, _draw_scan, inputs_only=True),
]

__all__ = ["OPS"]
