"""What every op module builds on: value types with ranges, the ``Op`` record, helpers.

A value's type is what PyTorch says (dtype and shape, from meta tensors) plus what the
generator knows about its values: an inclusive range ``[lo, hi]`` that every element
lies in, and ``err``, a bound on the absolute difference between what eager computes and
the exact real-number result. Ranges keep deep chains well defined (a signed integer
never overflows, a log never sees a value <= 0; unsigned arithmetic and integer-to-integer
casts, which eager defines modulo 2^n, may wrap: ``result_range``); ``err`` does two things:

* a discontinuous op (a comparison, ``floor``, a cast to an integer, ``argmax``) only
  takes operands with ``err == 0``: a compiler that keeps more precision than eager
  (fusing, float32 accumulation of float16) may legitimately land on the other side
  of a step, and that is not a bug;
* the oracle widens its tolerance for a returned float value by its ``err``: two
  valid implementations differ by at most twice the bound.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import torch

from ..choices import booleans, sampled

__all__ = [
    "COMPLEX", "DOMAIN", "DOMAINS", "FLOATS", "INTS", "Op", "PyType", "TensorType", "TupleType", "Type",
    "domain_applies", "domain_type", "fits", "result_dtype", "result_range", "wrapped", "wraps",
]

FLOATS = ("float16", "bfloat16", "float32", "float64")
INTS = ("int8", "int16", "int32", "int64", "uint8")
COMPLEX = ("complex64",)

#: Inclusive value range per dtype kind of inputs, parameters and buffers. Small enough
#: that every float fits float16 exactly enough to compare, and no single op overflows.
DOMAIN = {"float": (-3.0, 3.0), "signed": (-5, 5), "uint8": (0, 10)}

#: Value domains of a model input (``strategies.render.random_tensor`` draws them). Past
#: ``small``, each reaches a class of bug that keeps the dtype right and the values wrong:
#:
#: * ``wide``: integers beyond the next narrower type (an int64 computed in 32 bits wraps),
#:   floats from 1e-30 to 1e30 (1e-4 to 1e4 in float16);
#: * ``extreme``: integers at the type's min and max, floats that are +-0, +-inf, NaN or
#:   subnormal, mixed with small values. Only ops that IEEE 754 and PyTorch define on
#:   them take such a value (``Op.nonfinite_ok``); integer ops are kept off by the range;
#: * ``precise``: floats +-(1 + k eps), k < 64, which need every bit of the dtype (a
#:   float64 computed in float32 loses them).
#:
#: ``small`` comes first: a drawn domain shrinks to it.
DOMAINS = ("small", "wide", "extreme", "precise")
#: The magnitude of ``wide`` integers: past the next narrower type's range.
WIDE_INT = {"int64": 2**40, "int32": 2**20, "int16": 2**12, "int8": 127, "uint8": 255}
#: The largest ``wide`` float magnitude (and 1 / it the smallest).
WIDE_FLOAT = {"float16": 1e4, "bfloat16": 1e30, "float32": 1e30, "float64": 1e30}
#: ``precise`` floats are +-(1 + k eps) for k in [1, PRECISE_STEPS]: below 2, so exact.
PRECISE_STEPS = 63


def _finfo(dtype: str) -> torch.finfo:
    return torch.finfo(getattr(torch, dtype))


def _iinfo(dtype: str) -> torch.iinfo:
    return torch.iinfo(getattr(torch, dtype))


#: Unit roundoff per float dtype, half its machine epsilon: one correctly rounded op errs
#: by at most UNIT * |result|.
UNIT = {dtype: _finfo(dtype).eps / 2 for dtype in (*FLOATS, *COMPLEX)}
#: Largest magnitude a float value may reach: far below the dtype's max, so a valid
#: implementation's rounding never overflows (float16's max is 65504).
CAP = {"float16": 1e4, "bfloat16": 1e30, "float32": 1e30, "float64": 1e100, "complex64": 1e30}
#: Each integer dtype's (min, max); bool's as the integers it holds (torch.iinfo has none).
INT_RANGE = {"bool": (0, 1), **{dtype: (_iinfo(dtype).min, _iinfo(dtype).max) for dtype in INTS}}
#: Integers up to this magnitude are exact in the float dtype: 2 / eps is 2 to the power
#: of its significand bits, the implicit one included.
EXACT_INT = {dtype: int(2 / _finfo(dtype).eps) for dtype in (*FLOATS, *COMPLEX)}


@dataclass(frozen=True)
class TensorType:
    dtype: str
    shape: tuple[int, ...]
    lo: float = 0.0
    hi: float = 0.0
    err: float = 0.0
    #: Elements may be +-inf or NaN (besides the range): only ``Op.nonfinite_ok`` ops take it.
    nonfinite: bool = False

    # A type is a key of the generator's caches (acceptance, inference), asked about
    # thousands of times a case: its hash is computed once. Not pickled: a string's hash
    # differs between processes.
    def __hash__(self) -> int:
        try:
            return self.__dict__["_hash"]
        except KeyError:
            h = self.__dict__["_hash"] = hash((self.dtype, self.shape, self.lo, self.hi, self.err, self.nonfinite))
            return h

    # The generated __eq__ builds two tuples of the fields; a cache lookup that finds an
    # equal key calls it, and most keys are the same object or differ in their hash.
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not TensorType:
            return NotImplemented
        return hash(self) == hash(other) and self.dtype == other.dtype and self.shape == other.shape and \
            self.lo == other.lo and self.hi == other.hi and self.err == other.err and self.nonfinite == other.nonfinite

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

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
        return self.lo < 0

    @property
    def exact(self) -> bool:
        """No rounding error: safe to feed a discontinuous op."""
        return self.err == 0

    @property
    def mag(self) -> float:
        return max(abs(self.lo), abs(self.hi))

    @property
    def meta(self) -> tuple[str, tuple[int, ...]]:
        return self.dtype, self.shape


@dataclass(frozen=True)
class TupleType:
    """What a tuple-returning op gives: a plain tuple, a list, or a ``torch.return_types`` structseq."""

    kind: str
    items: tuple[TensorType, ...]
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class PyType:
    """A Python value (None, int, float, bool): returned, never an operand."""

    name: str


Type = TensorType | TupleType | PyType


def domain_applies(domain: str, dtype: str) -> bool:
    """Whether inputs of ``dtype`` can be drawn from ``domain`` (else they are ``small``)."""
    if domain == "small":
        return True
    if domain == "precise":
        return dtype in FLOATS
    return dtype in FLOATS or dtype in INTS


def domain_type(dtype: str, shape: tuple[int, ...], domain: str = "small") -> TensorType:
    """The type of an input, parameter or buffer: values drawn within ``DOMAIN`` or
    one of ``DOMAINS``."""
    return _domain_type(dtype, tuple(shape), domain)


# One object per type: the generator's caches then find an input's type by identity.
@functools.lru_cache(maxsize=1 << 14)
def _domain_type(dtype: str, shape: tuple[int, ...], domain: str) -> TensorType:
    if not domain_applies(domain, dtype):
        raise ValueError(f"domain {domain!r} does not apply to {dtype}")
    if domain == "wide":
        if dtype in FLOATS:
            top = in_dtype(WIDE_FLOAT[dtype], dtype)  # 1e30 in bfloat16 is 1.0002555e30
            return TensorType(dtype, shape, -top, top)
        # As random_edge_tensor draws them: [-m - 1, m], within the dtype.
        m = WIDE_INT[dtype]
        return TensorType(dtype, shape, 0.0 if dtype == "uint8" else float(max(-m - 1, INT_RANGE[dtype][0])), float(m))
    if domain == "extreme":
        if dtype in FLOATS:
            lo, hi = DOMAIN["float"]
            return TensorType(dtype, shape, lo, hi, 0.0, nonfinite=True)
        low, high = INT_RANGE[dtype]
        return TensorType(dtype, shape, float(low), float(high))
    if domain == "precise":
        top = 1 + PRECISE_STEPS * 2 * UNIT[dtype]  # eps = 2 * unit roundoff
        return TensorType(dtype, shape, -top, top)
    if dtype in FLOATS or dtype in COMPLEX:
        lo, hi = DOMAIN["float"]
    elif dtype == "bool":
        lo, hi = 0, 1
    else:
        lo, hi = DOMAIN["uint8"] if dtype == "uint8" else DOMAIN["signed"]
    return TensorType(dtype, tuple(shape), float(lo), float(hi), 0.0)


def fits(dtype: str, lo: float, hi: float) -> bool:
    """Whether every value in [lo, hi] is representable without overflow in ``dtype``."""
    if dtype in CAP:
        return max(abs(lo), abs(hi)) <= CAP[dtype]
    low, high = INT_RANGE[dtype]
    return low <= lo and hi <= high


def wraps(dtype: str) -> bool:
    """Whether eager defines a ``dtype`` result that leaves the type: unsigned integers wrap
    modulo 2^n (C++'s rule for unsigned types, which PyTorch's kernels compute in: ``-x``,
    ``x - y``, ``x * y``, ``x << k`` of uint8). Signed overflow is undefined in C++ and
    PyTorch promises nothing for it."""
    return dtype == "uint8"


def result_range(dtype: str, lo: float, hi: float, *, cast: bool = False) -> tuple[float, float] | None:
    """The range of a ``dtype`` result whose exact value lies in [lo, hi], or None where
    eager does not define it.

    [lo, hi] where it fits; where it does not, the whole type if the result is defined
    modulo 2^n: unsigned arithmetic (``wraps``), or an integer-to-integer cast
    (``cast=True``: two's complement truncation, ``x.to(torch.int8)`` of 200 is -56).
    Otherwise None: signed overflow, a float past ``CAP``. A wrapped value is still exact
    (every element an integer of the type), only its range is the type's."""
    if fits(dtype, lo, hi):
        return lo, hi
    if dtype in INTS and (cast or wraps(dtype)):
        low, high = INT_RANGE[dtype]
        return float(low), float(high)
    return None


def wrapped(out: Type, lo: float, hi: float) -> tuple[float, float]:
    """[lo, hi] as an integer result ``out`` holds it (``result_range``); other results as
    they are. For ``derive``, after ``accepts`` has checked the result is defined."""
    if not isinstance(out, TensorType) or not out.is_int:
        return lo, hi
    found = result_range(out.dtype, lo, hi)
    if found is None:
        raise ValueError(f"{out.dtype} result in [{lo}, {hi}] overflows: accepts let an undefined op through")
    return found


@functools.cache
def in_dtype(value: float, dtype: str) -> float:
    """A Python scalar as a tensor of ``dtype`` holds it (0.1 in float16 is 0.0999755859375)."""
    return float(torch.tensor(value, dtype=getattr(torch, dtype))) if dtype in FLOATS else value


@functools.cache
def result_dtype(a: tuple[str, bool] | bool | int | float, b: tuple[str, bool] | bool | int | float) -> str:
    """PyTorch's type promotion of two operands: ``(dtype, is_0d)`` for a tensor, or a Python scalar."""
    # Keyed by the Python types too: True, 1 and 1.0 are equal keys that promote apart.
    return _result_dtype(type(a), a, type(b), b)


# Asked by most ops' acceptance checks, about a few dozen pairs: two tensors made and
# promoted each time cost more than the rest of a check.
@functools.lru_cache(maxsize=1 << 12)
def _result_dtype(a_type: type, a: Any, b_type: type, b: Any) -> str:
    def arg(o: Any) -> Any:
        return torch.empty(() if o[1] else (1,), dtype=getattr(torch, o[0])) if isinstance(o, tuple) else o

    return str(torch.result_type(arg(a), arg(b))).removeprefix("torch.")


def tensor_key(t: TensorType) -> tuple[str, bool]:
    return t.dtype, t.rank == 0


Accept = Callable[..., bool]
DrawAttrs = Callable[[Callable, tuple[TensorType, ...]], dict]
Render = Callable[[tuple[str, ...], dict, str], str]
#: (operand types, attrs, the output type from meta tensors) -> the output with range and error.
Derive = Callable[[tuple[TensorType, ...], dict, Type], Type]


@dataclass(frozen=True)
class Op:
    name: str
    family: str
    arity: int
    #: Predicate over the operand types (one argument per operand): the op's defined
    #: domain, ranges included, for every attrs ``draw_attrs`` may draw.
    accepts: Accept
    render: Render
    #: Range and error of the result (see the module docstring).
    derive: Derive
    draw_attrs: DrawAttrs | None = None
    #: Source of the state this op needs in ``__init__`` (a module, parameter or buffer),
    #: given the operand types and attrs; the state is stored as ``self.<state name>``.
    state: Callable[[tuple[TensorType, ...], dict], str] | None = None
    #: The state is a plain tensor, registered as a buffer (else a module or parameter).
    state_is_buffer: bool = False
    complex_ok: bool = False
    #: Takes operands of tuple type (``item``), not tensors.
    takes_tuples: bool = False
    #: Takes model inputs only: ``input`` (on a value it is a no-op), and ops whose
    #: result is undefined on ties (``topk`` indices), which random float inputs never
    #: have and computed values (a relu's zeros, a clamp's bound) often do.
    inputs_only: bool = False
    #: Mutates in place (``strategies.ops.state``): "state" (a buffer of its own) or
    #: "operand" (its first operand, an input). ``render`` gives a statement then, and
    #: the value is what it mutated.
    mutates: str = ""
    #: Statements run on the new value once it is assigned, as model code updates a fresh
    #: copy (``h = x.clone()`` then ``h[:, 0] = 0``) or runs a ``for`` loop over layers:
    #: given the value's name, the operands, attrs and the state's name.
    then: Callable[[str, tuple[str, ...], dict, str], list[str]] | None = None
    #: Defined on +-inf and NaN (``TensorType.nonfinite``), by IEEE 754 and PyTorch's
    #: documentation: set in one place, ``strategies.ops.NONFINITE_OK``.
    nonfinite_ok: bool = False


# -- helpers for ops ---------------------------------------------------------------------


def dt(name: str) -> str:
    return f"torch.{name}"


def broadcastable(a: TensorType, b: TensorType) -> bool:
    return _broadcastable(a.shape, b.shape)


# PyTorch's rule, in plain Python (torch.broadcast_shapes is far slower than the
# comparison it makes), and asked about the same few shape pairs again and again.
@functools.lru_cache(maxsize=1 << 14)
def _broadcastable(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(x == y or x == 1 or y == 1 for x, y in zip(reversed(a), reversed(b)))


def dims(t: TensorType, *, nonempty: bool = False, max_size: int | None = None) -> list[int]:
    return [d for d, s in enumerate(t.shape) if (not nonempty or s > 0) and (max_size is None or s <= max_size)]


def real(t: TensorType) -> bool:
    return not t.is_complex


def finish(out: Type, lo: float, hi: float, err: float) -> Type:
    """``out`` (from meta tensors) with its range and error; non-floats are exact, and a
    bool is 0 or 1, an integer an integer."""
    if not isinstance(out, TensorType):
        return out
    if out.is_bool:
        return replace(out, lo=max(0.0, math.floor(lo)) if lo >= 0 else 0.0, hi=min(1.0, hi) if hi >= 0 else 0.0,
                       err=0.0)
    if out.is_int:
        return replace(out, lo=float(math.floor(lo)), hi=float(math.ceil(hi)), err=0.0)
    return replace(out, lo=float(lo), hi=float(hi), err=float(err))


def rounding(out: Type, lo: float, hi: float, ulps: float) -> float:
    """The error one op adds: ``ulps`` units of roundoff of the result's magnitude."""
    if not isinstance(out, TensorType) or not (out.is_float or out.is_complex):
        return 0.0
    return ulps * UNIT[out.dtype] * max(abs(lo), abs(hi))


def moved_fits(*types: TensorType) -> bool:
    """Whether the values of ``types``, moved into the dtype they promote to, fit there:
    an int64 tensor beside a float16 one (or a 0-d float16 beside it) promotes to
    float16, where an int64 of 1e12 is inf; a float64 0-d beside a float16 tensor is
    float16 too."""
    key = tensor_key(types[0])
    for t in types[1:]:
        key = result_dtype(key, tensor_key(t)), key[1] and t.rank == 0
    lo, hi, _ = span(types)
    return fits(key[0], lo, hi)


def span(types: tuple[TensorType, ...]) -> tuple[float, float, float]:
    """(lo, hi, err) covering every operand: for ops that move or select values."""
    tensors = [t for t in types if isinstance(t, TensorType)]
    return min(t.lo for t in tensors), max(t.hi for t in tensors), max(t.err for t in tensors)


def derive_same(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    """Values moved, selected or compared, never computed: range and error carried over.
    A value moved into a narrower float picks up that dtype's rounding."""
    lo, hi, err = span(types)
    if isinstance(out, TensorType) and out.is_float and any(t.dtype != out.dtype for t in types):
        err += rounding(out, lo, hi, 1)
    return finish(out, lo, hi, err)


def derive_bool(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    return finish(out, 0, 1, 0)


def derive_fixed(lo: float, hi: float, lipschitz: float = 1.0, ulps: float = 4.0) -> Derive:
    """A function with a bounded image (sigmoid, tanh, sin), Lipschitz constant ``lipschitz``."""

    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        return finish(out, lo, hi, lipschitz * types[0].err + rounding(out, lo, hi, ulps))

    return derive


def derive_monotone(f: Callable[[float], float], lipschitz: Callable[[TensorType], float], ulps: float = 4.0) -> Derive:
    """An increasing or decreasing elementwise function of one operand."""

    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        t = types[0]
        a, b = f(t.lo), f(t.hi)
        lo, hi = min(a, b), max(a, b)
        return finish(out, lo, hi, lipschitz(t) * t.err + rounding(out, lo, hi, ulps))

    return derive


def interval_mul(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    products = [x * y for x in a for y in b]
    return min(products), max(products)


def arith_interval(name: str, a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """The range of ``a + b``, ``a - b`` or ``a * b`` (``name``) over two ranges."""
    if name == "add":
        return a[0] + b[0], a[1] + b[1]
    if name == "sub":
        return a[0] - b[1], a[1] - b[0]
    return interval_mul(a, b)


def arith_error(name: str, a: TensorType | float, b: TensorType | float) -> float:
    """The error ``a OP b`` inherits from its operands (a Python scalar is exact)."""
    ea, eb = (t.err if isinstance(t, TensorType) else 0.0 for t in (a, b))
    if name == "mul":
        ma, mb = (t.mag if isinstance(t, TensorType) else abs(t) for t in (a, b))
        return mb * ea + ma * eb + ea * eb
    return ea + eb


def guard_fits(t: TensorType, shift: int) -> bool:
    """``|x| + shift`` computed in ``t``'s dtype does not wrap (abs(-128) is -128 in int8)."""
    return t.is_float or t.is_bool or fits(t.dtype, 0, t.mag + shift)


def draw_dim(dim_choices: Callable[[TensorType], list[int]], *, keepdim: bool = True) -> DrawAttrs:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        attrs = {"dim": draw(sampled(dim_choices(types[0])))}
        if keepdim:
            attrs["keepdim"] = draw(booleans())
        return attrs

    return draw_attrs


def draw_dim_or_all(dim_choices: Callable[[TensorType], list[int]]) -> DrawAttrs:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        options = dim_choices(types[0])
        if not options or draw(booleans()):
            return {}
        return {"dim": draw(sampled(options)), "keepdim": draw(booleans())}

    return draw_attrs


def dim_args(attrs: dict) -> str:
    if "dim" not in attrs:
        return ""
    keep = ", keepdim=True" if attrs.get("keepdim") else ""
    return f"dim={attrs['dim']}{keep}"


def reduced_count(t: TensorType, attrs: dict) -> int:
    """How many elements each result of a reduction over ``attrs['dim']`` (or all) sees."""
    return t.shape[attrs["dim"]] if "dim" in attrs else t.numel


def empty(shape: Any, dtype: str) -> str:
    return f"torch.empty({tuple(shape)!r}, dtype={dt(dtype)})"
