"""Dynamic shapes: which input dimensions a case declares dynamic, the sizes it runs at,
and the case as it is at each of them.

A dynamic case is compiled once, at its inputs' shapes (the *example*), with the
dimensions of ``Case.dynamic`` declared dynamic, and then called at other sizes: every
symbol at its range's minimum, at its maximum, at an interior size, and at 1 where the
range starts at 0 (``size_roles``). Each call is judged as a static case is.

What makes a declaration valid is the program: the model compiled at the example must
be the same module at every size (``dynamic_specs`` checks that the rendered
``Model`` is the same text, state and literals included), and every op must be defined
on its operands at every size (each op's ``accepts`` and its inferred type). The draw
keeps only dimensions for which both hold, so ``torch.export`` rarely finds the program
specialising what it declared (its constraint violation discards the declaration, see
``harness.runner``). It respects ``torch.export``'s own rules: an example size is at
least 2 (0 and 1 are specialised when traced), while a range may start at 0 or 1.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from .choices import choice
from .ops import OPS, TensorType, TupleType
from .render import class_source, materialize, program_types
from .spec import Case, Const, Dynamic, DynamicDim, Input, ParamTree, Symbol

__all__ = ["MAX_DYNAMIC_NUMEL", "ROLES", "dynamic_shapes", "dynamic_shapes_source", "dynamic_specs", "example_sizes",
           "resized", "size_roles", "statically", "valid_at", "without_input"]

#: The sizes a dynamic case runs at, in order: the example first (a failure there is a
#: static one), then the range's edges, an interior size, and 1 where the range holds 0.
ROLES = ("example", "min", "max", "interior", "one")
#: Ops whose literal index torch.export specialises against the dims it broadcasts with
#: (take_along_dim's index is an expression of the example's sizes): a case that uses one
#: breaks export's constraints at any other size, so it declares no dynamic dim.
SPECIALISING_OPS = frozenset({"take_along_dim"})
#: torch.export also specialises a size computed from a symbol at 0 and 1 (it guards
#: ``s // 2 != 1``): a case with these ops declares no range whose sizes reach that, so
#: each symbol's minimum is at least this (and a smaller example declares nothing).
#: strided_slice (``x[:, start::step]``, start up to 1, step up to 3) keeps
#: ``(n - start) // step`` rounded up, which export guards the same way
#: (``(1 + s) // 2 != 1`` at a range's minimum): n above start + step.
SMALLEST_SIDE = {"narrow_half": 4, "split_heads": 4, "slice_but_last": 3, "flatten_batch": 2, "strided_slice": 5}
#: No input grows past this many elements at the range's maximum (the large class's bound).
MAX_DYNAMIC_NUMEL = 1 << 16


def example_sizes(dynamic: Dynamic, inputs: tuple[Input, ...]) -> dict[str, int]:
    """Each symbol's value at the example: what its first dimension's side says."""
    shapes = {i.name: i.shape for i in inputs}
    found: dict[str, int] = {}
    for d in dynamic.dims:
        found.setdefault(d.symbol, (shapes[d.input][d.dim] - d.offset) // d.scale)
    return found


def size_roles(case: Case) -> list[tuple[str, dict[str, int]]]:
    """(role, symbol values) of every size the case runs at, the example first; roles
    whose sizes an earlier role already ran are left out."""
    assert case.dynamic is not None
    example = example_sizes(case.dynamic, case.inputs)
    picks: dict[str, dict[str, int]] = {"example": example}
    symbols = case.dynamic.symbols
    picks["min"] = {s.name: s.min for s in symbols}
    picks["max"] = {s.name: s.max for s in symbols}
    # Interior: strictly inside the range and away from the example, where there is room.
    picks["interior"] = {s.name: _interior(s, example[s.name]) for s in symbols}
    picks["one"] = {s.name: 1 if s.min == 0 else s.min for s in symbols}
    found, seen = [], set()
    for role in ROLES:
        key = tuple(sorted(picks[role].items()))
        if key not in seen:
            seen.add(key)
            found.append((role, picks[role]))
    return found


def _interior(symbol: Symbol, example: int) -> int:
    inside = [v for v in range(symbol.min + 1, symbol.max) if v != example]
    return inside[len(inside) // 2] if inside else example


def resized(case: Case, sizes: dict[str, int]) -> Case:
    """The case with its inputs at these symbol values (the program is the same)."""
    assert case.dynamic is not None
    sides = {(d.input, d.dim): d.size(sizes[d.symbol]) for d in case.dynamic.dims}
    inputs = tuple(replace(i, shape=tuple(sides.get((i.name, k), side) for k, side in enumerate(i.shape)))
                   for i in case.inputs)
    return replace(case, inputs=inputs)


def without_input(case: Case, name: str) -> Case:
    """The case without input ``name``, and without what it declared dynamic (a symbol
    no other dim uses goes with it; nothing left, nothing declared)."""
    inputs = tuple(i for i in case.inputs if i.name != name)
    if case.dynamic is None:
        return replace(case, inputs=inputs)
    dims = tuple(d for d in case.dynamic.dims if d.input != name)
    symbols = tuple(s for s in case.dynamic.symbols if any(d.symbol == s.name for d in dims))
    return replace(case, inputs=inputs, dynamic=Dynamic(symbols, dims) if dims else None)


def statically(case: Case) -> Case:
    """The same case with nothing declared dynamic."""
    return replace(case, dynamic=None)


# -- torch.export's dynamic_shapes ---------------------------------------------------


def _dims_by_input(dynamic: Dynamic) -> dict[str, list[DynamicDim]]:
    found: dict[str, list[DynamicDim]] = {}
    for d in dynamic.dims:
        found.setdefault(d.input, []).append(d)
    return found


def dynamic_shapes(case: Case) -> dict[str, Any]:
    """``torch.export``'s ``dynamic_shapes`` for the case: a tree per ``forward``
    parameter, ``{dim: Dim}`` at each tensor with a dynamic dimension, ``None`` elsewhere."""
    from torch.export import Dim

    assert case.dynamic is not None
    roots = {s.name: Dim(s.name, min=s.min, max=s.max) for s in case.dynamic.symbols}

    def dim(d: DynamicDim) -> Any:
        return roots[d.symbol] * d.scale + d.offset if (d.scale, d.offset) != (1, 0) else roots[d.symbol]

    return _per_parameter(case, lambda dims: {d.dim: dim(d) for d in dims})


def dynamic_shapes_source(case: Case) -> str:
    """``dynamic_shapes`` as Python over ``Dim``s defined first: for a reproducer."""
    assert case.dynamic is not None
    lines = [f"{s.name} = Dim({s.name!r}, min={s.min}, max={s.max})" for s in case.dynamic.symbols]

    def dim(d: DynamicDim) -> str:
        return f"{d.scale} * {d.symbol}" * (d.scale != 1) + d.symbol * (d.scale == 1) + f" + {d.offset}" * (d.offset != 0)

    tree = _per_parameter(case, lambda dims: _Source("{" + ", ".join(f"{d.dim}: {dim(d)}" for d in dims) + "}"))
    lines.append(f"dynamic_shapes = {tree!r}")
    return "\n".join(lines)


class _Source(str):
    """Text that reprs as itself, inside a container's repr."""

    def __repr__(self) -> str:
        return str(self)


def _per_parameter(case: Case, spec: Callable[[list[DynamicDim]], Any]) -> dict[str, Any]:
    assert case.dynamic is not None
    by_input = _dims_by_input(case.dynamic)

    def tree(node: ParamTree) -> Any:
        if isinstance(node, str):
            return spec(by_input[node]) if node in by_input else None
        if isinstance(node, Const):
            return None
        items = [tree(c) for c in node.items]
        if node.kind == "dict":
            return dict(zip(node.keys, items))
        return items if node.kind == "list" else tuple(items)

    if case.params:
        return {p.name: tree(p.tree) for p in case.params}
    return {i.name: tree(i.name) for i in case.inputs}


# -- drawing a declaration -----------------------------------------------------------

#: How a range's minimum is drawn: the example itself (where it shrinks to), 2, 1, 0.
_MINIMA = ("example", 2, 1, 0)
#: How its maximum is drawn, from the example e: e + 1 (where it shrinks to), 2e, e + 8, 16e.
_MAXIMA = (lambda e: e + 1, lambda e: 2 * e, lambda e: e + 8, lambda e: 16 * e)


def dynamic_specs(case: Case) -> st.SearchStrategy[Case]:
    """The case with some input dimensions declared dynamic (``Case.dynamic``), or as it
    is where none can be. Dimensions of one example size share a symbol (a batch every
    input has); a size one more than, or twice, another's may be a derived dimension of
    it (``s + 1``, ``2 * s``). Every declaration is checked at each size it runs at
    (``valid_at``); a symbol that fails is left static. It shrinks to fewer symbols,
    narrower ranges, and the case as it was."""
    return _dynamic_specs(case)


@st.composite
def _dynamic_specs(draw: Callable, case: Case) -> Case:
    symbols: list[Symbol] = []
    dims: list[DynamicDim] = []
    sides: dict[str, int] = {}  # each symbol's example value
    floor = max((SMALLEST_SIDE.get(case.values[i].op, 0) for i in case.used()), default=0)
    for side, members in _candidate_groups(case):
        if not draw(choice(f"dynamic: sides of {side} (three times in four)", 0, 3)):
            continue
        derived = [(name, scale, offset) for name, value in sides.items()
                   for scale, offset in ((1, 1), (2, 0)) if side == scale * value + offset]
        root = derived[0] if derived and draw(choice("dynamic: derived from an earlier size", 0, 1)) else None
        name, scale, offset = root if root is not None else (f"s{len(symbols)}", 1, 0)
        low = _MINIMA[draw(choice("dynamic: range minimum", 0, len(_MINIMA) - 1))]
        high = _MAXIMA[draw(choice("dynamic: range maximum", 0, len(_MAXIMA) - 1))](side)
        if side < floor:
            continue
        low = low if low == "example" else max(low, floor)
        tried_symbols = symbols if root is not None else [*symbols, Symbol(name, side if low == "example" else low,
                                                                         high)]
        tried_dims = dims + [DynamicDim(i, k, name, scale, offset) for i, k in members]
        tried = _within_numel(replace(case, dynamic=Dynamic(tuple(tried_symbols), tuple(tried_dims))))
        if tried is not None and valid_at(tried):
            symbols, dims = list(tried.dynamic.symbols), tried_dims
            sides.setdefault(name, side)
    return replace(case, dynamic=Dynamic(tuple(symbols), tuple(dims))) if dims else case


def _candidate_groups(case: Case) -> list[tuple[int, list[tuple[str, int]]]]:
    """(side, the (input, dim) pairs of that side) for every side of 2 or more, smallest
    first: an example of 0 or 1 would be specialised by torch.export."""
    found: dict[int, list[tuple[str, int]]] = {}
    for i in case.inputs:
        for k, side in enumerate(i.shape):
            if side >= 2:
                found.setdefault(side, []).append((i.name, k))
    return sorted(found.items())


def _within_numel(case: Case) -> Case | None:
    """The case with each symbol's maximum lowered until no input passes
    ``MAX_DYNAMIC_NUMEL`` elements at it; ``None`` where no range is left around the
    example."""
    assert case.dynamic is not None
    example = example_sizes(case.dynamic, case.inputs)
    symbols = []
    for s in case.dynamic.symbols:
        high = s.max
        while high > example[s.name] and _largest(resized(case, {**example, s.name: high})) > MAX_DYNAMIC_NUMEL:
            high = max(example[s.name], high // 2)
        if high == s.min:
            return None
        symbols.append(replace(s, max=high))
    return replace(case, dynamic=replace(case.dynamic, symbols=tuple(symbols)))


def _largest(case: Case) -> int:
    return max((math.prod(i.shape) for i in case.inputs), default=0)


def valid_at(case: Case) -> bool:
    """Whether the model compiled at the example is the same module at every size the
    case runs at, and every op is defined on its operands there, giving values of the
    same kinds (dtypes, and as many items in a tuple: ``unbind`` of a dynamic dim is not)."""
    assert case.dynamic is not None
    if any(s.min > s.max or s.min < 0 for s in case.dynamic.symbols):
        return False
    if any(case.values[i].op in SPECIALISING_OPS for i in case.used()):
        return False
    example = _source(case), _kinds(statically(case))
    if None in example:
        return False
    for _, sizes in size_roles(case)[1:]:
        at = statically(resized(case, sizes))
        if any(side < 0 for i in at.inputs for side in i.shape) or (_source(at), _kinds(at)) != example:
            return False
    # Last, eager itself at every size: an attribute computed for the example (a gather's
    # index) may point past a smaller side, where no op's accepts looks.
    return all(_runs(statically(resized(case, sizes))) for _, sizes in size_roles(case)[1:])


def _runs(case: Case) -> bool:
    import torch

    try:
        model, args, kwargs = materialize(case)
        with torch.no_grad():
            model(*args, **kwargs)
    except Exception:
        return False
    return True


def _source(case: Case) -> tuple[str, ...] | None:
    try:
        return _class_lines(statically(case))
    except Exception:  # an op's attributes do not fit these shapes (a view, a slice past the end)
        return None


@functools.lru_cache(maxsize=1 << 12)
def _class_lines(case: Case) -> tuple[str, ...]:
    return tuple(class_source(case)[0])


def _kinds(case: Case) -> tuple[Any, ...] | None:
    """Each value's kind (``_kind``) at these shapes, where every op accepts its operands'
    types (ranges included); ``None`` where one does not."""
    try:
        types = program_types(case)
    except Exception:
        return None
    current = {i.name: types[i.name] for i in case.inputs}
    kinds = []
    for k, value in enumerate(case.values):
        if value.op != "input" and not OPS[value.op].accepts(*(current[o] for o in value.operands)):
            return None
        current[f"v{k}"] = types[f"v{k}"]
        if OPS[value.op].mutates == "operand":
            current[value.operands[0]] = types[f"v{k}"]
        kinds.append(_kind(types[f"v{k}"]))
    return tuple(kinds)


def _kind(t: Any) -> Any:
    """What must not change with the sizes: a tensor's dtype, a tuple's kind and items."""
    if isinstance(t, TensorType):
        return t.dtype
    if isinstance(t, TupleType):
        return t.kind, tuple(_kind(i) for i in t.items)
    return type(t).__name__, getattr(t, "name", None)
