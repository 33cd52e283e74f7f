"""The registry of ops that compute a model's values, one module per op family.

Each op says which operands it accepts (its defined domain, value ranges included), how
to draw its attributes, how it reads as Python source, and what range and rounding
error its result carries (``strategies.ops.base``). Its dtype and shape rule is
PyTorch's own: ``infer`` runs the rendered source on meta tensors, so no rule is
written twice.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from dataclasses import replace
from types import CodeType
from typing import Any

import torch
from torch.utils import _pytree as pytree

from . import edges, elementwise, idioms, layers, leaves, masks, mathops, opinfo, reductions, samples, shapes, sizes, state
from .base import (
    COMPLEX,
    DOMAIN,
    DOMAINS,
    FLOATS,
    INTS,
    Op,
    PyType,
    TensorType,
    TupleType,
    Type,
    domain_applies,
    domain_type,
)

__all__ = [
    "COMPANIONS", "COMPLEX", "COMPUTES_NOTHING",
    "DOMAIN", "DOMAINS", "FAMILIES", "FLOATS", "INTS", "NONFINITE_OK", "OPS", "Op", "PyType",
    "STRUCTURAL_FAMILIES", "TensorType", "TupleType", "Type", "domain_applies", "domain_type", "infer", "recorded", "render_op",
    "state_source", "then_source", "value_type",
]

#: The ops that take +-inf and NaN (an ``extreme`` input): those whose result on them IEEE
#: 754 and PyTorch define and a compiler commonly gets wrong (``relu`` as ``max(x, 0)``
#: loses a NaN, ``tril`` as a multiply by a mask turns inf into NaN). Values are moved,
#: selected, compared, classified or clamped, never computed with: inf - inf is NaN,
#: a valid result no oracle could tell from a wrong one.
NONFINITE_OK = frozenset({
    "input", "view", "item", "shape",
    "eq", "ne", "lt", "le", "gt", "ge", "compare_scalar", "isnan", "isinf", "isfinite",
    "where", "where_scalar", "masked_fill", "clamp", "relu", "maximum", "minimum", "amax", "amin", "neg", "abs",
    "cast", "index_select", "gather", "take_along_dim",
    "reshape", "permute", "expand", "repeat", "flip", "roll", "cat", "stack", "split", "chunk", "unbind",
    "tensor_split", "squeeze", "unsqueeze", "narrow", "strided_slice", "diagonal", "tril", "triu", "pad", "transpose",
    "flatten",
    "split_heads", "flatten_batch", "arange_of", "narrow_half", "slice_but_last", "new_zeros_rows", "new_full_pairs",
    "pad_nonfinite", "index_fill_nonfinite", "fill_nonfinite",
})

#: Ops whose result is their operand (values, dtype and shape): a generated case's
#: ``input`` (a value returned as it is), copies (``clone``, ``alias_copy``, a contiguous
#: copy), and the ATen names a user model's graph shows for them. A known row's op trigger
#: reads past them (``harness.known.rows``): one standing beside a crash's cause changes
#: nothing the frontend does.
COMPUTES_NOTHING = frozenset({
    "input", "clone", "alias_copy", "sample_contiguous",
    "contiguous", "alias", "detach", "lift_fresh_copy",
})

#: Ops an op needs beside it to be drawn at all (``item`` reads what a tuple op returns).
COMPANIONS = {"item": ("topk", "sort", "split", "var_mean", "aminmax"),
              # A bool mask over the leading dims of a wider tensor: a comparison reduced by any.
              "mask_broadcast": ("gt", "any"), "setitem_mask": ("gt", "any")}

OPS: dict[str, Op] = {}
for _module in (leaves, elementwise, mathops, reductions, shapes, layers, state, sizes, idioms, masks, edges):
    for _op in _module.OPS:
        if _op.name in OPS:
            raise ValueError(f"op {_op.name!r} is defined twice")
        OPS[_op.name] = replace(_op, nonfinite_ok=_op.name in NONFINITE_OK)
# OpInfo's functions, where the hand-written vocabulary (with its derived bounds) has no op of that name.
OPS.update((_op.name, _op) for _op in opinfo.OPS if _op.name not in OPS)
# OpInfo's and ModuleInfo's other sample calls (named ``sample_*``: none is hand-written).
OPS.update((_op.name, _op) for _op in samples.OPS)
if NONFINITE_OK - OPS.keys():
    raise ValueError(f"NONFINITE_OK names unknown ops: {sorted(NONFINITE_OK - OPS.keys())}")
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(op.family for op in OPS.values()))
#: Families whose ops compute nothing: leaves returned as they are (inputs, views,
#: state, tuple items) and values that are not tensors (None, constants, shape ints).
STRUCTURAL_FAMILIES = ("leaf", "special", "none")


def render_op(op_name: str, operands: tuple[str, ...], attrs: dict, types: tuple[Type, ...], state: str) -> str:
    """The Python expression computing one value (a statement for an op that mutates);
    ``state`` is where its state lives."""
    return OPS[op_name].render(operands, {**attrs, "_types": types}, state)


def then_source(op_name: str, out: str, operands: tuple[str, ...], attrs: dict, types: tuple[Type, ...],
                state: str) -> list[str]:
    """The statements that finish the value ``out`` after its assignment (``Op.then``)."""
    then = OPS[op_name].then
    return [] if then is None else then(out, operands, {**attrs, "_types": types}, state)


def state_source(op_name: str, attrs: dict, types: tuple[Type, ...]) -> str | None:
    op = OPS[op_name]
    return None if op.state is None else op.state(types, attrs)


def value_type(op_name: str, attrs: dict, types: tuple[Type, ...]) -> Type:
    """The full type of a value: dtype and shape from PyTorch, range and error from the op."""
    op = OPS[op_name]
    meta = None if op.takes_tuples else _infer(op_name, tuple(sorted(attrs.items())), types)
    out = op.derive(types, attrs, meta)
    if any(isinstance(t, TensorType) and t.nonfinite for t in types):
        out = _nonfinite(out)
    return out


def _nonfinite(t: Type) -> Type:
    """An inf or NaN operand may reach a float result (not a bool or an index)."""
    if isinstance(t, TensorType) and (t.is_float or t.is_complex):
        return replace(t, nonfinite=True)
    if isinstance(t, TupleType):
        return replace(t, items=tuple(_nonfinite(i) for i in t.items))
    return t


def infer(op_name: str, attrs: dict, types: tuple[Type, ...]) -> tuple[str | None, tuple[int, ...] | None, str | None]:
    """(dtype, shape, pytype) of the value, as a ``Value`` records them."""
    return recorded(value_type(op_name, attrs, types))


def recorded(out: Type) -> tuple[str | None, tuple[int, ...] | None, str | None]:
    """What a ``Value`` records of a type: dtype and shape of a tensor, else the Python type's name."""
    if isinstance(out, TensorType):
        return out.dtype, out.shape, None
    if isinstance(out, TupleType):
        return None, None, out.kind
    return None, None, out.name


def _strip(t: Type) -> Type:
    """The part of a type that PyTorch's dtype and shape rules can see."""
    if isinstance(t, TensorType):
        return _bare(t.dtype, t.shape)
    return t


# One object per dtype and shape: the inference caches then find it by identity.
@functools.lru_cache(maxsize=1 << 14)
def _bare(dtype: str, shape: tuple[int, ...]) -> TensorType:
    return TensorType(dtype, shape)


# Drawing a case asks again and again about the same few op/dtype/shape combinations;
# running the op on meta tensors each time would outweigh the rest of a draw. Ranges
# are not part of the key: renders that guard a domain by range are cached per guard.
def _infer(op_name: str, attr_items: tuple, types: tuple[Type, ...]) -> Type:
    guard = OPS[op_name].render(tuple(f"x{i}" for i in range(len(types))), {**dict(attr_items), "_types": types}, "state")
    stripped = tuple(_strip(t) for t in types)
    if _broadcasts(op_name) and all(isinstance(t, TensorType) for t in stripped):
        # The result's shape is the operands' broadcast, and its dtype depends on their
        # dtypes and on which are 0-d, not on their sides or ranks: one run on a 0-d or a
        # 1-vector of ones per operand (the ranks kept for a dim attribute, as softmax's)
        # serves every shape. It runs on the CPU, on ones: a meta run goes through Python
        # meta functions, slower than the rest of a draw, and fresh draws meet a new shape
        # almost every time (and often a new set of ranks), so a cache keyed by shape
        # would seldom answer. tests/test_ops.py checks every op against eager.
        ranked = any(key == "dim" for key, _ in attr_items)
        out = _infer_ones(op_name, attr_items, tuple(_bare(t.dtype, (1,) * (t.rank if ranked else min(t.rank, 1)))
                                                     for t in stripped), guard)
        if isinstance(out, TensorType):
            return replace(out, shape=_broadcast(t.shape for t in stripped))
    return _infer_zeros(op_name, attr_items, stripped, guard)


#: Operands up to this many elements run on the CPU to learn a result's type.
_CPU_NUMEL = 4096


@functools.lru_cache(maxsize=1 << 16)
def _infer_zeros(op_name: str, attr_items: tuple, types: tuple[Type, ...], expr: str) -> Type:
    """The type of ``expr`` on CPU tensors of zeros; the meta run's where the CPU raises
    (an integer division by zero) or an operand is large. A meta run goes through
    Python meta functions and decompositions (a cumsum, an attention), a CPU run on a
    few elements through one kernel, far quicker; and fresh draws meet new shapes all
    the time, so most runs miss the cache.
    Eager on the CPU is what the oracle runs; no op of the vocabulary has a shape that
    depends on values, and zeros are valid indices. tests/test_ops.py checks every op
    against eager."""
    if all(isinstance(t, TensorType) and t.numel <= _CPU_NUMEL for t in types):
        try:
            if OPS[op_name].state is None:
                return _run(op_name, attr_items, types, expr, "cpu", torch.zeros)
            with torch.random.fork_rng(devices=[]):  # a module's init draws its weights
                return _run(op_name, attr_items, types, expr, "cpu", torch.zeros)
        except Exception:  # noqa: BLE001, S110 - the meta run answers
            pass
    return _infer_meta(op_name, attr_items, types, expr)


@functools.lru_cache(maxsize=1 << 14)
def _infer_ones(op_name: str, attr_items: tuple, types: tuple[TensorType, ...], expr: str) -> Type:
    """The type of ``expr`` on CPU tensors of ones (the meta run's where the CPU has no kernel)."""
    try:
        return _run(op_name, attr_items, types, expr, "cpu", torch.ones)
    except Exception:  # noqa: BLE001 - a dtype without a CPU kernel: the meta run answers
        return _infer_meta(op_name, attr_items, types, expr)


#: Families whose every op returns one tensor of its operands' broadcast shape.
_BROADCAST_FAMILIES = frozenset({"arith", "scalar", "cast", "compare", "logical", "math", "activation", "opinfo"})
#: Ops of other families that do the same.
_BROADCAST_OPS = frozenset({"input", "where", "where_scalar", "masked_fill", "clamp", "clamp_tensor", "full_like"})


def _broadcasts(op_name: str) -> bool:
    op = OPS[op_name]
    return not op.state and not op.mutates and (op.family in _BROADCAST_FAMILIES or op_name in _BROADCAST_OPS)


def _broadcast(shapes: Any) -> tuple[int, ...]:
    """``torch.broadcast_shapes`` of shapes that broadcast (the op accepted them)."""
    out: list[int] = []
    for shape in shapes:
        for i, side in enumerate(reversed(shape)):
            if i == len(out):
                out.append(side)
            elif out[i] == 1:
                out[i] = side
    return tuple(reversed(out))


@functools.lru_cache(maxsize=1 << 16)
def _infer_meta(op_name: str, attr_items: tuple, types: tuple[Type, ...], expr: str) -> Type:
    return _run(op_name, attr_items, types, expr, "meta", torch.empty)


def _run(op_name: str, attr_items: tuple, types: tuple[Type, ...], expr: str, device: str,
         fill: Callable[..., torch.Tensor]) -> Type:
    """The type of ``expr`` on operands of ``types`` made by ``fill`` on ``device``."""
    attrs = dict(attr_items)
    scope: dict[str, Any] = {"torch": torch}
    for i, t in enumerate(types):
        scope[f"x{i}"] = fill(t.shape, dtype=getattr(torch, t.dtype), device=device)
    state = state_source(op_name, attrs, types)
    # Tensors made in the state and the expression (indices, constants) go on ``device``
    # too. Where that is the default device already, a device context would only put a
    # Python mode in front of every torch call.
    with contextlib.nullcontext() if torch.get_default_device().type == device else torch.device(device):
        if state is not None:
            scope["state"] = eval(_compiled(state, "eval"), {"torch": torch})  # noqa: S307 - our own rendered source
        if OPS[op_name].mutates:  # a statement: the value is what it mutated
            exec(_compiled(expr, "exec"), scope)  # noqa: S102 - our own rendered source
            return _type_of(scope["state" if OPS[op_name].mutates == "state" else "x0"])
        if OPS[op_name].then is not None:  # the value, then statements that finish it
            names = tuple(f"x{i}" for i in range(len(types)))
            block = "\n".join([f"out = {expr}", *then_source(op_name, "out", names, attrs, types, "state")])
            exec(_compiled(block, "exec"), scope)  # noqa: S102 - our own rendered source
            return _type_of(scope["out"])
        return _type_of(eval(_compiled(expr, "eval"), scope))  # noqa: S307 - our own rendered source


@functools.lru_cache(maxsize=1 << 14)
def _compiled(source: str, mode: str) -> CodeType:
    """``source`` compiled once: the same expression is run again on other shapes."""
    return compile(source, "<roundtrip op>", mode)


def _type_of(out: Any) -> Type:
    if isinstance(out, torch.Tensor):
        return TensorType(str(out.dtype).removeprefix("torch."), tuple(out.shape))
    if isinstance(out, (tuple, list)):
        items = tuple(_type_of(o) for o in out)
        fields = tuple(type(out).__match_args__) if pytree.is_structseq_instance(out) else ()
        return TupleType(type(out).__name__, items, fields)
    return PyType(type(out).__name__)
