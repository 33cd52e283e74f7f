"""Unary float functions from PyTorch's OpInfo database: the vocabulary's second source.

``opinfo.json`` is harvested from ``op_db`` by ``scripts/harvest_opinfo.py`` (which says
by what rules an entry qualifies: public name, elementwise, deterministic, continuous)
and names, per function, its CPU float dtypes and each keyword set of its samples with
the *interval* where the function is finite and steady. A function the hand-written
vocabulary already draws under its name is left to it (``__init__`` skips the name).

Each becomes an op of family ``opinfo`` (``opinfo_shape`` for the few whose result's shape
is not the operand's on unit dims or a 0-d tensor: ``squeeze_copy``, ``atleast_1d``), and
``<name>_`` for its in-place form where it has one (the table says which). An operand whose values (widened by its error)
leave the sample's interval is clamped into it first, so eager defines every value. An
operand that may hold +-inf or NaN (``TensorType.nonfinite``) is taken where eager's
result on them is the same in every float dtype the function has (``_nonfinite_images``:
``sin(inf)`` is NaN, ``tanh(-inf)`` is -1 in each), so a NaN or an inf goes on through the
program as models carry them; the clamp, where there is one, sends +-inf to the
interval's bounds and keeps NaN. The
range and error of the result are not derived by hand: they are measured on a float64
grid of the operand's interval (257 points, widened by the steepest step seen), and the
error is that slope times the operand's error plus 8 units of roundoff, an allowance
for the function's own evaluation (``tests/test_ops.py`` holds every claim to eager).
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

import torch

from ..choices import sampled
from .base import Op, TensorType, Type, finish, fits, real, rounding

TABLE = Path(__file__).with_name("opinfo.json")
#: Units of roundoff a function's own evaluation may add (its libm or series error).
EVALUATION_ULPS = 8
GRID = 257


def _load() -> dict[str, dict[str, Any]]:
    return json.loads(TABLE.read_text())["ops"] if TABLE.exists() else {}


def op_name(entry: str) -> str:
    """``nn.functional.softplus`` -> ``softplus``; ``special.i1`` -> ``special_i1``."""
    return entry.removeprefix("nn.functional.").replace(".", "_")


@functools.cache
def _function(call: str) -> Any:
    target: Any = torch
    for part in call.removeprefix("torch.").split("."):
        target = getattr(target, part)
    return target


@functools.cache
def _rounded(interval: tuple[float, float], dtype: str) -> tuple[float, float]:
    """The interval's bounds as the clamp writes them for ``dtype``: the nearest values of
    ``dtype`` inside it. A bound the dtype cannot hold would be rounded by eager but not by
    a compiler that clamps in a wider float, and near a domain's edge (acosh at 1) that
    half ulp moves the result far."""
    d = getattr(torch, dtype)
    bounds = torch.tensor(interval, dtype=torch.float64).to(d)
    a, b = bounds.double().tolist()
    if a < interval[0]:
        a = float(torch.nextafter(bounds[0], torch.tensor(float("inf"), dtype=d)))
    if b > interval[1]:
        b = float(torch.nextafter(bounds[1], torch.tensor(-float("inf"), dtype=d)))
    return a, b


def _argument(t: TensorType, interval: tuple[float, float]) -> tuple[float, float, float, bool]:
    """(lo, hi, err, clamped) of what the function sees: the operand where it stays inside
    the interval (its error included), else its values clamped into the interval's
    bounds as ``t``'s dtype holds them."""
    a, b = _rounded(interval, t.dtype)
    if max(a, interval[0]) <= t.lo - t.err and t.hi + t.err <= min(b, interval[1]):
        return t.lo, t.hi, t.err, False
    return min(max(t.lo - t.err, a), b), max(min(t.hi + t.err, b), a), t.err, True


@functools.lru_cache(maxsize=1 << 12)
def _measure(call: str, kwargs: str, lo: float, hi: float, err: float) -> tuple[float, float, float]:
    """(min, max, steepest slope) of the function over [lo - err, hi + err], on a float64 grid."""
    a, b = lo - err, hi + err
    if b - a < 1e-9:
        a, b = a - 1e-6, b + 1e-6
    x = torch.linspace(a, b, GRID, dtype=torch.float64)
    with torch.no_grad():
        y = _function(call)(x, **json.loads(kwargs))
    step = (b - a) / (GRID - 1)
    slope = float(((y[1:] - y[:-1]).abs() / step).max())
    margin = slope * step  # an extremum between two grid points is at most one step's rise away
    return float(y.min()) - margin, float(y.max()) + margin, slope


def _plan(entry: dict[str, Any], sample: int, t: TensorType) -> tuple[float, float, float, bool]:
    """(lo, hi, err, clamped) of the result: its range, the error the operand's carries
    through, and whether the operand is clamped into the sample's interval first."""
    chosen = entry["samples"][sample]
    lo, hi, err, clamped = _argument(t, tuple(chosen["interval"]))
    # A clamped operand's values lie in [lo, hi] whatever its error: the grid stays there.
    f_lo, f_hi, slope = _measure(entry["call"], json.dumps(chosen["kwargs"], sort_keys=True), lo, hi,
                                 0.0 if clamped else err)
    return f_lo, f_hi, slope * err * 1.5, clamped


def _image_fits(sample: dict[str, Any], call: str, dtype: str) -> bool:
    """The function's image over the sample's interval (its bounds in ``dtype``) is finite
    and fits ``dtype``."""
    lo, hi, _ = _measure(call, json.dumps(sample["kwargs"], sort_keys=True), *_rounded(tuple(sample["interval"]), dtype),
                         0.0)
    return math.isfinite(lo) and math.isfinite(hi) and fits(dtype, lo, hi)


#: What the function is asked on, beside its interval: the values of an ``extreme`` input.
_NONFINITE = (float("nan"), float("inf"), -float("inf"))


@functools.lru_cache(maxsize=1 << 12)
def _nonfinite_images(call: str, kwargs: str, dtypes: tuple[str, ...]) -> tuple[float, ...] | None:
    """The finite values the function takes on +-inf and NaN, where eager gives the same
    result (NaN for NaN) in each of ``dtypes`` as float64 rounded to it; else None: an
    image that depends on the dtype (``nan_to_num``'s largest float) is the dtype's
    business, not a value two frontends must agree on."""
    with torch.no_grad():
        exact = _function(call)(torch.tensor(_NONFINITE, dtype=torch.float64), **json.loads(kwargs))
        for dtype in dtypes:
            d = getattr(torch, dtype)
            try:
                got = _function(call)(torch.tensor(_NONFINITE, dtype=d), **json.loads(kwargs))
            except RuntimeError:
                return None
            want = exact.to(d)
            if got.dtype != d or not torch.equal(got.isnan(), want.isnan()) or \
                    not torch.equal(got[~got.isnan()], want[~want.isnan()]):
                return None
    finite = tuple(float(v) for v in exact if math.isfinite(float(v)))
    # A finite image stays a value every later op can take in each dtype.
    return finite if all(fits(d, min(finite, default=0.0), max(finite, default=0.0)) for d in dtypes) else None


def _op(entry_name: str, entry: dict[str, Any], inplace: bool = False) -> Op:
    """The function's op; with ``inplace``, its in-place form on a fresh copy of the
    operand (``<name>_``: ``x.clone().sin_()``, ``F.silu(x.clone(), inplace=True)``)."""
    dtypes = frozenset(entry["dtypes"])
    count = len(entry["samples"])

    # Every operand is clamped into the sample's interval: the function's image over the
    # whole interval bounds every result, so acceptance asks only whether that fits.
    fitting = frozenset(d for d in dtypes if all(_image_fits(s, entry["call"], d) for s in entry["samples"]))

    # Every sample defined on +-inf and NaN in every dtype that fits: a nonfinite operand
    # is taken in those dtypes, and a clamp-free call widens its range by what f(+-inf) is.
    images = [_nonfinite_images(entry["call"], json.dumps(s["kwargs"], sort_keys=True), tuple(sorted(fitting)))
              for s in entry["samples"]]
    defined_nonfinite = bool(fitting) and all(i is not None for i in images)

    def accepts(t: Type) -> bool:
        return isinstance(t, TensorType) and t.dtype in fitting and real(t) and (not t.nonfinite or defined_nonfinite)

    def render(o: tuple[str, ...], a: dict, s: str) -> str:
        chosen = entry["samples"][a["sample"]]
        x = o[0]
        if _plan(entry, a["sample"], a["_types"][0])[3]:
            lo, hi = _rounded(tuple(chosen["interval"]), a["_types"][0].dtype)
            x = f"{x}.clamp({lo!r}, {hi!r})"
        kwargs = "".join(f", {k}={v!r}" for k, v in sorted(chosen["kwargs"].items()))
        if inplace and entry["inplace"] == "method":
            return f"{x}.clone().{entry['call'].rsplit('.', 1)[1]}_({kwargs.removeprefix(', ')})"
        if inplace:
            return f"{entry['call']}({x}.clone(){kwargs}, inplace=True)"
        return f"{entry['call']}({x}{kwargs})"

    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        lo, hi, spread, clamped = _plan(entry, attrs["sample"], types[0])
        if types[0].nonfinite and not clamped:  # f(+-inf) reaches the result
            lo, hi = min(lo, *images[attrs["sample"]], lo), max(hi, *images[attrs["sample"]], hi)
        return finish(out, lo, hi, spread + rounding(out, lo, hi, EVALUATION_ULPS))

    def draw_attrs(draw: Any, types: tuple[TensorType, ...]) -> dict:
        return {"sample": draw(sampled(range(count)))}  # the simplest keywords first: a shrink goes there

    # A function that keeps every shape is elementwise in the inference's sense too (its
    # type is inferred once per dtype and rank, ``strategies.ops._broadcasts``).
    family = "opinfo" if entry["keeps_shape"] else "opinfo_shape"
    return Op(op_name(entry_name) + ("_" if inplace else ""), family, 1, accepts, render, derive, draw_attrs,
              nonfinite_ok=defined_nonfinite)


OPS = [_op(name, entry, inplace) for name, entry in sorted(_load().items())
       for inplace in (False, True) if not inplace or entry.get("inplace")]

__all__ = ["OPS", "TABLE", "op_name"]
