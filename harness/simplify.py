"""After Hypothesis has shrunk a case: the smallest numbers that still break.

Hypothesis shrinks the program, the shapes and the seed, but an input's values are
whatever the seed drew (``tensor([-2.7183, 0.4012])``), and its shrink of the output
tree can stop with items left in that no step of its passes removes alone (``(v1, v1,
None)`` where ``(None,)`` shows the bug). This pass works on the case itself, as long
as the verdict's signature stays the same:

0. it drops output items, one at a time, and the values only they needed, then the
   in-place updates nothing reads (a buffer counter left beside the update that fails);
1. it drops the inputs that no needed value reads (the shrinker cannot: they are in
   ``forward``'s signature);
2. it writes every input of at most ``LITERAL_MAX`` elements as its literal values
   (the same tensor: nothing changes but how the reproducer spells it);
3. it tries simpler values, whole tensor first (all 0, all 1, ...), then element by
   element, each inside the input's domain so every op stays defined.

Every step is one run of the case; ``budget`` caps them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import torch

from strategies import Case, Container, Ref, materialize
from strategies.dynamic import without_input
from strategies.ops import domain_type
from strategies.render import input_tensors
from strategies.spec import Tree, Value

from .subjects import kind_of
from .verdict import Verdict

__all__ = ["LITERAL_MAX", "simplified", "simplify"]

#: Inputs with at most this many elements become literals in the reproducer.
LITERAL_MAX = 64
#: Element by element only for inputs this small: each element costs runs.
ELEMENTWISE_MAX = 16
_SIMPLE = (0, 1, -1, 2, -2, 3)


def _simple_numbers(dtype: str, lo: float, hi: float) -> list[Any]:
    """The simple numbers of ``dtype`` inside [lo, hi], simplest first."""
    if dtype == "bool":
        return [False, True]
    cast = float if getattr(torch, dtype).is_floating_point else int
    return [cast(s) for s in _SIMPLE if lo <= s <= hi]


def _candidates(value: Any, simple: list[Any], lo: float, hi: float) -> list[Any]:
    """The simple numbers simpler than ``value``; a whole number for any other float."""
    if value in simple:  # NaN is in no list; -0.0 counts as 0
        return simple[:simple.index(value)]
    whole = [float(round(value))] if isinstance(value, float) and math.isfinite(value) else []
    return simple + [w for w in whole if w not in simple and lo <= w <= hi]


def _with_values(case: Case, index: int, values: tuple[Any, ...] | None) -> Case:
    inputs = list(case.inputs)
    inputs[index] = replace(inputs[index], values=values)
    return replace(case, inputs=tuple(inputs))


def _item_paths(node: Tree, prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """The path of every item of every container in the tree, outermost first."""
    if isinstance(node, Ref):
        return []
    paths = [(*prefix, i) for i in range(len(node.items))]
    return paths + [p for i, child in enumerate(node.items) for p in _item_paths(child, (*prefix, i))]


def _without_item(node: Tree, path: tuple[int, ...]) -> Tree:
    """The tree with the item at ``path`` (and its key) left out."""
    assert isinstance(node, Container)
    first, rest = path[0], path[1:]
    if rest:
        items = (*node.items[:first], _without_item(node.items[first], rest), *node.items[first + 1:])
        return replace(node, items=items)
    keys = node.keys[:first] + node.keys[first + 1:] if node.keys else ()
    return replace(node, items=node.items[:first] + node.items[first + 1:], keys=keys)


def simplify(case: Case, options: dict[str, Any], run_case: Callable[[Case, dict[str, Any]], Verdict],
             signature: str, *, budget: int = 100) -> Case:
    """The simplest variant of ``case`` whose verdict still has ``signature``."""
    runs = 0

    def same(candidate: Case) -> bool:
        nonlocal runs
        if runs >= budget:
            return False
        runs += 1
        return run_case(candidate, options).signature() == signature

    # 0. Output items the signature does not need, each tried once (a deletion keeps the
    # place: the next item moved into it).
    k = 0
    while k < len(paths := _item_paths(case.output)):
        candidate = replace(case, output=_without_item(case.output, paths[k])).pruned()
        if same(candidate):
            case = candidate
        else:
            k += 1

    # An in-place update no value and no output reads: the shrinker cannot delete a value
    # that a later one's operand index points past; here it becomes a None nothing needs.
    for i in reversed(case.mutations()):
        if i in case.refs() or any(f"v{i}" in case.values[k].operands for k in case.used()):
            continue
        unread = replace(case, values=(*case.values[:i], Value("none", (), (), None, None, "NoneType"),
                                       *case.values[i + 1:]))
        if same(candidate := unread.pruned()):
            case = candidate

    # 1. Inputs no needed value reads (an input in a tree is part of its structure: kept).
    read = {o for i in case.used() for o in case.values[i].operands}
    for name in [i.name for i in case.inputs if i.name not in read and not case.params]:
        candidate = without_input(case, name)
        if same(candidate):
            case = candidate

    # 2. Small inputs as their literal values: the same tensors, spelled out.
    by_name = input_tensors(case, *materialize(case)[1:])
    literal = replace(case, inputs=tuple(
        replace(i, values=tuple(by_name[i.name].flatten().tolist())) if i.values is None
        and math.prod(i.shape) <= LITERAL_MAX else i for i in case.inputs))
    if literal != case and same(literal):
        case = literal

    # 3. Simpler values: a whole input at once, then element by element.
    for index, item in enumerate(case.inputs):
        numel = math.prod(item.shape)
        if numel == 0:
            continue
        domain = domain_type(item.dtype, item.shape, item.domain)
        simple = _simple_numbers(item.dtype, domain.lo, domain.hi)
        current = item.values
        for fill in simple:
            if current == (fill,):
                break
            candidate = _with_values(case, index, (fill,))
            if same(candidate):
                case, current = candidate, (fill,)
                break
        if current is None or len(current) != numel or numel > ELEMENTWISE_MAX:
            continue
        values = list(current)
        for k in range(numel):
            for simpler in _candidates(values[k], simple, domain.lo, domain.hi):
                trial = values[:k] + [simpler] + values[k + 1:]
                candidate = _with_values(case, index, tuple(trial))
                if same(candidate):
                    case, values = candidate, trial
                    break
    return case


def simplified(failure: Any, run_case: Callable[[Case, dict[str, Any]], Verdict]) -> Any:
    """A new ``ConformanceFailure`` of a shrunk one's case simplified, its verdict re-run:
    its message (the replay command) names the case the corpus entry then holds."""
    if not kind_of(failure.case).generated:  # an architecture's inputs come from its seed; a user's model is code
        return failure
    case = simplify(failure.case, failure.options, run_case, failure.verdict.signature())
    return type(failure)(failure.backend, failure.backend_spec, case, failure.options, run_case(case, failure.options))
