"""The forms ops take in model code, beside the canonical forms of the other modules.

* ``index``: subscripts as models write them (negative indices, ``None``, index lists,
  ``x[..., 1:-1]``), an update of a fresh copy (``h = x.clone(); h[:, [0, -1]] = 0``,
  ``h[mask] = v``, ``h[-1] += v``), values picked at computed indices (``gather`` at an
  ``argmax``, ``scatter`` by a stable ``argsort``);
* ``broadcast``: operands of different ranks broadcast against each other (``addcmul``,
  ``lerp``, a mask ``m[..., None]`` or ``m[:, None, None, :]`` over a wider tensor);
* ``form``: one op's other spellings (``x.relu()``, ``F.silu(x)``, ``self.act = nn.GELU()``,
  ``F.softmax(x, dim=-1, dtype=torch.float32)``,
  ``x.mean((-2, -1), keepdim=True)``, ``x.sum(-1, dtype=torch.float32)``, ``x.float()``,
  ``x.to(y.dtype)``, a tuple unpacked: ``gate, up = x.chunk(2, dim=-1)``);
* submodules as models hold them (family ``module``): one ``Linear`` called twice, and a
  ``ModuleList`` run in a ``for`` loop.

Each is well defined wherever it is drawn: an index list has no index out of range, an
update by duplicated indices writes one value, ``argsort`` is stable.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from ..choices import booleans, integers, sampled
from .base import (
    CAP,
    UNIT,
    Op,
    TensorType,
    Type,
    arith_interval,
    broadcastable,
    derive_same,
    dims,
    dt,
    finish,
    fits,
    real,
    rounding,
)
from .elementwise import _cast_targets, _derive_cast
from .layers import W, _affine_bound, _cast_err, _fits_all
from .mathops import OPS as _MATH_OPS
from .mathops import _derive_log_softmax, _derive_softmax

_FILLS = {"float": (0.0, -1.25, 2.0, 0.5), "int": (0, 1, 2, -3), "bool": (True, False)}


def _fills(t: TensorType) -> tuple:
    if t.is_bool:
        return _FILLS["bool"]
    values = _FILLS["float"] if t.is_float else _FILLS["int"]
    return tuple(v for v in values if fits(t.dtype, v, v))


def _subscript(rank: int, dim: int, item: str) -> str:
    """The subscript that applies ``item`` at ``dim`` of a tensor of ``rank``: ``..., item``
    on the last dim (as models write it), else ``:, `` per dim before it."""
    if dim == rank - 1 and dim > 0:
        return f"..., {item}"
    return ", ".join([":"] * dim + [item])


def _only_first(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    """Values of the first operand moved (the others index or pick)."""
    return derive_same(types[:1], attrs, out)


# -- index -------------------------------------------------------------------------------------


def _draw_index_list(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    dim = draw(sampled(dims(t, nonempty=True)))
    n = t.shape[dim]
    return {"dim": dim, "index": tuple(draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=3)))}


#: Basic subscripts, one op per kind of index (a row of one root cause names its op):
#: name -> {kind: (source with ``x``, whether a tensor takes it)}.
_BASIC = {
    # An int index drops the dim: from the end, as models read the last token.
    "select_negative": {
        "last": ("x[..., -1]", lambda t: t.rank >= 1 and t.shape[-1] > 0),
        "first": ("x[-1]", lambda t: t.rank >= 1 and t.shape[0] > 0),
        "column": ("x[:, -1]", lambda t: t.rank >= 2 and t.shape[1] > 0),
    },
    # None inserts a dim of size 1.
    "index_none": {
        "inside": ("x[:, None]", lambda t: t.rank >= 1),
        "last": ("x[..., None]", lambda t: True),
        "and_slice": ("x[None, ..., :1]", lambda t: t.rank >= 1),
    },
    # A slice with a negative stop: all but the ends.
    "slice_negative": {
        "trim": ("x[..., 1:-1]", lambda t: t.rank >= 1),
        "drop_last": ("x[:-1]", lambda t: t.rank >= 1),
    },
}


def _basic_op(name: str) -> Op:
    kinds = _BASIC[name]

    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        return {"kind": draw(sampled([k for k, (_, ok) in kinds.items() if ok(types[0])]))}

    return Op(name, "index", 1, lambda t: real(t) and any(ok(t) for _, ok in kinds.values()),
              lambda o, a, s: o[0] + kinds[a["kind"]][0][1:], derive_same, draw_attrs)


def _setitem_ok(t: TensorType) -> bool:
    return real(t) and t.rank >= 1 and bool(dims(t, nonempty=True)) and bool(_fills(t))


def _draw_setitem(kind: str) -> Callable:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        t = types[0]
        dim = draw(sampled(dims(t, nonempty=True)))
        n = t.shape[dim]
        if kind == "list":
            index: Any = tuple(draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=3)))
        elif kind == "select":
            index = draw(sampled((-1, 0)))
        else:
            index = draw(sampled(("1:", ":-1")))
        value = draw(sampled(_fills(t)))
        # h[idx] += v: an add in the tensor's dtype, within its range (no bool add).
        augmented = not t.is_bool and fits(t.dtype, t.lo + min(value, 0), t.hi + max(value, 0)) and draw(booleans())
        return {"dim": dim, "index": index, "value": value, "augmented": augmented}

    return draw_attrs


def _setitem_then(out: str, o: tuple[str, ...], a: dict, s: str) -> list[str]:
    t = a["_types"][0]
    operator = "+=" if a["augmented"] else "="
    index = str(list(a["index"])) if isinstance(a["index"], tuple) else str(a["index"])
    return [f"{out}[{_subscript(t.rank, a['dim'], index)}] {operator} {a['value']!r}"]


def _derive_setitem(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t, v = types[0], float(attrs["value"])
    if attrs.get("augmented"):
        lo, hi = min(t.lo, t.lo + v), max(t.hi, t.hi + v)
        return finish(out, lo, hi, t.err + rounding(out, lo, hi, 1))
    return finish(out, min(t.lo, v), max(t.hi, v), t.err)


def _mask_index_ok(x: TensorType, m: TensorType) -> bool:
    """``x[m]`` indexes by a bool mask over ``x``'s leading dims."""
    return real(x) and m.is_bool and m.exact and 1 <= m.rank <= x.rank and m.shape == x.shape[:m.rank] \
        and bool(_fills(x))


def _setitem_mask_then(out: str, o: tuple[str, ...], a: dict, s: str) -> list[str]:
    return [f"{out}[{o[1]}] = {a['value']!r}"]


def _picked_ok(x: TensorType, key: TensorType) -> bool:
    """``key`` orders values along a dim of ``x``'s shape: exact (ties decided by value)."""
    return real(x) and real(key) and not key.is_bool and key.exact and not key.nonfinite and x.shape == key.shape \
        and bool(dims(x, nonempty=True))


def _draw_picked(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    dim = draw(sampled(dims(t, nonempty=True)))
    return {"dim": dim - t.rank if draw(booleans()) else dim, "squeeze": draw(booleans())}


def _render_gather_argmax(o: tuple[str, ...], a: dict, s: str) -> str:
    d = a["dim"]
    # argmax returns the first maximal index: defined on ties.
    picked = f"torch.gather({o[0]}, {d}, {o[1]}.argmax(dim={d}, keepdim=True))"
    return f"{picked}.squeeze({d})" if a["squeeze"] else picked


def _render_scatter_sorted(o: tuple[str, ...], a: dict, s: str) -> str:
    d = a["dim"]
    # A stable argsort is a permutation, the same in every implementation: each position
    # is written once.
    return f"torch.zeros_like({o[0]}).scatter({d}, torch.argsort({o[1]}, dim={d}, stable=True), {o[0]})"


# -- broadcast ---------------------------------------------------------------------------------


def _same_float(*types: TensorType) -> bool:
    return types[0].is_float and all(t.dtype == types[0].dtype for t in types)


def _all_broadcast(*types: TensorType) -> bool:
    return all(broadcastable(a, b) for i, a in enumerate(types) for b in types[i + 1:])


_ADDCMUL_VALUES = (0.5, -1.0, 2.0)


def _addcmul_range(a: TensorType, b: TensorType, c: TensorType, v: float) -> tuple[float, float]:
    lo, hi = arith_interval("mul", (b.lo, b.hi), (c.lo, c.hi))
    lo, hi = min(lo * v, hi * v), max(lo * v, hi * v)
    return a.lo + lo, a.hi + hi


def _addcmul_ok(a: TensorType, b: TensorType, c: TensorType) -> bool:
    return _same_float(a, b, c) and _all_broadcast(a, b, c) and \
        all(fits(a.dtype, *_addcmul_range(a, b, c, v)) for v in _ADDCMUL_VALUES)


def _derive_addcmul(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    a, b, c = types
    v = attrs["value"]
    lo, hi = _addcmul_range(a, b, c, v)
    err = a.err + abs(v) * (b.mag * c.err + c.mag * b.err + b.err * c.err)
    return finish(out, lo, hi, err + rounding(out, lo, hi, 3))


def _derive_lerp(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    a, b = types
    lo, hi = min(a.lo, b.lo), max(a.hi, b.hi)
    # a + w (b - a) or b - (b - a)(1 - w): |b - a| is at most twice the magnitude.
    return finish(out, lo, hi, max(a.err, b.err) * 2 + rounding(out, lo, hi, 6))


#: How a mask of fewer dims meets a wider tensor: (the subscript on the mask, the tensor
#: dims the mask's dims line up with given the tensor's rank, or None where it has none).
MASK_LAYOUTS: dict[str, tuple[str, Callable[[int], list[int] | None]]] = {
    "trailing_none": ("[..., None]", lambda r: list(range(r - 1))),
    "attention": ("[:, None, None, :]", lambda r: [0, 3] if r == 4 else None),
}


def lined_up(x: TensorType, m: TensorType, layouts: dict[str, tuple[str, Callable[[int], list[int] | None]]]
             ) -> list[str]:
    """The names of ``layouts`` in which ``m`` broadcasts to ``x``'s shape."""
    found = []
    for name, (_, lined) in layouts.items():
        dims = lined(x.rank)
        if dims is not None and len(dims) == m.rank and all(m.shape[i] in (1, x.shape[d]) for i, d in enumerate(dims)):
            found.append(name)
    return found


def _mask_layouts(x: TensorType, m: TensorType) -> list[str]:
    """The layouts in which the bool ``m`` broadcasts to ``x``'s shape."""
    if not (real(x) and m.is_bool and m.exact and m.rank >= 1):
        return []
    return lined_up(x, m, MASK_LAYOUTS)


def _draw_mask(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"layout": draw(sampled(_mask_layouts(*types))), "form": draw(sampled(("mul", "where", "fill")))}


def _render_mask(o: tuple[str, ...], a: dict, s: str) -> str:
    x, m = o[0], o[1] + MASK_LAYOUTS[a["layout"]][0]
    if a["form"] == "mul":
        return f"{x} * {m}"
    if a["form"] == "where":
        return f"torch.where({m}, {x}, torch.zeros_like({x}))"
    return f"{x}.masked_fill(~{m}, 0)"


def _derive_masked(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    x = types[0]
    return finish(out, min(x.lo, 0), max(x.hi, 0), x.err)


# -- form --------------------------------------------------------------------------------------


def _softmax_ok(t: TensorType) -> bool:
    # log_softmax reaches minus the operand's spread (and a little): under the cap.
    return t.is_float and fits(t.dtype, -2 * (t.hi - t.lo) - 8, 0)


def _draw_softmax_form(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    up = "float32" if t.dtype in ("float16", "bfloat16") else None
    return {"fn": draw(sampled(("softmax", "log_softmax"))), "dim": -1 if t.rank <= 1 else draw(sampled((-1, -2))),
            "style": draw(sampled(("functional", "method"))), "dtype": draw(sampled((None, up))) if up else None}


def _render_softmax_form(o: tuple[str, ...], a: dict, s: str) -> str:
    dtype = f", dtype={dt(a['dtype'])}" if a["dtype"] else ""
    if a["style"] == "method":
        return f"{o[0]}.{a['fn']}({a['dim']}{dtype})"
    return f"torch.nn.functional.{a['fn']}({o[0]}, dim={a['dim']}{dtype})"


def _derive_softmax_form(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    derive = _derive_softmax if attrs["fn"] == "softmax" else _derive_log_softmax
    return derive(types, attrs, out)


def _draw_reduce_form(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    rank = t.rank
    dims = tuple(sorted(draw(st.lists(st.integers(-rank, -1), min_size=1, max_size=min(rank, 2), unique=True))))
    n = math.prod(t.shape[d] for d in dims)
    # sum always fits (accepts checked the whole tensor's); the mean of nothing is NaN,
    # and amax of an empty dim raises.
    fns = ["sum", *(["mean"] if t.is_float and n > 0 else []), *(["amax"] if n > 0 else [])]
    fn = draw(sampled(fns))
    up = "float32" if t.dtype in ("float16", "bfloat16") and fn != "amax" else None
    return {"fn": fn, "dims": dims, "keepdim": draw(booleans()), "style": draw(sampled(("method", "function"))),
            "dtype": draw(sampled((None, up))) if up else None}


def _reduce_form_accepts(t: TensorType) -> bool:
    top = t.numel * t.mag
    return real(t) and t.rank >= 1 and fits("int64", -top, top) and (not t.is_float or fits(t.dtype, -top, top))


def _render_reduce_form(o: tuple[str, ...], a: dict, s: str) -> str:
    dims = a["dims"][0] if len(a["dims"]) == 1 and a["style"] == "method" else tuple(a["dims"])
    extra = (", keepdim=True" if a["keepdim"] else "") + (f", dtype={dt(a['dtype'])}" if a["dtype"] else "")
    if a["style"] == "method":
        return f"{o[0]}.{a['fn']}({dims}{extra})"
    return f"torch.{a['fn']}({o[0]}, dim={list(a['dims'])}{extra})"


def _derive_reduce_form(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = math.prod(t.shape[d] for d in attrs["dims"])
    if attrs["fn"] == "amax":
        return derive_same(types, attrs, out)
    if attrs["fn"] == "mean":
        return finish(out, t.lo, t.hi, t.err + rounding(out, t.lo, t.hi, max(n, 1) + 1))
    lo, hi = (0, n) if t.is_bool else (min(0, n * t.lo), max(0, n * t.hi))
    return finish(out, lo, hi, n * t.err + rounding(out, lo, hi, max(n, 1)))


#: Each activation's spellings in model code: a Tensor method, a ``torch.`` function, a
#: ``torch.nn.functional`` one, and a module held in ``__init__`` (``self.act = nn.GELU()``).
_ACTIVATIONS = {
    "relu": ("method", "torch", "functional", "module:ReLU"),
    "gelu": ("functional", "module:GELU"),
    "silu": ("functional", "module:SiLU"),
    "sigmoid": ("method", "torch", "module:Sigmoid"),
    "tanh": ("method", "torch", "module:Tanh"),
}
_ACTIVATION_OPS = {op.name: op for op in _MATH_OPS if op.name in _ACTIVATIONS}


def _activation_fns(t: TensorType) -> list[str]:
    return [fn for fn, op in _ACTIVATION_OPS.items() if t.is_float and op.accepts(t)]


def _draw_activation(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    fn = draw(sampled(_activation_fns(types[0])))
    attrs = {"fn": fn, "form": draw(sampled(_ACTIVATIONS[fn]))}
    return {**attrs, "approximate": "none"} if fn == "gelu" else attrs


def _render_activation(o: tuple[str, ...], a: dict, s: str) -> str:
    form, fn = a["form"], a["fn"]
    if form.startswith("module:"):
        return f"{s}({o[0]})"
    if form == "method":
        return f"{o[0]}.{fn}()"
    return f"torch.{fn}({o[0]})" if form == "torch" else f"torch.nn.functional.{fn}({o[0]})"


def _derive_activation(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    return _ACTIVATION_OPS[attrs["fn"]].derive(types, attrs, out)


#: The shorthand method of each cast (``x.float()``), as model code writes casts.
_SHORTHAND = {"float32": "float", "float64": "double", "float16": "half", "bfloat16": "bfloat16", "int64": "long",
              "int32": "int", "int16": "short", "int8": "char", "uint8": "byte", "bool": "bool"}


def _shorthand_targets(t: TensorType) -> list[str]:
    # A negative float to uint8 is undefined (see elementwise._render_cast).
    return [d for d in _cast_targets(t) if not (d == "uint8" and t.is_float and t.can_be_negative)]


def _render_shorthand(o: tuple[str, ...], a: dict, s: str) -> str:
    return f"{o[0]}.{_SHORTHAND[a['dtype']]}()"


def _draw_cast_like(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": types[1].dtype, "form": draw(sampled(("to_dtype", "type_as")))}


def _render_cast_like(o: tuple[str, ...], a: dict, s: str) -> str:
    # The dtype read off another tensor, as model code matches one value to another.
    return f"{o[0]}.to({o[1]}.dtype)" if a["form"] == "to_dtype" else f"{o[0]}.type_as({o[1]})"


# -- unpacking --------------------------------------------------------------------------------

#: |silu(x)| on x <= 0 is at most this (its minimum, at x = -1.278...).
_SILU_MIN = -0.27846455


def _silu_range(lo: float, hi: float) -> tuple[float, float]:
    """silu(x) = x sigmoid(x): within [_SILU_MIN, max(hi, 0)], never above x for x >= 0."""
    return _SILU_MIN if lo < 0 else lo / (1 + math.exp(-lo)), max(hi, 0.0)


def _gated_ok(t: TensorType) -> bool:
    if not (t.is_float and t.rank >= 1 and t.shape[-1] > 0 and t.shape[-1] % 2 == 0):
        return False
    return fits(t.dtype, *arith_interval("mul", _silu_range(t.lo, t.hi), (t.lo, t.hi)))


def _gated_then(out: str, o: tuple[str, ...], a: dict, s: str) -> list[str]:
    return [f"gate, up = {out}", f"{out} = torch.nn.functional.silu(gate) * up"]


def _derive_gated(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    silu = _silu_range(t.lo, t.hi)
    lo, hi = arith_interval("mul", silu, (t.lo, t.hi))
    # silu is 1.1-Lipschitz; the product adds each side's error times the other's size.
    err = 1.1 * t.err * t.mag + max(map(abs, silu)) * t.err + 1.1 * t.err * t.err
    return finish(out, lo, hi, err + rounding(out, lo, hi, 6))


# -- submodules --------------------------------------------------------------------------------


def _twice_bound(t: TensorType) -> float:
    """|Linear(tanh(Linear(x)))|: the second layer sees values within [-1, 1]."""
    return _affine_bound(t.shape[-1], 1.0)


def _twice_ok(t: TensorType) -> bool:
    return t.is_float and t.rank >= 1 and t.shape[-1] > 0 and bool(_twice_dtypes(t))


def _twice_dtypes(t: TensorType) -> list[str]:
    first = _affine_bound(t.shape[-1], t.mag)
    return [d for d in _fits_all(t, first) if fits(d, -_twice_bound(t), _twice_bound(t))]


def _draw_twice(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(sampled(_twice_dtypes(types[0]))), "bias": draw(booleans())}


def _derive_twice(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t, n = types[0], types[0].shape[-1]
    first = _affine_bound(n, t.mag, attrs["bias"])
    hidden = n * W * _cast_err(t, attrs["dtype"]) + UNIT[attrs["dtype"]] * (n + 1) * first  # tanh is 1-Lipschitz
    hidden += 4 * UNIT[attrs["dtype"]]
    m = _affine_bound(n, 1.0, attrs["bias"])
    return finish(out, -m, m, n * W * hidden + rounding(out, -m, m, n + 1))


def _layers_dtypes(t: TensorType) -> list[str]:
    """The first layer sees the operand, the others values within [-1, 1]."""
    return _fits_all(t, _affine_bound(t.shape[-1], max(t.mag, 1.0)))


def _layers_ok(t: TensorType) -> bool:
    return t.is_float and t.rank >= 1 and t.shape[-1] > 0 and bool(_layers_dtypes(t))


def _draw_layers(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(sampled(_layers_dtypes(types[0]))), "count": draw(integers(2, 3))}


def _layers_then(out: str, o: tuple[str, ...], a: dict, s: str) -> list[str]:
    return [f"for layer in {s}:", f"    {out} = torch.tanh(layer({out}))"]


def _derive_layers(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t, n, dtype = types[0], types[0].shape[-1], attrs["dtype"]
    # Each layer: the sum of n weighted values rounds n + 1 times, tanh once more; the
    # first sees the operand, the others values within [-1, 1].
    err, mag = _cast_err(t, dtype), t.mag
    for _ in range(attrs["count"]):
        err = n * W * err + UNIT[dtype] * ((n + 1) * _affine_bound(n, mag) + 4)
        mag = 1.0
    return finish(out, -1.0, 1.0, err)


OPS = [
    Op("index_list", "index", 1, lambda t: real(t) and bool(dims(t, nonempty=True)),
       lambda o, a, s: f"{o[0]}[{_subscript(a['_types'][0].rank, a['dim'], str(list(a['index'])))}]",
       derive_same, _draw_index_list),
    *[_basic_op(name) for name in _BASIC],
    # One op per kind of index, as for subscripts: an index list, an int, a slice.
    *[Op(f"setitem_{kind}", "index", 1, _setitem_ok, lambda o, a, s: f"{o[0]}.clone()", _derive_setitem,
         _draw_setitem(kind), then=_setitem_then) for kind in ("list", "select", "slice")],
    Op("setitem_mask", "index", 2, _mask_index_ok, lambda o, a, s: f"{o[0]}.clone()", _derive_setitem,
       lambda draw, t: {"value": draw(sampled(_fills(t[0])))}, then=_setitem_mask_then),
    Op("gather_argmax", "index", 2, _picked_ok, _render_gather_argmax, _only_first, _draw_picked),
    Op("scatter_sorted", "index", 2, _picked_ok, _render_scatter_sorted, _only_first,
       lambda draw, t: {"dim": draw(sampled(dims(t[0], nonempty=True)))}),
    Op("addcmul", "broadcast", 3, _addcmul_ok,
       lambda o, a, s: f"torch.addcmul({o[0]}, {o[1]}, {o[2]}, value={a['value']!r})", _derive_addcmul,
       lambda draw, t: {"value": draw(sampled(_ADDCMUL_VALUES))}),
    Op("lerp", "broadcast", 2, lambda a, b: _same_float(a, b) and broadcastable(a, b) and a.mag < CAP[a.dtype] / 4
       and b.mag < CAP[a.dtype] / 4,
       lambda o, a, s: f"torch.lerp({o[0]}, {o[1]}, {a['weight']!r})", _derive_lerp,
       lambda draw, t: {"weight": draw(sampled((0.25, 0.5, 0.75)))}),
    Op("mask_broadcast", "broadcast", 2, lambda x, m: bool(_mask_layouts(x, m)), _render_mask, _derive_masked,
       _draw_mask),
    Op("softmax_form", "form", 1, _softmax_ok, _render_softmax_form, _derive_softmax_form, _draw_softmax_form),
    Op("reduce_form", "form", 1, _reduce_form_accepts, _render_reduce_form, _derive_reduce_form, _draw_reduce_form),
    Op("cast_method", "form", 1, lambda t: real(t) and bool(_shorthand_targets(t)), _render_shorthand, _derive_cast,
       lambda draw, t: {"dtype": draw(sampled(_shorthand_targets(t[0])))}),
    Op("activation_form", "form", 1, lambda t: bool(_activation_fns(t)), _render_activation, _derive_activation,
       _draw_activation,
       state=lambda t, a: f"torch.nn.{a['form'].removeprefix('module:')}()" if a["form"].startswith("module:") else None),
    Op("cast_like", "form", 2, lambda x, y: real(x) and real(y) and y.dtype in _shorthand_targets(x),
       _render_cast_like, _derive_cast, _draw_cast_like),
    # A tuple unpacked: the gated unit of a SwiGLU MLP.
    Op("gated_halves", "form", 1, _gated_ok, lambda o, a, s: f"{o[0]}.chunk(2, dim=-1)", _derive_gated,
       then=_gated_then),
    Op("linear_twice", "module", 1, _twice_ok,
       lambda o, a, s: f"{s}(torch.tanh({s}({o[0]}.to({dt(a['dtype'])}))))", _derive_twice, _draw_twice,
       state=lambda t, a: (f"torch.nn.Linear({t[0].shape[-1]}, {t[0].shape[-1]}, bias={a['bias']}, "
                           f"dtype={dt(a['dtype'])})")),
    Op("layer_loop", "module", 1, _layers_ok, lambda o, a, s: f"{o[0]}.to({dt(a['dtype'])})", _derive_layers,
       _draw_layers, then=_layers_then,
       state=lambda t, a: (f"torch.nn.ModuleList([torch.nn.Linear({t[0].shape[-1]}, {t[0].shape[-1]}, "
                           f"dtype={dt(a['dtype'])}) for _ in range({a['count']})])")),
]

__all__ = ["OPS"]
