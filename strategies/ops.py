"""The registry of ops that compute a model's returned values from its inputs.

Each op says which operands it accepts (its defined input domain), how to draw its
attributes, and how it reads as Python source. Its dtype and shape rule is PyTorch's
own: ``infer`` runs the rendered source on meta tensors, so no rule is written twice.

Input values are drawn within ``DOMAIN`` (see ``strategies.render``), and every op here
is defined on that domain: no out-of-range float->int casts, no integer division by
zero, no signed overflow, no reduction over an empty dimension that eager rejects.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
from hypothesis import strategies as st

__all__ = ["DOMAIN", "FAMILIES", "OPS", "Op", "TensorType", "infer", "render_op"]

FLOATS = ("float16", "bfloat16", "float32", "float64")
INTS = ("int8", "int16", "int32", "int64", "uint8")
COMPLEX = ("complex64",)

#: Inclusive value range per dtype kind. Small enough that no single op overflows
#: int8 (5 * 5), prod over a dim of at most 3 elements stays exact, and every float
#: fits float16 exactly enough to compare.
DOMAIN = {"float": (-3.0, 3.0), "signed": (-5, 5), "uint8": (0, 10)}


@dataclass(frozen=True)
class TensorType:
    dtype: str
    shape: tuple[int, ...]

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def is_float(self) -> bool:
        return self.dtype in FLOATS

    @property
    def is_int(self) -> bool:
        return self.dtype in INTS

    @property
    def is_bool(self) -> bool:
        return self.dtype == "bool"

    @property
    def is_complex(self) -> bool:
        return self.dtype in COMPLEX

    @property
    def can_be_negative(self) -> bool:
        return self.dtype not in ("uint8", "bool")


Accept = Callable[..., bool]
DrawAttrs = Callable[[Callable, tuple[TensorType, ...]], dict]
Render = Callable[[tuple[str, ...], dict, str], str]


@dataclass(frozen=True)
class Op:
    name: str
    family: str
    arity: int
    #: Predicate over the operand types (one argument per operand).
    accepts: Accept
    render: Render
    draw_attrs: DrawAttrs | None = None
    #: Source of the state this op needs in ``__init__`` (a module, parameter or buffer),
    #: given the operand types and attrs; the state is stored as ``self.<state name>``.
    state: Callable[[tuple[TensorType, ...], dict], str] | None = None
    #: The state is a plain tensor, registered as a buffer (else a module or parameter).
    state_is_buffer: bool = False
    complex_ok: bool = False


def _dt(name: str) -> str:
    return f"torch.{name}"


def _broadcastable(a: TensorType, b: TensorType) -> bool:
    # PyTorch's rule, in plain Python: torch.broadcast_shapes was a fifth of a draw.
    return all(x == y or x == 1 or y == 1 for x, y in zip(reversed(a.shape), reversed(b.shape)))


def _any(*_: TensorType) -> bool:
    return True


def _real(t: TensorType) -> bool:
    return not t.is_complex


def _float(t: TensorType) -> bool:
    return t.is_float


def _dims(t: TensorType, *, nonempty: bool = False, max_size: int | None = None) -> list[int]:
    return [
        d
        for d, s in enumerate(t.shape)
        if (not nonempty or s > 0) and (max_size is None or s <= max_size)
    ]


def _draw_dim(dims: Callable[[TensorType], list[int]], *, keepdim: bool = True) -> DrawAttrs:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        attrs = {"dim": draw(st.sampled_from(dims(types[0])))}
        if keepdim:
            attrs["keepdim"] = draw(st.booleans())
        return attrs

    return draw_attrs


def _draw_dim_or_all(dims: Callable[[TensorType], list[int]]) -> DrawAttrs:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        options = dims(types[0])
        if not options or draw(st.booleans()):
            return {}
        return {"dim": draw(st.sampled_from(options)), "keepdim": draw(st.booleans())}

    return draw_attrs


def _dim_args(attrs: dict) -> str:
    if "dim" not in attrs:
        return ""
    keep = ", keepdim=True" if attrs.get("keepdim") else ""
    return f"dim={attrs['dim']}{keep}"


# -- the special leaves ---------------------------------------------------------------

_CONSTANTS = {"int": st.integers(-3, 3), "float": st.sampled_from([0.5, -1.25, 2.0]), "bool": st.booleans()}

_VIEWS = {
    "slice_last": ("x[..., :1]", lambda t: t.rank >= 1),
    "select_first": ("x[0]", lambda t: t.rank >= 1 and t.shape[0] > 0),
    "transpose": ("x.transpose(0, -1)", lambda t: t.rank >= 2),
    "flatten": ("x.reshape(-1)", lambda t: True),
    "unsqueeze": ("x.unsqueeze(0)", lambda t: True),
}


def _draw_view(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    kinds = [k for k, (_, ok) in _VIEWS.items() if ok(types[0])]
    return {"kind": draw(st.sampled_from(kinds))}


def _draw_param(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(st.sampled_from(("float32", "float16", "bfloat16", "float64"))),
            "shape": draw(st.sampled_from(((), (1,), (2,), (2, 3))))}


def _draw_buffer(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(st.sampled_from(("float32", "int64", "bool", "float16", "int32"))),
            "shape": draw(st.sampled_from(((), (1,), (2,), (2, 3))))}


def _empty(shape: Any, dtype: str) -> str:
    return f"torch.empty({tuple(shape)!r}, dtype={_dt(dtype)})"


# -- arithmetic, comparisons, logic ----------------------------------------------------

_ARITH = {"add": "+", "sub": "-", "mul": "*"}
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_LOGICAL = ("logical_and", "logical_or", "logical_xor")
_BITWISE = {"bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^"}


def _arith_ok(name: str) -> Accept:
    def ok(a: TensorType, b: TensorType) -> bool:
        if not _broadcastable(a, b):
            return False
        if name == "sub" and (a.is_bool or b.is_bool):
            return False  # eager rejects `-` on bool tensors
        if a.is_complex or b.is_complex:
            return not (a.is_bool or b.is_bool)
        return True

    return ok


def _divisor(b: str, t: TensorType) -> str:
    # |b| + 1 >= 1: the division is defined for every drawn value.
    return f"({b}.abs() + 1)" if t.can_be_negative else f"({b} + 1)"


def _draw_cast(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(st.sampled_from(("float32", *FLOATS[:2], "float64", *INTS, "bool")))}


def _render_cast(ops: tuple[str, ...], attrs: dict, self_: str) -> str:
    x = ops[0]
    # A negative value cast to uint8 is undefined in C (and so in compiled code).
    if attrs["dtype"] == "uint8" and attrs["_types"][0].can_be_negative:
        return f"{x}.abs().to(torch.uint8)"
    return f"{x}.to({_dt(attrs['dtype'])})"


def _draw_low_precision(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(st.sampled_from(("float32", "float16", "bfloat16", "float64")))}


def _draw_linear(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {**_draw_low_precision(draw, types), "out": draw(st.integers(1, 3)), "bias": draw(st.booleans())}


def _draw_conv(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    spatial = min(types[0].shape[2:])
    return {
        **_draw_low_precision(draw, types),
        "out": draw(st.integers(1, 2)),
        "kernel": draw(st.integers(1, spatial)),
    }


def _mean_ok(t: TensorType) -> bool:
    # The mean of zero elements is 0/0 = NaN: an empty tensor is reduced along a dim
    # that has elements (the result is empty too), never over all of it.
    return t.is_float and (t.numel > 0 or bool(_dims(t, nonempty=True)))


def _draw_mean(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    nonempty = lambda t: _dims(t, nonempty=True)
    dims = _draw_dim(nonempty) if types[0].numel == 0 else _draw_dim_or_all(nonempty)
    return {**dims(draw, types), "to_float64": draw(st.booleans())}


def _conv_ok(t: TensorType) -> bool:
    return t.is_float and t.rank in (3, 4) and min(t.shape) > 0


def _build() -> dict[str, Op]:
    ops: list[Op] = [
        # Leaves that are not computed: returned as they are.
        Op("input", "leaf", 1, _any, lambda o, a, s: o[0], complex_ok=True),
        Op("view", "leaf", 1, lambda t: any(ok(t) for _, ok in _VIEWS.values()),
           lambda o, a, s: _VIEWS[a["kind"]][0].replace("x", o[0]), _draw_view, complex_ok=True),
        # Outputs that are not tensors: their own family, so they are drawn often.
        Op("none", "special", 0, _any, lambda o, a, s: "None"),
        *[
            Op(f"const_{kind}", "special", 0, _any, lambda o, a, s: repr(a["value"]),
               lambda draw, t, values=values: {"value": draw(values)})
            for kind, values in _CONSTANTS.items()
        ],
        Op("shape", "special", 1, lambda t: t.rank >= 1, lambda o, a, s: f"{o[0]}.shape[{a['dim']}]",
           _draw_dim(lambda t: list(range(t.rank)), keepdim=False), complex_ok=True),
        Op("parameter", "leaf", 0, _any, lambda o, a, s: s, _draw_param,
           state=lambda t, a: f"torch.nn.Parameter({_empty(a['shape'], a['dtype'])})"),
        Op("buffer", "leaf", 0, _any, lambda o, a, s: s, _draw_buffer,
           state=lambda t, a: _empty(a["shape"], a["dtype"]), state_is_buffer=True),
        # Arithmetic across mixed dtypes: PyTorch's type promotion decides the result.
        *[
            Op(name, "arith", 2, _arith_ok(name), lambda o, a, s, sym=sym: f"{o[0]} {sym} {o[1]}",
               complex_ok=True)
            for name, sym in _ARITH.items()
        ],
        Op("add_scalar", "arith", 1, _real, lambda o, a, s: f"{o[0]} + {a['value']!r}",
           lambda draw, t: {"value": draw(st.sampled_from([1, 2.5, True]))}),
        Op("true_div", "arith", 2,
           lambda a, b: _broadcastable(a, b) and _real(a) and not b.is_bool and _real(b),
           lambda o, a, s: f"torch.true_divide({o[0]}, {_divisor(o[1], a['_types'][1])})"),
        Op("floor_div", "arith", 2,
           # Low-precision floats round the quotient before flooring; keep it exact.
           lambda a, b: _broadcastable(a, b) and (a.is_int or a.dtype in ("float32", "float64"))
           and (b.is_int or b.dtype in ("float32", "float64")),
           lambda o, a, s: f"torch.floor_divide({o[0]}, {_divisor(o[1], a['_types'][1])})"),
        Op("cast", "cast", 1, _real, _render_cast, _draw_cast),
        *[
            Op(name, "compare", 2, lambda a, b: _broadcastable(a, b) and _real(a) and _real(b),
               lambda o, a, s, sym=sym: f"{o[0]} {sym} {o[1]}")
            for name, sym in _COMPARE.items()
        ],
        *[
            Op(name, "logical", 2, lambda a, b: _broadcastable(a, b) and _real(a) and _real(b),
               lambda o, a, s, name=name: f"torch.{name}({o[0]}, {o[1]})")
            for name in _LOGICAL
        ],
        Op("logical_not", "logical", 1, _real, lambda o, a, s: f"torch.logical_not({o[0]})"),
        *[
            Op(name, "logical", 2,
               lambda a, b: _broadcastable(a, b) and (a.is_int or a.is_bool) and (b.is_int or b.is_bool),
               lambda o, a, s, sym=sym: f"{o[0]} {sym} {o[1]}")
            for name, sym in _BITWISE.items()
        ],
        # Reductions on float, int and bool inputs.
        Op("sum", "reduce", 1, _real, lambda o, a, s: f"{o[0]}.sum({_dim_args(a)})",
           _draw_dim_or_all(_dims)),
        Op("mean", "reduce", 1, _mean_ok, lambda o, a, s: (
            f"{o[0]}.mean({_dim_args(a) or 'dim=None'}, dtype=torch.float64)" if a.get("to_float64")
            else f"{o[0]}.mean({_dim_args(a)})"),
           _draw_mean),
        # prod over one dim of at most 3 elements: exact in every dtype on the domain.
        Op("prod", "reduce", 1, lambda t: _real(t) and bool(_dims(t, max_size=3)),
           lambda o, a, s: f"{o[0]}.prod({_dim_args(a)})", _draw_dim(lambda t: _dims(t, max_size=3))),
        Op("cumsum", "reduce", 1, lambda t: _real(t) and t.rank >= 1,
           lambda o, a, s: f"{o[0]}.cumsum(dim={a['dim']})", _draw_dim(_dims, keepdim=False)),
        # amax/argmax are undefined on an empty dim: eager raises.
        Op("amax", "reduce", 1, lambda t: _real(t) and not t.is_bool and bool(_dims(t, nonempty=True)),
           lambda o, a, s: f"{o[0]}.amax({_dim_args(a)})", _draw_dim(lambda t: _dims(t, nonempty=True))),
        Op("argmax", "reduce", 1, lambda t: _real(t) and not t.is_bool and bool(_dims(t, nonempty=True)),
           lambda o, a, s: f"{o[0]}.argmax({_dim_args(a)})", _draw_dim(lambda t: _dims(t, nonempty=True))),
        Op("any", "reduce", 1, _real, lambda o, a, s: f"{o[0]}.any({_dim_args(a)})", _draw_dim_or_all(_dims)),
        Op("all", "reduce", 1, _real, lambda o, a, s: f"{o[0]}.all({_dim_args(a)})", _draw_dim_or_all(_dims)),
        # Matmul and modules with parameters, in low precision too.
        Op("matmul", "matmul", 1, lambda t: t.is_float and t.rank >= 2,
           lambda o, a, s: f"torch.matmul({o[0]}.to({_dt(a['dtype'])}), {o[0]}.transpose(-1, -2).to({_dt(a['dtype'])}))",
           _draw_low_precision),
        Op("linear", "module", 1, lambda t: t.is_float and t.rank >= 1 and t.shape[-1] > 0,
           lambda o, a, s: f"{s}({o[0]}.to({_dt(a['dtype'])}))", _draw_linear,
           state=lambda t, a: f"torch.nn.Linear({t[0].shape[-1]}, {a['out']}, bias={a['bias']}, dtype={_dt(a['dtype'])})"),
        Op("conv", "module", 1, _conv_ok, lambda o, a, s: f"{s}({o[0]}.to({_dt(a['dtype'])}))", _draw_conv,
           state=lambda t, a: f"torch.nn.Conv{t[0].rank - 2}d({t[0].shape[1]}, {a['out']}, {a['kernel']}, dtype={_dt(a['dtype'])})"),
        Op("layer_norm", "module", 1, lambda t: t.is_float and t.rank >= 1 and t.shape[-1] > 0,
           lambda o, a, s: f"{s}({o[0]}.to({_dt(a['dtype'])}))", _draw_low_precision,
           state=lambda t, a: f"torch.nn.LayerNorm({t[0].shape[-1]}, dtype={_dt(a['dtype'])})"),
        Op("add_buffer", "module", 1, lambda t: _real(t) and not t.is_bool,
           lambda o, a, s: f"{o[0]} + {s}", None,
           state=lambda t, a: _empty(t[0].shape, t[0].dtype), state_is_buffer=True),
    ]
    return {op.name: op for op in ops}


OPS: dict[str, Op] = _build()
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(op.family for op in OPS.values()))


def render_op(op_name: str, operands: tuple[str, ...], attrs: dict, types: tuple[TensorType, ...], state: str) -> str:
    """The Python expression computing one value; ``state`` is where its state lives."""
    return OPS[op_name].render(operands, {**attrs, "_types": types}, state)


def state_source(op_name: str, attrs: dict, types: tuple[TensorType, ...]) -> str | None:
    op = OPS[op_name]
    return None if op.state is None else op.state(types, attrs)


def infer(op_name: str, attrs: dict, types: tuple[TensorType, ...]) -> tuple[str | None, tuple[int, ...] | None, str | None]:
    """(dtype, shape, pytype) of the value, from PyTorch itself on meta tensors."""
    return _infer(op_name, tuple(sorted(attrs.items())), types)


# Drawing a case asks again and again about the same few op/dtype/shape combinations;
# running the op on meta tensors each time was most of the generator's cost.
@functools.lru_cache(maxsize=1 << 16)
def _infer(op_name: str, attr_items: tuple, types: tuple[TensorType, ...]) -> tuple[str | None, tuple[int, ...] | None, str | None]:
    attrs = dict(attr_items)
    names = tuple(f"x{i}" for i in range(len(types)))
    scope: dict[str, Any] = {
        "torch": torch,
        **{n: torch.empty(t.shape, dtype=getattr(torch, t.dtype), device="meta") for n, t in zip(names, types)},
    }
    state = state_source(op_name, attrs, types)
    if state is not None:
        with torch.device("meta"):
            scope["state"] = eval(state, {"torch": torch})  # noqa: S307 - our own rendered source
    expr = render_op(op_name, names, attrs, types, "state")
    out = eval(expr, scope)  # noqa: S307 - our own rendered source
    if isinstance(out, torch.Tensor):
        return str(out.dtype).removeprefix("torch."), tuple(out.shape), None
    return None, None, type(out).__name__
