"""What ``forward`` returns: an output tree of containers over the program's values,
shaped like what real models return (``output_trees``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from .arguments import checked_int, checked_names
from .choices import choice
from .drawing import spanned
from .features import NUMBERS, tensor_objects
from .spec import CONTAINER_KINDS, KEYED_KINDS, Container, Ref, Tree, Value, tree_refs

__all__ = ["distinct_keys", "output_trees", "reshaped"]

_KEYS = ("a", "b", "c", "logits", "hidden_states", "loss", "past_key_values", "z")


def output_trees(
    n_values: int, *, containers: Sequence[str] | None = None, max_depth: int = 4, max_leaves: int = 6, max_size: int = 3,
    value_kinds: Sequence[str] | None = None, sinks: Sequence[int] | None = None,
    structural: Sequence[int] | None = None,
) -> st.SearchStrategy[Tree]:
    """Output trees over ``n_values`` values; shrinks to one bare leaf (depth 0).

    ``value_kinds`` (one per value: ``"NoneType"``, ``"float32(2, 3)"``, ...) lets leaves
    be drawn for what a frontend mixes up: a None beside its siblings, and a value of
    the same dtype and shape as the sibling before it. ``sinks`` are the values no other
    value reads (a program's results), the end of the longest chain last: leaves prefer them, so what the program computes
    is returned; ``structural`` are the values it returns as they are (inputs, views,
    state, Python values), each a leaf kind frontends mishandle."""
    kinds = checked_names("containers", containers, CONTAINER_KINDS)
    checked_int("max_depth", max_depth, 0, 16)
    checked_int("max_leaves", max_leaves, 1, 64)
    checked_int("max_size", max_size, 0, 16)
    leaf_kinds = tuple(value_kinds) if value_kinds is not None else ("",) * n_values
    if len(leaf_kinds) != n_values:
        raise InvalidArgument(f"value_kinds={list(leaf_kinds)!r} must have n_values={n_values} items")
    picks = {}
    for name, given in (("sinks", sinks), ("structural", structural)):
        picks[name] = tuple(given) if given is not None else ()
        if any(not isinstance(i, int) or not 0 <= i < n_values for i in picks[name]):
            raise InvalidArgument(f"{name}={list(picks[name])!r} must be indices of the n_values={n_values} values")
    return _tree(_Leaves(leaf_kinds, **picks), kinds, max_depth, max_leaves, max_size)


class _Leaves(NamedTuple):
    """What a leaf of the output tree can point at (see ``output_trees``)."""

    kinds: tuple[str, ...]
    sinks: tuple[int, ...]
    structural: tuple[int, ...]


# Module level: output_trees() is called for every case drawn.
@spanned
def _tree(draw: Callable, leaves: _Leaves, kinds: tuple[str, ...], max_depth: int, max_leaves: int,
          max_size: int) -> Tree:
    return draw(_node(leaves, kinds, max_depth, max_depth, [max_leaves], max_size, None))


def _leaf(draw: Callable, leaves: _Leaves, sibling: int | None) -> Ref:
    """A sink (5 times in 9, when the program has one, and where the draw shrinks to: the
    newest sink), else a value returned as it is (an input, a view, state, a Python
    value; 2 in 9), else a None value, else a value of the same kind as the sibling
    before it, when the program has one; else any value."""
    pick = draw(choice("output leaf kind", 0, 8))
    kinds = leaves.kinds
    if pick <= 2:
        wanted = list(leaves.sinks[-1:])  # the end of the longest chain
    elif pick <= 4:
        wanted = list(leaves.sinks)
    elif pick <= 6:
        wanted = list(leaves.structural)
    elif pick == 7:
        wanted = [i for i, kind in enumerate(kinds) if kind == "NoneType"]
    elif sibling is not None:
        wanted = [i for i, kind in enumerate(kinds) if kind == kinds[sibling] and kind and i != sibling]
    else:
        wanted = []
    if wanted:
        return Ref(wanted[draw(choice("output leaf among wanted", 0, len(wanted) - 1))])
    return Ref(draw(choice("output leaf", 0, len(kinds) - 1)))


# Each node is a draw of its own: the shrinker can then put a node in its parent's place
# (Hypothesis's pass_to_descendant), so `(ModelOutput(),)` shrinks to `ModelOutput()`.
@spanned
def _node(draw: Callable, leaves: _Leaves, kinds: tuple[str, ...], max_depth: int, depth_left: int,
          budget: list[int], max_size: int, sibling: int | None) -> Tree:
    # Real models mostly return containers: the root is one 7 times in 8, each
    # level below less often. The draw shrinks to 0: a leaf.
    level = max_depth - depth_left
    if depth_left == 0 or budget[0] <= 0 or draw(choice("output node or leaf", 0, 7)) <= 2 * level:
        budget[0] -= 1
        return _leaf(draw, leaves, sibling)
    kind = kinds[draw(choice("container kind", 0, len(kinds) - 1))]
    # Items one at a time behind a "one more" draw, as st.lists does: the shrinker
    # deletes any item with its draw (a count drawn first would have to shrink together
    # with the deletion, and would leave items in). Empty containers are kept (a known bug class)
    # but not let dominate: 1 in 16; stopping is where each draw shrinks to.
    room = max(0, min(max_size, budget[0]))
    items: list[Tree] = []
    while len(items) < room:
        before = items[-1].index if items and isinstance(items[-1], Ref) else None
        item = draw(_item(leaves, kinds, max_depth, depth_left - 1, budget, max_size, bool(items), before))
        if item is None:
            break
        items.append(item)
    keys: tuple[str, ...] = ()
    if kind in KEYED_KINDS:
        keys = distinct_keys(draw, len(items))
    return Container(kind, tuple(items), keys)


def distinct_keys(draw: Callable, n: int) -> tuple[str, ...]:
    """``n`` distinct keys, one choice each among the keys left: ``n`` choices for ``n``
    items (a count fixed by the items), each shrinking to the first key left, so keys
    shrink to ``a``, ``b``, ``c``."""
    left = list(_KEYS)
    return tuple(left.pop(draw(choice("key", 0, len(left) - 1))) for _ in range(n))


# The "one more" draw and the item it lets in are one span, which the shrinker deletes whole.
@spanned
def _item(draw: Callable, leaves: _Leaves, kinds: tuple[str, ...], max_depth: int, depth_left: int,
          budget: list[int], max_size: int, after_first: bool, sibling: int | None) -> Tree | None:
    if not draw(choice("one more output item", 0, 2 if after_first else 15)):
        return None
    return draw(_node(leaves, kinds, max_depth, depth_left, budget, max_size, sibling))


def reshaped(tree: Tree, values: Sequence[Value], sinks: Sequence[int], left: Collection[str]) -> Tree:
    """``tree`` without the output shapes ``left`` names (``strategies.features``): with
    ``repeated``, a tensor's second place, and with ``number`` a Python number, takes a
    result not yet returned, or goes; with
    ``no_tensor`` (``empty``), a tree that holds no tensor (no leaf) gets the newest result
    (at its root, or as one more item). What the draw drew stays where nothing is left out: a
    steered case only (its free share, where a case shrinks to, draws freely)."""
    tensor = [v.dtype is not None for v in values]
    if {"repeated", "number"} & set(left):
        spare = [i for i in reversed(sinks) if tensor[i] and i not in tree_refs(tree)]
        seen: set[str] = set()

        def once(node: Tree) -> Tree | None:
            if isinstance(node, Ref):
                if values[node.index].pytype in NUMBERS and "number" in left:
                    if not spare:
                        return None
                    node = Ref(spare.pop(0))
                if not tensor[node.index]:
                    return node
                if "repeated" in left and tensor_objects(values, [node.index])[0] in seen:
                    if not spare:
                        return None
                    node = Ref(spare.pop(0))
                seen.update(tensor_objects(values, [node.index]))
                return node
            kept = [(once(child), node.keys[n] if node.keys else None) for n, child in enumerate(node.items)]
            kept = [(child, key) for child, key in kept if child is not None]
            return Container(node.kind, tuple(c for c, _ in kept), tuple(k for _, k in kept if k is not None))

        tree = once(tree) or tree  # a bare leaf is returned once
    if "no_tensor" in left and not any(tensor[i] for i in tree_refs(tree)) or "empty" in left and not tree_refs(tree):
        found = [i for i in reversed(sinks) if tensor[i]] or [i for i in reversed(range(len(values))) if tensor[i]]
        if not found:
            return tree
        if isinstance(tree, Ref):
            return Ref(found[0])
        keys = tree.keys + (next(k for k in _KEYS if k not in tree.keys),) if tree.kind in KEYED_KINDS else ()
        return Container(tree.kind, (*tree.items, Ref(found[0])), keys)
    return tree

