"""Elementwise ops: arithmetic (tensor and Python-scalar operands), comparisons, logic,
bitwise, casts, and selection (where, masked_fill, clamp, gathers).

Every op here is defined on the ranges it accepts: a signed integer result fits its
dtype, an unsigned one (uint8 ``+``, ``-``, ``*``, ``-x``, ``**``, ``<<``) and an
integer-to-integer cast may wrap modulo 2^n, as eager defines them (``base.result_range``:
the range is then the whole type), divisors are guarded away from zero, and the
discontinuous ones (comparisons, floor division, remainders, casts to integers, sign)
take only exact float operands. Bool tensors take what eager defines on them (``sign``,
``square``, ``clamp``, ``b ** 2``, ``b // 2``, ``amax``), not ``neg``/``abs``, which raise.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from hypothesis import strategies as st

from ..choices import booleans, integers, sampled
from .base import (
    COMPLEX,
    EXACT_INT,
    FLOATS,
    INTS,
    UNIT,
    Op,
    TensorType,
    Type,
    arith_error,
    arith_interval,
    broadcastable,
    derive_bool,
    derive_same,
    dt,
    finish,
    fits,
    guard_fits,
    in_dtype,
    interval_mul,
    moved_fits,
    real,
    result_dtype,
    result_range,
    rounding,
    tensor_key,
    wrapped,
)

_ARITH = {"add": "+", "sub": "-", "mul": "*"}
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_LOGICAL = ("logical_and", "logical_or", "logical_xor")
_BITWISE = {"bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^"}

#: Python scalars drawn beside a tensor: small; the floats exact in every float dtype but
#: 0.1 and 1/3, which are not even in float32: a frontend that rounds a Python float
#: through float32 gets a float64 result wrong.
_SCALARS = {"int": (1, 2, 3, -2), "float": (0.5, 2.5, -1.25, 0.75, 0.1, 1 / 3), "bool": (True, False)}
_ALL_SCALARS = (*_SCALARS["int"], *_SCALARS["float"], *_SCALARS["bool"])


def _exact(*types: TensorType) -> bool:
    """Float operands carry no rounding error (ints and bools never do)."""
    return all(t.exact for t in types)


def _rng(t: TensorType | float | bool) -> tuple[float, float]:
    return (t.lo, t.hi) if isinstance(t, TensorType) else (float(t), float(t))


def _key(t: TensorType | float | bool) -> tuple[str, bool] | float | bool:
    return tensor_key(t) if isinstance(t, TensorType) else t


def _result_defined(name: str, a: TensorType | float, b: TensorType | float) -> bool:
    """``a OP b`` is defined on the operands' ranges: it fits, or wraps (uint8)."""
    out = result_dtype(_key(a), _key(b))
    if out == "bool":
        return True  # bool + bool is `or`, bool * bool is `and`: saturating by definition
    lo, hi = arith_interval(name, _rng(a), _rng(b))
    return result_range(out, lo, hi) is not None


def _arith_ok(name: str) -> Callable[[TensorType, TensorType], bool]:
    def ok(a: TensorType, b: TensorType) -> bool:
        if not broadcastable(a, b):
            return False
        if name == "sub" and (a.is_bool or b.is_bool):
            return False  # eager rejects `-` on bool tensors
        if a.is_complex or b.is_complex:
            # A float64 with a 0-d complex64 is complex128, which no op here models.
            return not (a.is_bool or b.is_bool) and result_dtype(tensor_key(a), tensor_key(b)) in COMPLEX
        return _result_defined(name, a, b)

    return ok


def _derive_arith(name: str) -> Callable:
    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        a, b = types[0], types[1] if len(types) > 1 else attrs["value"]
        if attrs.get("left"):
            a, b = b, a
        if isinstance(out, TensorType) and out.is_complex:
            # Real and imaginary parts: |re|, |im| <= |a| + |b| (add), 2 |a| |b| (mul).
            m = _rng(a)[1] + _rng(b)[1] if name != "mul" else 2 * max(map(abs, _rng(a))) * max(map(abs, _rng(b)))
            return finish(out, -m, m, arith_error(name, a, b) + rounding(out, -m, m, 2))
        lo, hi = arith_interval(name, _rng(a), _rng(b))
        err = arith_error(name, a, b) + rounding(out, lo, hi, 1)
        return finish(out, *wrapped(out, lo, hi), err)

    return derive


def _nonzero(t: TensorType) -> bool:
    return t.lo > 0 or t.hi < 0


def _divisor(b: str, t: TensorType) -> str:
    """``b`` itself when its range excludes 0, else ``|b| + 1 >= 1``: defined for every value."""
    if _nonzero(t):
        return b
    return f"({b}.abs() + 1)" if t.can_be_negative else f"({b} + 1)"


def _guardable(t: TensorType) -> bool:
    """The guard ``|b| + 1`` does not wrap (``abs(-128)`` is -128 in int8)."""
    return _nonzero(t) or guard_fits(t, 1)


def _divisor_range(t: TensorType) -> tuple[float, float]:
    if _nonzero(t):
        return t.lo, t.hi
    return 1.0, t.mag + 1


def _quotient(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """Range of a / b for a divisor range that excludes 0."""
    return interval_mul(a, (1 / b[1], 1 / b[0]))


def _div_ok(a: TensorType, b: TensorType) -> bool:
    if not (broadcastable(a, b) and real(a) and real(b) and not b.is_bool and _guardable(b)):
        return False
    # The quotient must stay under the cap of its dtype: an int32 of 1e6 over a float16
    # in [0.5, 3] is a float16 of 2e6, inf. (Integers over integers stay in range.)
    out = result_dtype(tensor_key(a), tensor_key(b))
    return out not in FLOATS or fits(out, *_quotient((a.lo, a.hi), _divisor_range(b)))


def _derive_true_div(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    a, b = types
    d = _divisor_range(b)
    lo, hi = _quotient((a.lo, a.hi), d)
    small = min(abs(d[0]), abs(d[1]))
    # The guard |b| + 1 rounds in b's dtype (float16's 1.2471 + 1 is 2.248): a compiler
    # that keeps it wider divides by the exact 2.2471.
    b_err = b.err + (0.0 if _nonzero(b) else rounding(b, *d, 1))
    err = a.err / small + a.mag * b_err / small**2
    return finish(out, lo, hi, err + rounding(out, lo, hi, 1))


def _floor_ok(a: TensorType, b: TensorType) -> bool:
    # Low-precision floats round the quotient before flooring: keep to exact dtypes.
    return (_div_ok(a, b) and (a.is_int or a.dtype in ("float32", "float64"))
            and (b.is_int or b.dtype in ("float32", "float64")) and _exact(a, b))


def _derive_floor_div(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    a, b = types
    lo, hi = _quotient((a.lo, a.hi), _divisor_range(b))
    return finish(out, math.floor(lo), math.ceil(hi), 0.0)


def _derive_remainder(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    # |a % b| < |b| (the sign of b: -2 % 6 is 4, more than |a|), exactly computed.
    m = max(map(abs, _divisor_range(types[1])))
    return finish(out, -m, m, 0.0)


def _derive_fmod(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    # fmod keeps the sign of a: |fmod(a, b)| < |b| and <= |a|.
    a, b = types
    m = min(max(map(abs, _divisor_range(b))), a.mag)
    return finish(out, -m, m, 0.0)


def _draw_div_mode(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    # A rounding mode is a step: its operands must be exact, and so must a divisor's guard
    # |b| + 1, which rounds in float16 and bfloat16 (float16's 5760 + 1 is 5760, and a
    # compiler that keeps the guard in float32 truncates 5760 / 5761 to 0, not 1).
    # (Drawn, then dropped, where the guard rounds: a value draws the same choices either
    # way, so the derandomised draws the ci survey saw stay the same.)
    b = types[1]
    guard_rounds = b.dtype in ("float16", "bfloat16") and not _nonzero(b)
    modes = [None] if not _exact(*types) else [None, "trunc", "floor"]
    mode = draw(sampled(modes))
    return {"mode": None if guard_rounds else mode}


def _render_div(o: tuple[str, ...], a: dict, s: str) -> str:
    mode = "" if a["mode"] is None else f", rounding_mode={a['mode']!r}"
    return f"torch.div({o[0]}, {_divisor(o[1], a['_types'][1])}{mode})"


def _derive_div(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    if attrs["mode"] is None:
        return _derive_true_div(types, attrs, out)
    return _derive_floor_div(types, attrs, out)


def _div_mode_ok(a: TensorType, b: TensorType) -> bool:
    # Integer division by an integer truncates or floors exactly; a float quotient is
    # rounded first, which only exact float32/float64 operands keep well defined.
    if not _div_ok(a, b):
        return False
    if a.is_int or a.is_bool:
        return b.is_int or b.is_bool or b.dtype in ("float32", "float64") or _exact(a, b)
    return True


# -- Python scalars on either side ---------------------------------------------------------


# Asked once to accept an operand and again to draw the scalar: each of a value's ops
# asks about the same few types.
@functools.lru_cache(maxsize=1 << 14)
def _scalar_choices(name: str, t: TensorType) -> tuple[tuple[float | bool, bool], ...]:
    """(scalar, scalar on the left) pairs for which ``t OP scalar`` is defined on t's range."""
    return tuple((value, left) for value in _ALL_SCALARS for left in (False, True) if _scalar_ok(name, t, value, left))


def _scalar_ok(name: str, t: TensorType, value: float | bool, left: bool) -> bool:
    if t.is_complex:
        return False
    if t.dtype == "uint8" and value < 0 and name not in ("compare", "add", "sub", "mul"):
        # The scalar is cast to uint8 first, -2 to 254: a sum, difference or product is
        # still the exact one modulo 2^8 (it wraps, as uint8 does), but `x // -2` is x // 254.
        return False
    if name in ("add", "sub", "mul"):
        if name == "sub" and (t.is_bool or isinstance(value, bool)):
            return False  # eager rejects `-` on bool tensors and `x - True`
        a, b = (value, t) if left else (t, value)
        return _result_defined(name, a, b)
    if name == "div":
        if left:
            return not t.is_bool and not isinstance(value, bool) and _guardable(t)
        if isinstance(value, bool) or value == 0:
            return False
        # x / 0.1 is ten times x: it must stay under the cap of the (float) quotient.
        return fits(t.dtype if t.is_float else "float32", -t.mag / abs(value), t.mag / abs(value))
    if name in ("floordiv", "mod"):
        if isinstance(value, bool) or not _exact(t) or t.dtype in ("float16", "bfloat16"):
            return False
        if t.is_bool:
            return not left and isinstance(value, int)  # b // 2, b % -2: int64, exact
        if left:
            if not _guardable(t):
                return False
            # s // x for an x that could be 0 is guarded by |x| + 1; the result stays
            # in the promoted dtype (a negative s over uint8 would wrap).
            num, den = (value, value), _divisor_range(t)
            lo, hi = _quotient(num, den) if name == "floordiv" else (-abs(den[1]), abs(den[1]))
            return fits(result_dtype(value, tensor_key(t)), math.floor(lo), math.ceil(hi))
        return value != 0 and (t.is_float or isinstance(value, int)) or (t.is_int and isinstance(value, float))
    if name == "pow":
        if isinstance(value, bool):
            return False
        if t.is_bool:
            # b ** 2 and 2 ** b compute in int64 (0 or 1, 1 or 2): defined on every bool.
            return isinstance(value, int) and value > 0 and (left or value in (2, 3))
        if left:
            # s ** x: a positive base; an integer x is kept >= 0 (negative integer powers raise).
            if value <= 0 or (t.is_int and isinstance(value, float)) or not fits(t.dtype, 0, t.mag):
                return False
            top = max(abs(t.lo), abs(t.hi)) if t.is_int else t.hi
            bottom = 0 if t.is_int else t.lo
            out = result_dtype(value, tensor_key(t))
            # The largest power is at the top exponent for a base above 1, else the bottom.
            if max(top * math.log2(value), bottom * math.log2(value)) >= 60:
                return False
            return fits(out, 0, max(value ** top, value ** bottom))
        if value not in (2, 3, 0.5):
            return False
        if value == 0.5:
            return t.is_float
        out = result_dtype(tensor_key(t), value)
        return result_range(out, -(t.mag ** value), t.mag ** value) is not None  # uint8 ** 2 wraps
    if name == "compare":
        return _exact(t) and not t.is_complex
    raise ValueError(name)


def _draw_scalar(name: str) -> Callable:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        value, left = draw(sampled(_scalar_choices(name, types[0])))
        attrs = {"value": value, "left": left}
        if name == "compare":
            attrs["cmp"] = draw(sampled(tuple(_COMPARE.values())))
        return attrs

    return draw_attrs


_SCALAR_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%", "pow": "**"}


def _render_scalar(name: str) -> Callable:
    def render(o: tuple[str, ...], a: dict, s: str) -> str:
        t, value = a["_types"][0], a["value"]
        symbol = a.get("cmp") or _SCALAR_SYMBOL[name]
        x = o[0]
        if a.get("left"):
            if name in ("div", "floordiv", "mod"):
                x = _divisor(x, t)
            elif name == "pow" and t.is_int and t.can_be_negative:
                x = f"{x}.abs()"
            return f"{value!r} {symbol} {x}"
        if name == "pow" and value == 0.5 and t.can_be_negative:
            x = f"{x}.abs()"
        return f"{x} {symbol} {value!r}"

    return render


def _derive_scalar(name: str) -> Callable:
    exact_scalars = _derive_exact_scalar(name)

    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        result = exact_scalars(types, attrs, out)
        value = attrs["value"]
        if not (isinstance(result, TensorType) and result.is_float and isinstance(value, float)
                and in_dtype(value, result.dtype) != value):
            return result
        # The scalar itself rounds to the result's dtype (eager computes in it): an error
        # of u |s| in s, which a product or quotient scales by the other operand.
        scale = max(1.0, types[0].mag) * (abs(value) + 1 / abs(value))
        if name == "pow":  # s ** x: relative error x u
            scale = max(1.0, types[0].mag) * max(abs(result.lo), abs(result.hi))
        return replace(result, err=result.err + UNIT[result.dtype] * scale)

    return derive


def _derive_exact_scalar(name: str) -> Callable:
    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        t, value, left = types[0], attrs["value"], attrs.get("left", False)
        if name in ("add", "sub", "mul"):
            return _derive_arith(name)(types, attrs, out)
        if name == "compare":
            return derive_bool(types, attrs, out)
        if name == "div":
            if left:
                d = _divisor_range(t)
                lo, hi = _quotient((value, value), d)
                small = min(map(abs, d))
                return finish(out, lo, hi, abs(value) * t.err / small**2 + rounding(out, lo, hi, 1))
            lo, hi = sorted((t.lo / value, t.hi / value))
            return finish(out, lo, hi, t.err / abs(value) + rounding(out, lo, hi, 1))
        if name in ("floordiv", "mod"):
            num, den = ((value, value), _divisor_range(t)) if left else ((t.lo, t.hi), (value, value))
            if name == "floordiv":
                lo, hi = _quotient(num, den)
                return finish(out, math.floor(lo), math.ceil(hi), 0.0)
            m = max(map(abs, den))
            return finish(out, -m, m, 0.0)
        # pow
        if left:
            top = t.mag if t.is_int else t.hi
            bottom = 0 if t.is_int else t.lo
            lo, hi = sorted((value ** bottom, value ** top))
            return finish(out, lo, hi, abs(math.log(value)) * hi * t.err + rounding(out, lo, hi, 4))
        if value == 0.5:
            m = math.sqrt(t.mag)
            # Lipschitz of sqrt is unbounded at 0: bound the error by sqrt(err) instead.
            return finish(out, 0.0, m, math.sqrt(t.err) + rounding(out, 0, m, 4))
        m = t.mag ** value
        lo = 0.0 if value == 2 else t.lo ** 3
        hi = m if value == 2 else t.hi ** 3
        lipschitz = value * t.mag ** (value - 1)
        return finish(out, *wrapped(out, lo, hi), lipschitz * t.err + rounding(out, lo, hi, 2))

    return derive


@functools.lru_cache(maxsize=1 << 14)  # see _scalar_choices
def _div_mode_divisors(t: TensorType) -> tuple[float, ...]:
    """Python divisors ``s`` for which ``torch.div(t, s, rounding_mode=...)`` is defined
    on t's range: non-zero, the result within its dtype (int8 -128 / -1 overflows), a
    negative one not over uint8 (cast first: -2 is 254), an integer one over integers
    (exact division); float operands exact and float32/float64, as for ``//``."""
    if t.is_complex or not _exact(t) or t.dtype in ("float16", "bfloat16"):
        return ()
    pool = _SCALARS["int"] + _SCALARS["float"] if t.is_float else _SCALARS["int"]
    found = []
    for value in pool:
        if value == 0 or (t.dtype == "uint8" and value < 0):
            continue
        out = result_dtype(tensor_key(t), value)
        if result_range(out, *_div_mode_range(t, value, "floor", out)) is not None and \
                result_range(out, *_div_mode_range(t, value, "trunc", out)) is not None:
            found.append(value)
    return tuple(found)


def _div_mode_range(t: TensorType, value: float, mode: str, out: str) -> tuple[float, float]:
    """The range of ``torch.div(t, value, rounding_mode=mode)`` in dtype ``out``."""
    if t.is_float:
        # The divisor as the dtype holds it (0.1 in float32); the quotient rounds before
        # the step, so it may land on the next integer: floor and ceil of the ends.
        d = in_dtype(value, out)
        lo, hi = sorted((t.lo / d, t.hi / d))
        return float(math.floor(lo)), float(math.ceil(hi))
    # Integers: exact division, a non-decreasing step of a monotone quotient.
    step = math.trunc if mode == "trunc" else math.floor
    ends = sorted(step(Fraction(int(x), int(value))) for x in (t.lo, t.hi))
    return float(ends[0]), float(ends[1])


def _draw_div_mode_scalar(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"value": draw(sampled(_div_mode_divisors(types[0]))),
            "mode": draw(sampled(("trunc", "floor")))}


def _derive_div_mode_scalar(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    # A step of exact operands: exact, as floor division is.
    return finish(out, *_div_mode_range(types[0], attrs["value"], attrs["mode"], out.dtype), 0.0)


def _scalar_op(name: str, op_name: str | None = None) -> Op:
    return Op(op_name or f"{name}_scalar", "scalar", 1, lambda t: bool(_scalar_choices(name, t)),
              _render_scalar(name), _derive_scalar(name), _draw_scalar(name))


# -- casts -------------------------------------------------------------------------------

_CAST_TARGETS = ("float32", "float16", "bfloat16", "float64", *INTS, "bool")


@functools.lru_cache(maxsize=1 << 14)  # see _scalar_choices
def _cast_targets(t: TensorType) -> tuple[str, ...]:
    found = []
    for target in _CAST_TARGETS:
        if target in FLOATS:
            if fits(target, t.lo, t.hi):
                found.append(target)
        elif target == "bool":
            if t.exact and not t.nonfinite:
                found.append(target)
        elif not t.is_float:
            # Integer -> integer is defined on every value: it wraps modulo 2^n where the
            # value does not fit (result_range(cast=True)), a negative int16 to uint8 too.
            found.append(target)
        elif t.exact and not t.nonfinite and fits(target, *_cast_range(t, target)):
            # Float -> int truncates (a step function); out of range it is undefined.
            found.append(target)
    return tuple(found)


def _cast_range(t: TensorType, target: str) -> tuple[float, float]:
    """The values a float's cast to ``target`` sees: uint8 takes ``|x|`` (see ``_render_cast``)."""
    if target == "uint8" and t.can_be_negative:
        return (0.0, t.mag) if fits(t.dtype, 0, t.mag) else (0.0, math.inf)
    return t.lo, t.hi


def _draw_cast(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(sampled(_cast_targets(types[0])))}


def _render_cast(ops: tuple[str, ...], attrs: dict, self_: str) -> str:
    x, t = ops[0], attrs["_types"][0]
    # A negative float cast to uint8 is undefined in C (and so in compiled code); a
    # negative integer wraps, as eager defines it.
    if attrs["dtype"] == "uint8" and t.is_float and t.can_be_negative:
        return f"{x}.abs().to(torch.uint8)"
    return f"{x}.to({dt(attrs['dtype'])})"


def _derive_cast(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    if out.is_bool:
        return finish(out, 0, 1, 0)
    if out.is_int and not t.is_float:
        return finish(out, *result_range(out.dtype, t.lo, t.hi, cast=True), 0)
    lo, hi = _cast_range(t, attrs["dtype"]) if out.is_int else (t.lo, t.hi)
    if out.is_int:
        return finish(out, math.trunc(lo), math.trunc(hi), 0)
    exact_ints = (t.is_int or t.is_bool) and t.mag <= EXACT_INT[out.dtype]
    narrower = t.is_float and FLOATS.index(out.dtype) < 2 and out.dtype != t.dtype
    return finish(out, lo, hi, t.err + (0 if exact_ints or not narrower and not t.is_int else rounding(out, lo, hi, 1)))


# -- unary elementwise on integers and signs -------------------------------------------------


def _neg_ok(t: TensorType) -> bool:
    # Eager rejects -b on bool; -x of uint8 wraps (-1 is 255), of int8 -128 overflows.
    return real(t) and not t.is_bool and result_range(t.dtype, -t.hi, -t.lo) is not None


def _derive_neg(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return finish(out, *wrapped(out, -t.hi, -t.lo), t.err)


def _square_ok(t: TensorType) -> bool:
    # torch.square of a bool is int64 (0 or 1); of uint8 it wraps; a signed square fits.
    return real(t) and (t.is_bool or result_range(t.dtype, 0, t.mag**2) is not None)


def _derive_square(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    lo = 0.0 if t.lo <= 0 <= t.hi else min(t.lo**2, t.hi**2)
    hi = t.mag**2
    err = 2 * t.mag * t.err + t.err**2 + rounding(out, lo, hi, 1)
    return finish(out, *wrapped(out, lo, hi), err)


def _derive_abs(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    lo = 0.0 if t.lo <= 0 <= t.hi else min(abs(t.lo), abs(t.hi))
    return finish(out, lo, t.mag, t.err)


def _derive_bitwise_not(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    if t.is_bool:
        return finish(out, 0, 1, 0)
    if t.dtype == "uint8":
        return finish(out, 255 - t.hi, 255 - t.lo, 0)
    return finish(out, -t.hi - 1, -t.lo - 1, 0)


def _bits_range(a: TensorType, b: TensorType) -> tuple[float, float]:
    """A range holding a & b, a | b and a ^ b: the bits either operand can set."""
    top = 2 ** max(1, math.ceil(math.log2(max(a.mag, b.mag) + 1)))
    return (-top, top - 1) if a.can_be_negative or b.can_be_negative else (0, top - 1)


def _bitwise_ok(a: TensorType, b: TensorType) -> bool:
    return broadcastable(a, b) and (a.is_int or a.is_bool) and (b.is_int or b.is_bool) and \
        fits(result_dtype(tensor_key(a), tensor_key(b)), *_bits_range(a, b))


def _derive_bitwise(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    return finish(out, *_bits_range(*types), 0)


def _shift_ok(direction: str) -> Callable[[TensorType], bool]:
    def ok(t: TensorType) -> bool:
        # b << 1 is int64 on CPU, but its meta function raises: no dtype to record.
        if not t.is_int:
            return False
        if direction == "left":
            # A negative value shifted left is undefined in C: keep to non-negative ones.
            # uint8 << 3 wraps (its bits past the eighth are dropped).
            return t.lo >= 0 and result_range(t.dtype, 0, t.hi * 8) is not None
        return True

    return ok


def _derive_shift(direction: str) -> Callable:
    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        t, k = types[0], 2 ** attrs["value"]
        if direction == "left":
            return finish(out, *wrapped(out, t.lo * k, t.hi * k), 0)
        return finish(out, math.floor(t.lo / k), math.floor(t.hi / k), 0)

    return derive


def _derive_sign(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return finish(out, -1 if t.lo < 0 else 0, 1 if t.hi > 0 else 0, 0)


def _minmax_ok(a: TensorType, b: TensorType) -> bool:
    return broadcastable(a, b) and real(a) and real(b) and moved_fits(a, b)


# -- selection ------------------------------------------------------------------------------


def _where_ok(c: TensorType, a: TensorType, b: TensorType) -> bool:
    return c.is_bool and broadcastable(c, a) and broadcastable(c, b) and broadcastable(a, b) and real(a) and real(b) \
        and moved_fits(a, b)


def _branch_scalars(t: TensorType) -> tuple:
    return _SCALARS["bool"] if t.is_bool else _SCALARS["int"] + _SCALARS["float"] if t.is_float else _SCALARS["int"]


def _where_scalar_ok(c: TensorType, a: TensorType) -> bool:
    return c.is_bool and broadcastable(c, a) and real(a)


def _draw_branch(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"value": draw(sampled(_branch_scalars(types[1]))), "left": draw(booleans())}


def _derive_with_scalar(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[-1]
    value = in_dtype(float(attrs["value"]), out.dtype) if isinstance(out, TensorType) else float(attrs["value"])
    lo, hi = min(t.lo, value), max(t.hi, value)
    changed = isinstance(out, TensorType) and out.dtype != t.dtype and out.is_float
    return finish(out, lo, hi, t.err + (rounding(out, lo, hi, 1) if changed else 0))


def _masked_fill_ok(x: TensorType, m: TensorType) -> bool:
    # The mask broadcasts to x's shape (masked_fill never enlarges x).
    return m.is_bool and real(x) and broadcastable(x, m) and m.rank <= x.rank and all(
        ms in (1, xs) for ms, xs in zip(reversed(m.shape), reversed(x.shape)))


def _draw_fill(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    x = types[0]
    choices = _SCALARS["bool"] if x.is_bool else _SCALARS["int"] + _SCALARS["float"] if x.is_float else \
        tuple(v for v in _SCALARS["int"] if fits(x.dtype, v, v))
    return {"value": draw(sampled(choices))}


def _derive_fill(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    return _derive_with_scalar(types[:1], attrs, out)


def _draw_clamp(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    if t.is_bool:
        # A bool clamped by a Python int is int64, by a float float32 (True bounds raise).
        pool: tuple[float, ...] = _SCALARS["int"] + _SCALARS["float"]
    else:
        pool = _SCALARS["float"] if t.is_float else tuple(v for v in _SCALARS["int"] if fits(t.dtype, v, v))
    low = draw(sampled((None, *pool)))
    high = draw(sampled((None, *(v for v in pool if low is None or v >= low))))
    if low is None and high is None:
        low = pool[0]
    return {"min": low, "max": high}


def _render_clamp(o: tuple[str, ...], a: dict, s: str) -> str:
    bounds = ", ".join(f"{k}={a[k]!r}" for k in ("min", "max") if a.get(k) is not None)
    return f"{o[0]}.clamp({bounds})"


def _derive_clamp(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    lo, hi, err = t.lo, t.hi, t.err
    # The bounds as the result's dtype holds them (a bool clamped by 0.1 is float32). A
    # compiler keeping more precision may hold the bound exactly (0.1, not float16's
    # 0.0999755859375): clamp moves by at most what the bound moved.
    if attrs.get("min") is not None:
        low = in_dtype(attrs["min"], out.dtype)
        lo, hi, err = max(lo, low), max(hi, low), err + abs(attrs["min"] - low)
    if attrs.get("max") is not None:
        high = in_dtype(attrs["max"], out.dtype)
        lo, hi, err = min(lo, high), min(hi, high), err + abs(attrs["max"] - high)
    return finish(out, lo, hi, err)


def _clamp_tensor_ok(x: TensorType, low: TensorType, high: TensorType) -> bool:
    same_kind = all(t.is_float == x.is_float and not t.is_bool for t in (low, high))
    return real(x) and not x.is_bool and same_kind and broadcastable(x, low) and broadcastable(x, high) and \
        broadcastable(low, high) and moved_fits(x, low, high)


def _derive_clamp_tensor(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    x, low, high = types
    # min(max(x, low), high): every result lies in the span of the three operands.
    return derive_same(types, attrs, out)


def _index_ok(t: TensorType) -> bool:
    return t.rank >= 1 and any(s > 0 for s in t.shape)


#: Up to this many indices are drawn one by one (and shrink) and written as a literal.
_LITERAL_INDICES = 64


def _draw_index(kind: str) -> Callable:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        t = types[0]
        dim = draw(sampled([d for d, s in enumerate(t.shape) if s > 0]))
        size = t.shape[dim]
        if kind == "index_select":
            count = draw(integers(1, 3))
            shape: tuple[int, ...] = (count,)
        else:
            shape = tuple(draw(integers(1, 3)) if d == dim else s for d, s in enumerate(t.shape))
            if kind == "take_along_dim":
                # Broadcast against the input: other dims may be 1.
                shape = tuple(s if d == dim or not draw(booleans()) else min(1, s) for d, s in enumerate(shape))
        count = math.prod(shape)
        if count > _LITERAL_INDICES:
            # A large index (a large-size-class input) as an expression, not a literal:
            # (k * stride + offset) % size over k = 0, 1, ...
            return {"dim": dim, "index_shape": shape, "stride": draw(integers(1, size)),
                    "offset": draw(integers(0, size - 1)), "size": size}
        index = tuple(draw(st.lists(st.integers(0, size - 1), min_size=count, max_size=count)))
        return {"dim": dim, "index": index, "index_shape": shape}

    return draw_attrs


def _render_index(kind: str) -> Callable:
    def render(o: tuple[str, ...], a: dict, s: str) -> str:
        if "index" in a:
            flat = f"torch.tensor({list(a['index'])!r})"
        else:
            count = math.prod(a["index_shape"])
            flat = f"((torch.arange({count}) * {a['stride']} + {a['offset']}) % {a['size']})"
        index = f"{flat}.reshape({tuple(a['index_shape'])!r})"
        if kind == "index_select":
            return f"torch.index_select({o[0]}, {a['dim']}, {flat})"
        if kind == "gather":
            return f"torch.gather({o[0]}, {a['dim']}, {index})"
        return f"torch.take_along_dim({o[0]}, {index}, dim={a['dim']})"

    return render


def _index_family(kind: str) -> Op:
    return Op(kind, "select", 1, lambda t: _index_ok(t) and (kind == "index_select" or 0 not in t.shape),
              _render_index(kind), derive_same, _draw_index(kind), complex_ok=True)


OPS = [
    # Arithmetic across mixed dtypes: PyTorch's type promotion decides the result.
    *[
        Op(name, "arith", 2, _arith_ok(name), lambda o, a, s, sym=sym: f"{o[0]} {sym} {o[1]}", _derive_arith(name),
           complex_ok=True)
        for name, sym in _ARITH.items()
    ],
    Op("true_div", "arith", 2, _div_ok,
       lambda o, a, s: f"torch.true_divide({o[0]}, {_divisor(o[1], a['_types'][1])})", _derive_true_div),
    Op("floor_div", "arith", 2, _floor_ok,
       lambda o, a, s: f"torch.floor_divide({o[0]}, {_divisor(o[1], a['_types'][1])})", _derive_floor_div),
    Op("div", "arith", 2, _div_mode_ok, _render_div, _derive_div, _draw_div_mode),
    Op("remainder", "arith", 2, _floor_ok,
       lambda o, a, s: f"torch.remainder({o[0]}, {_divisor(o[1], a['_types'][1])})", _derive_remainder),
    Op("fmod", "arith", 2, _floor_ok,
       lambda o, a, s: f"torch.fmod({o[0]}, {_divisor(o[1], a['_types'][1])})", _derive_fmod),
    Op("minimum", "arith", 2, _minmax_ok, lambda o, a, s: f"torch.minimum({o[0]}, {o[1]})", derive_same),
    Op("maximum", "arith", 2, _minmax_ok, lambda o, a, s: f"torch.maximum({o[0]}, {o[1]})", derive_same),
    Op("neg", "arith", 1, _neg_ok, lambda o, a, s: f"-{o[0]}", _derive_neg),
    Op("abs", "arith", 1, lambda t: real(t) and not t.is_bool and fits(t.dtype, 0, t.mag),
       lambda o, a, s: f"torch.abs({o[0]})", _derive_abs),
    Op("sign", "arith", 1, lambda t: real(t) and _exact(t), lambda o, a, s: f"torch.sign({o[0]})", _derive_sign),
    Op("square", "arith", 1, _square_ok, lambda o, a, s: f"torch.square({o[0]})", _derive_square),
    # Python scalars on either side of an operator (`x // 2`, `2 ** x`, `1 - x`).
    Op("add_scalar", "scalar", 1, lambda t: bool(_scalar_choices("add", t)), _render_scalar("add"),
       _derive_scalar("add"), _draw_scalar("add")),
    *[_scalar_op(name) for name in ("sub", "mul", "div", "floordiv", "mod", "pow")],
    Op("div_mode_scalar", "scalar", 1, lambda t: bool(_div_mode_divisors(t)),
       lambda o, a, s: f"torch.div({o[0]}, {a['value']!r}, rounding_mode={a['mode']!r})", _derive_div_mode_scalar,
       _draw_div_mode_scalar),
    _scalar_op("compare", "compare_scalar"),
    Op("lshift_scalar", "scalar", 1, _shift_ok("left"), lambda o, a, s: f"{o[0]} << {a['value']}",
       _derive_shift("left"), lambda draw, t: {"value": draw(integers(1, 3))}),
    Op("rshift_scalar", "scalar", 1, _shift_ok("right"), lambda o, a, s: f"{o[0]} >> {a['value']}",
       _derive_shift("right"), lambda draw, t: {"value": draw(integers(1, 3))}),
    Op("cast", "cast", 1, lambda t: real(t) and bool(_cast_targets(t)), _render_cast, _derive_cast, _draw_cast),
    # Comparisons, logic and bits: steps, so float operands must be exact.
    *[
        Op(name, "compare", 2, lambda a, b: broadcastable(a, b) and real(a) and real(b) and _exact(a, b),
           lambda o, a, s, sym=sym: f"{o[0]} {sym} {o[1]}", derive_bool)
        for name, sym in _COMPARE.items()
    ],
    *[
        Op(name, "logical", 2, lambda a, b: broadcastable(a, b) and real(a) and real(b) and _exact(a, b),
           lambda o, a, s, name=name: f"torch.{name}({o[0]}, {o[1]})", derive_bool)
        for name in _LOGICAL
    ],
    Op("logical_not", "logical", 1, lambda t: real(t) and _exact(t), lambda o, a, s: f"torch.logical_not({o[0]})",
       derive_bool),
    *[
        Op(name, "logical", 2, _bitwise_ok, lambda o, a, s, sym=sym: f"{o[0]} {sym} {o[1]}", _derive_bitwise)
        for name, sym in _BITWISE.items()
    ],
    Op("bitwise_not", "logical", 1, lambda t: t.is_int or t.is_bool, lambda o, a, s: f"~{o[0]}", _derive_bitwise_not),
    # Selection: where with tensor or Python branches, masked_fill, clamp, gathers.
    Op("where", "select", 3, _where_ok, lambda o, a, s: f"torch.where({o[0]}, {o[1]}, {o[2]})", derive_same),
    Op("where_scalar", "select", 2, _where_scalar_ok,
       lambda o, a, s: (f"torch.where({o[0]}, {a['value']!r}, {o[1]})" if a["left"]
                        else f"torch.where({o[0]}, {o[1]}, {a['value']!r})"),
       _derive_with_scalar, _draw_branch),
    Op("masked_fill", "select", 2, _masked_fill_ok, lambda o, a, s: f"{o[0]}.masked_fill({o[1]}, {a['value']!r})",
       _derive_fill, _draw_fill),
    Op("clamp", "select", 1, real, _render_clamp, _derive_clamp, _draw_clamp),
    Op("clamp_tensor", "select", 3, _clamp_tensor_ok, lambda o, a, s: f"torch.clamp({o[0]}, min={o[1]}, max={o[2]})",
       _derive_clamp_tensor),
    *[_index_family(kind) for kind in ("index_select", "gather", "take_along_dim")],
]

__all__ = ["OPS"]
