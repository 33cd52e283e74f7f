"""Unary math (exp, log, roots, trigonometry, rounding, float classes) and activations,
softmax and log_softmax included.

Every op here is defined on the ranges it accepts: a function with a restricted domain
(log, sqrt, rsqrt, reciprocal, log1p) is applied to the value itself only where every
value eager can produce (the range widened by its error) lies inside the domain, and to
``|x| + 1`` (``|x|`` for log1p) otherwise; exp is taken only where its result stays
below the dtype's cap. Integer and bool operands promote to float32, and the steps
(round, floor, ceil, trunc) take only exact float operands.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..choices import sampled
from .base import EXACT_INT, UNIT, Op, TensorType, Type, finish, fits, guard_fits, real, rounding

#: Unary float functions of integers and bools compute in the default dtype.
_DEFAULT_FLOAT = "float32"


def _out_dtype(t: TensorType) -> str:
    return t.dtype if t.is_float else _DEFAULT_FLOAT


def _sigmoid(x: float) -> float:
    # The textbook 1 / (1 + e^-x) overflows math.exp for very negative x.
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    if x < -700:
        return 0.0
    e = math.exp(x)
    return e / (1 + e)


def _spread(lip: float, e: float, width: float) -> float:
    """How far f moves for an argument off by at most ``e``: Lipschitz times error, and
    never more than the width of f's image (both values lie in it)."""
    if e == 0:
        return 0.0
    return min(lip * e, width)


# -- monotone functions with a domain -------------------------------------------------------


@dataclass(frozen=True)
class _Monotone:
    """A monotone function on a domain. ``ok(A, B)``: the whole interval lies in the
    domain; ``lip(A, B)``: a bound on |f'| over it; ``shift``: the guard is ``|x| + shift``."""

    name: str
    f: Callable[[float], float]
    ok: Callable[[float, float], bool]
    lip: Callable[[float, float], float]
    shift: int = 1
    holder: bool = False


def _argument(t: TensorType, out: str, guarded: bool, shift: int) -> tuple[float, float, float]:
    """(lo, hi, err) of what the function sees: the operand or its guard, in ``out``."""
    if not guarded:
        a, b, e = t.lo, t.hi, t.err
    else:
        if t.lo >= 0:
            a, b = t.lo, t.hi
        elif t.hi <= 0:
            a, b = -t.hi, -t.lo
        else:
            a, b = 0.0, t.mag
        a, b, e = a + shift, b + shift, t.err
        if t.is_float and shift:
            e += UNIT[t.dtype] * b  # the `+ 1` rounds in the operand's dtype
    if not t.is_float and max(abs(a), abs(b)) > EXACT_INT[out]:
        e += UNIT[out] * max(abs(a), abs(b))  # large integers round on the way to float
    return a, b, e


def _negative(t: TensorType) -> bool:
    """Eager may produce a negative value: the guard needs its abs."""
    return not t.is_bool and t.lo - t.err < 0


def _plan(spec: _Monotone, t: TensorType) -> bool | None:
    """False: apply f to the operand; True: to its guard; None: neither is defined."""
    out = _out_dtype(t)
    for guarded in (False, True):
        if guarded and not guard_fits(t, spec.shift):
            return None
        a, b, e = _argument(t, out, guarded, spec.shift)
        if not spec.ok(a - e, b + e):
            continue
        ends = (spec.f(a - e), spec.f(b + e))
        return guarded if fits(out, min(ends), max(ends)) else None
    return None


def _monotone_ok(spec: _Monotone) -> Callable[[TensorType], bool]:
    return lambda t: real(t) and _plan(spec, t) is not None


def _render_monotone(spec: _Monotone) -> Callable:
    def render(o: tuple[str, ...], a: dict, s: str) -> str:
        t, x = a["_types"][0], o[0]
        if _plan(spec, t):
            x = f"{x}.abs()" if _negative(t) else x
            x = f"({x} + {spec.shift})" if spec.shift else x
        return f"torch.{spec.name}({x})"

    return render


def _derive_monotone(spec: _Monotone) -> Callable:
    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        t = types[0]
        a, b, e = _argument(t, out.dtype, bool(_plan(spec, t)), spec.shift)
        lo, hi = sorted((spec.f(a), spec.f(b)))
        wide = sorted((spec.f(a - e), spec.f(b + e)))
        spread = _spread(spec.lip(a - e, b + e), e, wide[1] - wide[0])
        if spec.holder:
            spread = min(spread, math.sqrt(e))  # |sqrt(x) - sqrt(y)| <= sqrt(|x - y|)
        return finish(out, lo, hi, spread + rounding(out, lo, hi, 4))

    return derive


def _monotone_op(spec: _Monotone) -> Op:
    return Op(spec.name, "math", 1, _monotone_ok(spec), _render_monotone(spec), _derive_monotone(spec))


def _always(a: float, b: float) -> bool:
    return True


def _inverse_square(a: float, b: float) -> float:
    return 1 / min(abs(a), abs(b)) ** 2


_MONOTONE = (
    # exp: math.exp overflows past 709; the dtype's cap rejects far earlier.
    _Monotone("exp", math.exp, lambda a, b: b <= 100, lambda a, b: math.exp(b)),
    _Monotone("log", math.log, lambda a, b: a > 0, lambda a, b: 1 / a),
    _Monotone("log1p", math.log1p, lambda a, b: a > -1, lambda a, b: 1 / (1 + a), shift=0),
    _Monotone("sqrt", math.sqrt, lambda a, b: a >= 0, lambda a, b: 1 / (2 * math.sqrt(a)) if a > 0 else math.inf,
              holder=True),
    _Monotone("rsqrt", lambda x: 1 / math.sqrt(x), lambda a, b: a > 0, lambda a, b: 0.5 * a**-1.5),
    _Monotone("reciprocal", lambda x: 1 / x, lambda a, b: a > 0 or b < 0, _inverse_square),
    _Monotone("tanh", math.tanh, _always, lambda a, b: 1.0),
    _Monotone("sigmoid", _sigmoid, _always, lambda a, b: 0.25),
    _Monotone("erf", math.erf, _always, lambda a, b: 2 / math.sqrt(math.pi)),
)


# -- periodic ---------------------------------------------------------------------------------

#: Vectorized sin/cos guarantee their accuracy only on a bounded argument range.
_TRIG_MAX = 1e4


def _trig_ok(t: TensorType) -> bool:
    if not real(t):
        return False
    _, _, e = _argument(t, _out_dtype(t), False, 0)
    return t.mag + e <= _TRIG_MAX


def _derive_trig(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    _, _, e = _argument(types[0], out.dtype, False, 0)
    return finish(out, -1.0, 1.0, _spread(1.0, e, 2.0) + rounding(out, -1.0, 1.0, 4))


# -- steps and float classes -------------------------------------------------------------------


def _step_ok(t: TensorType) -> bool:
    # Eager has no round/floor for bool; a float with error may sit on either side of a step.
    return t.is_int or (t.is_float and t.exact)


def _derive_step(f: Callable[[float], float]) -> Callable:
    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        t = types[0]
        if t.is_int:
            return finish(out, t.lo, t.hi, 0.0)  # integers are returned as they are
        return finish(out, f(t.lo), f(t.hi), 0.0)

    return derive


_STEPS = {
    # Python's round is half to even, like torch.round; all four are non-decreasing.
    "round": lambda x: float(round(x)),
    "floor": lambda x: float(math.floor(x)),
    "ceil": lambda x: float(math.ceil(x)),
    "trunc": lambda x: float(math.trunc(x)),
}

#: On a value that cannot be NaN or infinite, each class test is a constant.
_CLASSES = {"isnan": 0.0, "isinf": 0.0, "isfinite": 1.0}


# -- activations ---------------------------------------------------------------------------


def _float_ok(t: TensorType) -> bool:
    return t.is_float


def _derive_relu(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return finish(out, max(t.lo, 0.0), max(t.hi, 0.0), t.err)


def _gelu(x: float) -> float:
    return 0.5 * x * math.erfc(-x / math.sqrt(2))


def _gelu_tanh(x: float) -> float:
    # 0.5 x (1 + tanh(y)) = x sigmoid(2 y), without overflowing for large |x|.
    return x * _sigmoid(2 * math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)) if abs(x) < 1e6 else max(x, 0.0)


def _silu(x: float) -> float:
    return x * _sigmoid(x)


def _hardswish(x: float) -> float:
    return x * min(max(x + 3, 0.0), 6.0) / 6


@dataclass(frozen=True)
class _Valley:
    """Decreasing up to ``x_min`` and increasing after; |f'| <= ``lip``."""

    f: Callable[[float], float]
    x_min: float
    f_min: float
    lip: float


#: Minima found numerically, rounded down; the Lipschitz bounds rounded up.
_VALLEYS = {
    "gelu": _Valley(_gelu, -0.75179, -0.1699713, 1.129),
    "gelu_tanh": _Valley(_gelu_tanh, -0.75246, -0.1700409, 1.13),
    "silu": _Valley(_silu, -1.278465, -0.2784646, 1.1),
    "hardswish": _Valley(_hardswish, -1.5, -0.375, 1.5),
}


def _valley_range(v: _Valley, lo: float, hi: float) -> tuple[float, float]:
    ends = (v.f(lo), v.f(hi))
    # Near the minimum the float estimate of x_min decides: take the minimum itself.
    bottom = v.f_min if lo <= v.x_min + 1e-3 and hi >= v.x_min - 1e-3 else min(ends)
    return bottom, max(ends)


def _derive_valley(key: Callable[[dict], str]) -> Callable:
    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        t, v = types[0], _VALLEYS[key(attrs)]
        lo, hi = _valley_range(v, t.lo, t.hi)
        wide = _valley_range(v, t.lo - t.err, t.hi + t.err)
        return finish(out, lo, hi, _spread(v.lip, t.err, wide[1] - wide[0]) + rounding(out, lo, hi, 4))

    return derive


def _gelu_key(attrs: dict) -> str:
    return "gelu_tanh" if attrs["approximate"] == "tanh" else "gelu"


def _render_gelu(o: tuple[str, ...], a: dict, s: str) -> str:
    if a["approximate"] == "none":
        return f"torch.nn.functional.gelu({o[0]})"
    return f"torch.nn.functional.gelu({o[0]}, approximate={a['approximate']!r})"


#: Exact in every float dtype: the product x * slope rounds only as x itself would.
_SLOPES = (0.25, 0.5, 0.125)


def _derive_leaky(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t, slope = types[0], attrs["negative_slope"]

    def f(x: float) -> float:
        return x if x >= 0 else slope * x

    lo, hi = f(t.lo), f(t.hi)
    return finish(out, lo, hi, t.err + rounding(out, lo, hi, 1))


def _elu(x: float) -> float:
    return x if x > 0 else math.expm1(x)


def _derive_elu(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    lo, hi = _elu(t.lo), _elu(t.hi)
    return finish(out, lo, hi, t.err + rounding(out, lo, hi, 4))


# -- softmax ---------------------------------------------------------------------------------


def _softmax_dims(t: TensorType) -> list[int]:
    # A 0-d tensor counts as one element along dim 0 (or -1).
    return [0, -1] if t.rank == 0 else [*range(t.rank), -1]


def _draw_softmax(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dim": draw(sampled(_softmax_dims(types[0])))}


def _length(t: TensorType, dim: int) -> int:
    return 1 if t.rank == 0 else t.shape[dim]


def _log_share(n: int, d: float, sign: int) -> float:
    """log(1 + (n - 1) e^(sign d)): minus the log of the smallest (sign 1) or largest
    (sign -1) share one of n values within d of each other can take."""
    if n <= 1:
        return 0.0
    if sign * d > 30:
        return d + math.log(n - 1 + math.exp(-d))
    return math.log1p((n - 1) * math.exp(sign * d))


def _derive_softmax(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = _length(t, attrs["dim"])
    if n == 0:
        return finish(out, 0.0, 1.0, 0.0)  # no values at all
    d = t.hi - t.lo
    lo, hi = math.exp(-_log_share(n, d, 1)), math.exp(-_log_share(n, d, -1))
    # |d p_i| <= 2 p_i (1 - p_i) max |d x| <= max |d x| / 2; the sum of n exps rounds n times.
    return finish(out, lo, hi, t.err + rounding(out, lo, hi, n + 4))


def _derive_log_softmax(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = _length(t, attrs["dim"])
    if n == 0:
        return finish(out, 0.0, 0.0, 0.0)
    d = t.hi - t.lo
    lo, hi = -_log_share(n, d, 1), -_log_share(n, d, -1)
    # x_i - log(sum e^x_j) moves by at most twice the operand's error; the log of a sum
    # off by n roundings is off by n units.
    return finish(out, lo, hi, 2 * t.err + rounding(out, lo, hi, 4) + (n + 4) * UNIT[out.dtype])


OPS = [
    # Monotone functions, guarded into their domain where the range leaves it.
    *[_monotone_op(spec) for spec in _MONOTONE],
    *[
        Op(name, "math", 1, _trig_ok, lambda o, a, s, name=name: f"torch.{name}({o[0]})", _derive_trig)
        for name in ("sin", "cos")
    ],
    # Steps: exact in, exact out.
    *[
        Op(name, "math", 1, _step_ok, lambda o, a, s, name=name: f"torch.{name}({o[0]})", _derive_step(f))
        for name, f in _STEPS.items()
    ],
    *[
        Op(name, "math", 1, real, lambda o, a, s, name=name: f"torch.{name}({o[0]})",
           lambda types, attrs, out, v=v: finish(out, 0.0, 1.0, 0.0) if types[0].nonfinite else finish(out, v, v, 0.0))
        for name, v in _CLASSES.items()
    ],
    # Activations: relu takes integers too (not bool); the rest are float-only in eager.
    Op("relu", "activation", 1, lambda t: real(t) and not t.is_bool, lambda o, a, s: f"torch.relu({o[0]})",
       _derive_relu),
    Op("gelu", "activation", 1, _float_ok, _render_gelu, _derive_valley(_gelu_key),
       lambda draw, t: {"approximate": draw(sampled(("none", "tanh")))}),
    *[
        Op(name, "activation", 1, _float_ok, lambda o, a, s, name=name: f"torch.nn.functional.{name}({o[0]})",
           _derive_valley(lambda attrs, name=name: name))
        for name in ("silu", "hardswish")
    ],
    Op("leaky_relu", "activation", 1, _float_ok,
       lambda o, a, s: f"torch.nn.functional.leaky_relu({o[0]}, negative_slope={a['negative_slope']!r})",
       _derive_leaky, lambda draw, t: {"negative_slope": draw(sampled(_SLOPES))}),
    Op("elu", "activation", 1, _float_ok, lambda o, a, s: f"torch.nn.functional.elu({o[0]})", _derive_elu),
    Op("softmax", "activation", 1, _float_ok, lambda o, a, s: f"torch.softmax({o[0]}, dim={a['dim']})",
       _derive_softmax, _draw_softmax),
    Op("log_softmax", "activation", 1, _float_ok, lambda o, a, s: f"torch.log_softmax({o[0]}, dim={a['dim']})",
       _derive_log_softmax, _draw_softmax),
]

__all__ = ["OPS"]
