"""State mutated in place, as real models do: a KV cache written at a slice
(``self.cache[:, 2:4] = k``), a counter buffer bumped (``self.steps += 1``), a buffer
updated with ``add_``/``mul_``/``copy_``, an input changed in place (``x.mul_(y)``).

Each op renders a statement, and its value is what it mutated (an alias, as in eager).
``Op.mutates`` says what that is:

* ``"state"``: a buffer of the op's own, registered in ``__init__`` and filled like every
  buffer, so nothing else reads it before the update;
* ``"operand"``: its first operand, a model input that no earlier value has read (the
  generator enforces it): no value computed before aliases the old contents, and no
  input is mutated twice. Later values read the mutated input.

The oracle compares, after one call on fresh copies, what ``forward`` returned and every
buffer and input (``harness.runner``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..choices import integers, sampled
from .base import (
    Op,
    TensorType,
    Type,
    arith_error,
    arith_interval,
    domain_type,
    empty,
    finish,
    result_dtype,
    result_range,
    rounding,
    tensor_key,
    wrapped,
)

# -- how a target takes a source --------------------------------------------------------

#: statement templates: {t} is the target, {s} the source.
_METHODS = {
    "add_": "{t}.add_({s})",
    "mul_": "{t}.mul_({s})",
    "copy_": "{t}.copy_({s})",
    "iadd": "{t} += {s}",
    "clamp_": "{t}.clamp_(min={s})",
}


def _combined(method: str, target: TensorType, source: TensorType) -> tuple[float, float, float]:
    """(lo, hi, err) of the target after ``method``, before the rounding of the result."""
    if method in ("add_", "iadd", "mul_"):
        name = "mul" if method == "mul_" else "add"
        lo, hi = arith_interval(name, (target.lo, target.hi), (source.lo, source.hi))
        return lo, hi, arith_error(name, target, source)
    if method == "clamp_":
        return max(target.lo, source.lo), max(target.hi, source.hi), max(target.err, source.err)
    return source.lo, source.hi, source.err  # copy_


def _method_ok(method: str, target: TensorType, source: TensorType) -> bool:
    """Eager defines the update and it stays in range: the source broadcasts to the
    target's shape, the result type is the target's (an in-place op cannot widen it), and
    integers fit (or wrap: uint8, ``base.result_range``)."""
    if source.is_complex or target.is_complex or source.nonfinite or target.nonfinite:
        return False
    # Broadcasting must leave the target's shape as it is.
    if len(source.shape) > len(target.shape) or any(
            s not in (1, t) for s, t in zip(reversed(source.shape), reversed(target.shape))):
        return False
    if method == "copy_":
        return source.dtype == target.dtype
    if target.is_bool or source.is_bool:
        return False
    if method == "clamp_":
        return source.dtype == target.dtype
    if result_dtype(tensor_key(target), tensor_key(source)) != target.dtype:
        return False
    lo, hi, _ = _combined(method, target, source)
    return result_range(target.dtype, lo, hi) is not None


def _derive_update(method: str, target: TensorType, source: TensorType, out: Type) -> Type:
    lo, hi, err = _combined(method, target, source)
    if method in ("copy_", "clamp_"):  # values moved or selected: no rounding
        return finish(out, lo, hi, err)
    return finish(out, *wrapped(out, lo, hi), err + rounding(out, lo, hi, 1))


# -- a buffer of the op's own -------------------------------------------------------------


def _buffer_target(source: TensorType, attrs: dict) -> TensorType:
    shape = list(source.shape)
    if attrs["method"] == "setitem":
        shape[attrs["dim"]] += attrs["extra"]
    return domain_type(source.dtype, tuple(shape))


def _buffer_methods(source: TensorType) -> list[str]:
    found = [m for m in _METHODS if _method_ok(m, domain_type(source.dtype, source.shape), source)]
    if source.rank >= 1 and not source.is_complex and not source.nonfinite:
        found.append("setitem")
    return found


def _draw_buffer_update(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    source = types[0]
    attrs = {"method": draw(sampled(_buffer_methods(source)))}
    if attrs["method"] == "setitem":
        # A cache longer than the source along one dim, written at an offset.
        attrs["dim"] = draw(integers(0, source.rank - 1))
        attrs["extra"] = draw(integers(1, 2))
        attrs["start"] = draw(integers(0, attrs["extra"]))
    return attrs


def _render_buffer_update(o: tuple[str, ...], a: dict, s: str) -> str:
    if a["method"] != "setitem":
        return _METHODS[a["method"]].format(t=s, s=o[0])
    size = a["_types"][0].shape[a["dim"]]
    index = [":"] * a["dim"] + [f"{a['start']}:{a['start'] + size}"]
    return f"{s}[{', '.join(index)}] = {o[0]}"


def _derive_buffer_update(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    source, target = types[0], _buffer_target(types[0], attrs)
    if attrs["method"] == "setitem":
        # Part written, part as it was.
        return finish(out, min(source.lo, target.lo), max(source.hi, target.hi), source.err)
    return _derive_update(attrs["method"], target, source, out)


# -- a model input ---------------------------------------------------------------------------


def _input_methods(target: TensorType, source: TensorType) -> list[str]:
    return [m for m in _METHODS if _method_ok(m, target, source)]


OPS = [
    Op("buffer_update", "mutate", 1, lambda t: bool(_buffer_methods(t)), _render_buffer_update,
       _derive_buffer_update, _draw_buffer_update,
       state=lambda t, a: empty(_buffer_target(t[0], a).shape, t[0].dtype), state_is_buffer=True, mutates="state"),
    # A step counter: int64, 0-d, bumped once per call.
    Op("counter", "mutate", 0, lambda: True, lambda o, a, s: f"{s} += 1",
       lambda types, attrs, out: finish(out, domain_type("int64", ()).lo + 1, domain_type("int64", ()).hi + 1, 0),
       state=lambda t, a: empty((), "int64"), state_is_buffer=True, mutates="state"),
    Op("input_update", "mutate", 2, lambda t, s: bool(_input_methods(t, s)),
       lambda o, a, s: _METHODS[a["method"]].format(t=o[0], s=o[1]),
       lambda types, attrs, out: _derive_update(attrs["method"], types[0], types[1], out),
       lambda draw, types: {"method": draw(sampled(_input_methods(*types)))}, mutates="operand"),
]

__all__ = ["OPS"]
