"""Edge values as model code makes them inside ``forward``: NaN and +-inf padded, filled
and logged in, int64 values past int32's range.

The mission's bug classes (a NaN lost, an inf saturated, an int64 computed in 32 bits)
need a value to distort: an ``extreme`` or ``wide`` input holds one, but most ops are not
defined on it and a program mostly routes around it. These ops put one where models do:

* ``pad_nonfinite``: ``F.pad(x, (l, r), value=float("-inf"))``, as max-pooling, attention
  bias and log-space code pad (NaN and +inf too);
* ``index_fill_nonfinite``: ``x.index_fill(-1, torch.tensor([0]), float("nan"))``, a
  position (a padding token's, a class's) filled whatever its value;
* ``fill_nonfinite``: ``x.masked_fill(x < 0, float("-inf"))``, a fill where the values say
  (only on an exact operand: a compiler's last bit may not decide which side of 0 a
  computed value is);
* ``log_of_zero``: ``torch.log(x.clamp(min=0))``, log-probabilities of zeros (-inf), on an
  exact operand for the same reason;
* ``pack_int64``: ``x.long() * 4294967296 + x.long()``, two ids packed in one int64 key: a
  frontend that computes it in 32 bits keeps the low half and loses the rest;
* ``past_int32``: ``x.long() + 2147483648``, an offset just past int32's largest value.

The float ops are the family ``nonfinite``, the integer ones ``wide_int``. Every value is
defined by eager and IEEE 754; the results' types say where NaN and inf may
be (``nonfinite``), so only ops that move them take the result (``NONFINITE_OK``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import torch

from ..choices import sampled
from .base import INT_RANGE, Op, TensorType, Type, finish, real

#: The non-finite fills, as model code writes them (-inf first: the mask fill models use
#: most): NaN as often as an infinity of either sign.
FILLS = ('float("-inf")', 'float("nan")', 'float("inf")', 'float("nan")')
#: Pad widths (left, right) of the last dim: never none, so the fill is always there.
SIDES = ((0, 1), (1, 0), (1, 1))
#: Packing two ids: the high half's multiplier, 2 ** 32.
PACK = 2**32
#: Past int32's largest value.
OFFSET = 2**31


def _nonfinite(out: Type) -> Type:
    return replace(out, nonfinite=True) if isinstance(out, TensorType) else out


def _float(t: TensorType) -> bool:
    return isinstance(t, TensorType) and t.is_float and real(t)


def _exact_float(t: TensorType) -> bool:
    # The comparison with 0 (the fill's mask, the clamp's bound) must not depend on the
    # operand's last bit. NaN and inf compare as IEEE 754 says: they may be there.
    return _float(t) and t.err == 0.0


def _draw_pad(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"fill": draw(sampled(FILLS)), "sides": draw(sampled(SIDES))}


def _render_pad(o: tuple[str, ...], a: dict, s: str) -> str:
    return f"torch.nn.functional.pad({o[0]}, {a['sides']!r}, value={a['fill']})"


def _derive_same_nonfinite(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return _nonfinite(finish(out, t.lo, t.hi, t.err))


def _render_fill(o: tuple[str, ...], a: dict, s: str) -> str:
    return f"{o[0]}.masked_fill({o[0]} < 0, {a['fill']})"


def _derive_fill(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return _nonfinite(finish(out, max(t.lo, 0.0), max(t.hi, 0.0), 0.0))


def _log_ok(t: TensorType) -> bool:
    return _exact_float(t) and not t.nonfinite and t.hi > 0


#: Units of roundoff a log may err by, a libm's or a compiler's approximation.
LOG_ULPS = 4


def _derive_log(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    # A positive element is at least the dtype's smallest subnormal: its log is at least
    # that one's (-103.3 in float32).
    info = torch.finfo(getattr(torch, t.dtype))
    smallest = info.tiny * info.eps
    lo, hi = math.log(smallest), math.log(max(t.hi, smallest))
    return _nonfinite(finish(out, lo, hi, LOG_ULPS * info.eps / 2 * max(abs(lo), abs(hi))))


def _int_ok(bound: Callable[[TensorType], bool]) -> Callable[[TensorType], bool]:
    def ok(t: TensorType) -> bool:
        return isinstance(t, TensorType) and (t.is_int or t.is_bool) and t.exact and bound(t)

    return ok


def _fits_int64(lo: float, hi: float) -> bool:
    low, high = INT_RANGE["int64"]
    return low <= lo and hi <= high


def _derive_pack(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return finish(out, t.lo * (PACK + 1), t.hi * (PACK + 1), 0.0)


def _derive_offset(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return finish(out, t.lo + OFFSET, t.hi + OFFSET, 0.0)


OPS = [
    Op("pad_nonfinite", "nonfinite", 1, lambda t: _float(t) and t.rank >= 1, _render_pad, _derive_same_nonfinite,
       _draw_pad),
    Op("index_fill_nonfinite", "nonfinite", 1, lambda t: _float(t) and t.rank >= 1 and t.shape[-1] >= 1,
       lambda o, a, s: f"{o[0]}.index_fill(-1, torch.tensor([{a['index']}]), {a['fill']})", _derive_same_nonfinite,
       lambda draw, types: {"fill": draw(sampled(FILLS)), "index": draw(sampled((0, types[0].shape[-1] - 1)))}),
    Op("fill_nonfinite", "nonfinite", 1, _exact_float, _render_fill, _derive_fill,
       lambda draw, types: {"fill": draw(sampled(FILLS))}),
    Op("log_of_zero", "nonfinite", 1, _log_ok, lambda o, a, s: f"torch.log({o[0]}.clamp(min=0))", _derive_log),
    # 2 ** 32 + 1 times the value must fit int64: |x| below 2 ** 30.
    Op("pack_int64", "wide_int", 1, _int_ok(lambda t: _fits_int64(t.lo * (PACK + 1), t.hi * (PACK + 1))),
       lambda o, a, s: f"{o[0]}.long() * {PACK} + {o[0]}.long()", _derive_pack),
    Op("past_int32", "wide_int", 1, _int_ok(lambda t: _fits_int64(t.lo + OFFSET, t.hi + OFFSET)),
       lambda o, a, s: f"{o[0]}.long() + {OFFSET}", _derive_offset),
]

__all__ = ["FILLS", "OFFSET", "OPS", "PACK", "SIDES"]
