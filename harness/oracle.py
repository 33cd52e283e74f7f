"""The oracle: eager output vs backend output, leaf by leaf, under a structure contract.

Each difference names the leaf by its path, ``torch.utils._pytree`` key entries down the
output tree (written by ``pytree.keystr``: ``[0]['a'].f``), what was expected
and what came back. Values are compared with ``torch.testing.assert_close``
at dtype-aware tolerances; integers and bools exactly; NaN equals NaN.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch.utils import _pytree as pytree

from .backends.base import Contract
from .difference import Difference, KeyPath, own_key

__all__ = ["FP64_MULTIPLIER", "TOLERANCES", "closer_than_eager", "compare", "describe", "dtype_name"]

#: (rtol, atol) per float dtype, before a leaf's own error bound widens atol (below).
#:
#: * float16/bfloat16: room for a different but valid accumulation (float16 summed in
#:   float16 rather than float32);
#: * float32: 1e-4 (some 1700 units in the last place) for the fast polynomial
#:   transcendentals that CPU compilers use in float32; a float32 computed in float16 or
#:   bfloat16 (1e-3 and worse) is still caught;
#: * float64: the format itself: 8 units of roundoff relative, and the smallest normal
#:   absolute (a subnormal flushed to zero is a value difference of under 2.3e-308).
#:   A float64 result must carry float64 precision: one computed in float32 (6e-8
#:   relative) fails.
#:
#: The narrow, per-op allowance a valid implementation needs beyond this (the order of
#: a reduction's sum, a transcendental's last few bits, an accumulation in matmul) is
#: not here but in each op's error bound (``strategies.ops``: n ulps for a sum over n
#: elements, 4 for ``exp``, k + 1 for a matmul over k), which ``error_at`` passes in.
TOLERANCES = {
    torch.float16: (1e-2, 1e-2),
    torch.bfloat16: (3e-2, 3e-2),
    torch.float32: (1e-4, 1e-5),
    torch.float64: (8 * 2.0**-53, 2.0**-1022),
    torch.complex64: (1e-4, 1e-5),
}


#: The ``fp64_ref`` rule of PyTorch's own accuracy checks (``torch._dynamo.utils.same``),
#: for a leaf an op with no hand-derived error bound computed (``strategies.ops.opinfo``):
#: a value off the tolerance still passes where its root-mean-square distance from a
#: float64 run of eager is at most this multiple of eager's own distance from it, plus a
#: tenth of the dtype's absolute tolerance. Exact dtype, shape, NaN and inf all the same.
FP64_MULTIPLIER = 2.0


def describe(obj: Any) -> str:
    """A short description of a (possibly nested) output, for messages."""
    if isinstance(obj, torch.Tensor):
        return f"Tensor({str(obj.dtype).removeprefix('torch.')}, {tuple(obj.shape)})"
    if obj is None or isinstance(obj, (bool, int, float, complex)):
        return f"{type(obj).__name__} {obj!r}"
    if isinstance(obj, dict):
        inner = ", ".join(f"{k!r}: {describe(v)}" for k, v in obj.items())
        return f"{type(obj).__name__}({{{inner}}})"
    if isinstance(obj, (tuple, list)):
        inner = ", ".join(describe(v) for v in obj)
        return f"{type(obj).__name__}({inner})"
    return type(obj).__name__


def _fields(obj: Any) -> tuple[str, ...] | None:
    """Field names of a namedtuple or a ``torch.return_types`` structseq (``topk``), else None."""
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return tuple(obj._fields)
    if pytree.is_structseq_instance(obj):
        return tuple(type(obj).__match_args__)
    return None


def _is_namedtuple(obj: Any) -> bool:
    return _fields(obj) is not None


def _children(obj: Any) -> list[tuple[Any, Any]] | None:
    """(step, child) pairs of a container, or None for a leaf."""
    if isinstance(obj, dict):
        return [(pytree.MappingKey(k), v) for k, v in obj.items()]
    if _is_namedtuple(obj):
        return [(pytree.GetAttrKey(f), v) for f, v in zip(_fields(obj), obj)]
    if isinstance(obj, (tuple, list)):
        return [(pytree.SequenceKey(i), v) for i, v in enumerate(obj)]
    handler = pytree.SUPPORTED_NODES.get(type(obj))
    if handler is not None:  # another registered node: transformers' DynamicCache, once registered
        if handler.flatten_with_keys_fn is not None:
            return [(own_key(key), v) for key, v in handler.flatten_with_keys_fn(obj)[0]]
        return [(pytree.SequenceKey(i), v) for i, v in enumerate(handler.flatten_fn(obj)[0])]
    return _attributes(obj)


def _attributes(obj: Any) -> list[tuple[Any, Any]] | None:
    """An object of a class pytree does not know that holds tensors (transformers'
    DynamicCache before ``register_dynamic_cache_export_support``, a user's own result
    class): its attributes that hold a tensor, compared as a container's children, so the
    object is judged by its tensors and not as one opaque value (which never equals
    another)."""
    attributes = getattr(obj, "__dict__", None)
    if not isinstance(attributes, dict) or isinstance(obj, (torch.Tensor, type, torch.nn.Module)):
        return None
    held = [(pytree.GetAttrKey(name), v) for name, v in attributes.items() if _holds_tensor(v)]
    return held or None


def _holds_tensor(obj: Any, depth: int = 4) -> bool:
    """A tensor is reachable from ``obj`` through containers and attributes (``depth`` deep)."""
    if isinstance(obj, torch.Tensor):
        return True
    if depth == 0 or isinstance(obj, (str, bytes, type, torch.nn.Module)):
        return False
    if isinstance(obj, dict):
        return any(_holds_tensor(v, depth - 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(_holds_tensor(v, depth - 1) for v in obj)
    attributes = getattr(obj, "__dict__", None)
    return isinstance(attributes, dict) and any(_holds_tensor(v, depth - 1) for v in attributes.values())


def dtype_name(t: torch.Tensor) -> str:
    return str(t.dtype).removeprefix("torch.")


def closer_than_eager(expected: torch.Tensor, actual: torch.Tensor, reference: torch.Tensor | None) -> bool:
    """The ``fp64_ref`` rule (``FP64_MULTIPLIER``): ``actual`` is as near the float64
    ``reference`` as eager's ``expected`` is, up to the multiple; its non-finite values
    are eager's exactly."""
    if reference is None or reference.shape != expected.shape or not expected.dtype.is_floating_point:
        return False
    e, a, r = expected.detach().double(), actual.detach().cpu().double(), reference.detach().double()
    if not torch.equal(e.isfinite(), a.isfinite()) or not torch.equal(e[~e.isfinite()], a[~a.isfinite()]) \
            or not torch.equal(e.isnan(), r.isnan()):
        return False
    finite = e.isfinite() & r.isfinite()
    if not finite.any():
        return True
    eager = (e[finite] - r[finite]).pow(2).mean().sqrt().item()
    frontend = (a[finite] - r[finite]).pow(2).mean().sqrt().item()
    return frontend <= FP64_MULTIPLIER * eager + TOLERANCES.get(expected.dtype, (0, 1e-8))[1] / 10


def _compare_tensors(path: KeyPath, expected: torch.Tensor, actual: torch.Tensor, error: float = 0.0,
                     reference: torch.Tensor | None = None) -> Difference | None:
    if actual.dtype != expected.dtype:
        return Difference(path, "dtype", str(expected.dtype), str(actual.dtype))
    if actual.shape != expected.shape:
        # A 0-d result that comes back with a dimension is a class of its own (a scalar
        # bound as a 1-element tensor).
        return Difference(path, "shape", str(tuple(expected.shape)), str(tuple(actual.shape)),
                          special="0-d" if expected.dim() == 0 else "")
    actual = actual.detach().cpu()
    expected = expected.detach()
    if not (expected.dtype.is_floating_point or expected.dtype.is_complex):
        if torch.equal(actual, expected):
            return None
        where = (actual != expected).nonzero()[0].tolist()
        return Difference(path, "values", "identical integer/bool values", "different values",
                          f"first difference at index {where}: expected {expected[tuple(where)].item()}, "
                          f"got {actual[tuple(where)].item()}", dtype_name(expected))
    rtol, atol = TOLERANCES.get(expected.dtype, (1e-5, 1e-8))
    # Eager's own rounding error along the program that computed the leaf (bounded by
    # the generator, see strategies.ops.base): two valid results differ by twice it.
    atol = max(atol, 2 * error)
    try:
        torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
    except AssertionError:
        if closer_than_eager(expected, actual, reference):
            return None
        largest, index = _off_tolerance(expected, actual, rtol, atol)
        return Difference(path, "values", f"values within rtol={rtol}, atol={atol}", "values outside",
                          f"largest absolute difference {largest[0]:.6g}, largest relative {largest[1]:.6g}; "
                          f"first off the tolerance at index {list(index)}", dtype_name(expected),
                          _special(expected, actual), largest, index)
    return None


def _off_tolerance(expected: torch.Tensor, actual: torch.Tensor, rtol: float,
                   atol: float) -> tuple[tuple[float, float], tuple[int, ...]]:
    """The largest absolute and relative difference over the elements both give finite
    (relative where eager's is not zero; a NaN or an inf that differs is the difference's
    special class), and the index of the first element ``assert_close``'s rule refuses."""
    wide = torch.complex128 if expected.is_complex() else torch.float64
    e, a = expected.to(wide), actual.to(wide)
    diff = (a - e).abs()
    off = ~(e.isnan() & a.isnan()) & ~(e.isinf() & (e == a)) & ~(diff <= atol + rtol * e.abs())
    finite = e.isfinite() & a.isfinite()
    absolute = diff[finite].max().item() if finite.any() else 0.0
    nonzero = finite & (e != 0)
    relative = (diff[nonzero] / e.abs()[nonzero]).max().item() if nonzero.any() else 0.0
    where = off.nonzero()
    return (float(absolute), float(relative)), tuple(where[0].tolist()) if len(where) else ()


def _special(expected: torch.Tensor, actual: torch.Tensor) -> str:
    """The first way NaN or inf went wrong, if one did (NaN before inf, lost before made)."""
    if expected.is_complex():
        return ""
    checks = (("NaN lost", expected.isnan() & ~actual.isnan()), ("NaN made", ~expected.isnan() & actual.isnan()),
              ("inf lost", expected.isinf() & ~actual.isinf()), ("inf made", ~expected.isinf() & actual.isinf()))
    return next((name for name, where in checks if where.any()), "")


def compare(expected: Any, actual: Any, *, contract: Contract = Contract.EXACT, path: KeyPath = (),
            error_at: Callable[[KeyPath], float] | None = None,
            reference_at: Callable[[KeyPath], torch.Tensor | None] | None = None) -> list[Difference]:
    """Every difference between the eager output and a backend's, outermost first.

    Under ``Contract.NESTING`` a container may come back as any sequence of its
    children in order; ``EXACT`` and ``FLAT`` (already re-assembled) compare exactly.
    ``error_at(path)`` bounds eager's own rounding error at a float leaf (0 if absent);
    ``reference_at(path)`` is a float64 run's value there, where the ``fp64_ref`` rule
    judges the leaf (``closer_than_eager``).
    """
    expected_children = _children(expected)
    if expected_children is None:
        return _compare_leaf(path, expected, actual, error_at(path) if error_at else 0.0,
                             reference_at(path) if reference_at else None)

    actual_children = _children(actual)
    if actual_children is None:
        return [Difference(path, "container_type", describe(expected), describe(actual))]
    if contract is Contract.NESTING:
        if not isinstance(actual, (tuple, list)):
            return [Difference(path, "container_type", "a sequence (nesting contract)", type(actual).__name__)]
        if len(actual) != len(expected_children):
            return [Difference(path, "arity", str(len(expected_children)), str(len(actual)), describe(actual))]
        actual_children = [(step, child) for (step, _), child in zip(expected_children, actual)]
        found: list[Difference] = []
    else:
        found = []
        if type(actual) is not type(expected):
            found.append(Difference(path, "container_type", type(expected).__name__, type(actual).__name__))
        if isinstance(expected, dict):
            if not isinstance(actual, dict) or list(actual.keys()) != list(expected.keys()):
                keys = list(actual.keys()) if isinstance(actual, dict) else f"{len(actual)} items"
                found.append(Difference(path, "keys", str(list(expected.keys())), str(keys)))
                return found
        if len(actual_children) != len(expected_children):
            found.append(Difference(path, "arity", str(len(expected_children)), str(len(actual_children)),
                                    describe(actual)))
            return found
        if _is_namedtuple(expected) and _is_namedtuple(actual) and _fields(actual) != _fields(expected):
            found.append(Difference(path, "keys", str(_fields(expected)), str(_fields(actual))))
            return found
    for (step, e), (_, a) in zip(expected_children, actual_children):
        found.extend(compare(e, a, contract=contract, path=(*path, step), error_at=error_at, reference_at=reference_at))
    return found


def _compare_leaf(path: KeyPath, expected: Any, actual: Any, error: float = 0.0,
                  reference: Any = None) -> list[Difference]:
    if isinstance(expected, torch.Tensor):
        if not isinstance(actual, torch.Tensor):
            return [Difference(path, "leaf_type", describe(expected), describe(actual))]
        difference = _compare_tensors(path, expected, actual, error,
                                      reference if isinstance(reference, torch.Tensor) else None)
        return [difference] if difference else []
    # None and Python scalars: same type and same value (an int is not a 0-d tensor).
    if type(actual) is not type(expected):
        return [Difference(path, "leaf_type", describe(expected), describe(actual))]
    if actual != expected:
        return [Difference(path, "values", repr(expected), repr(actual))]
    return []
