"""Hypothesis strategies for cases: random models with nested, varied-dtype outputs.

Everything is built valid by construction (no ``assume``/``filter``), and every part
shrinks to its simplest form: one input, float32, shape ``()``, the input returned
as it is, no container.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Collection, Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from .ops import (
    COMPLEX,
    DOMAINS,
    FAMILIES,
    FLOATS,
    INTS,
    OPS,
    Op,
    TensorType,
    TupleType,
    Type,
    domain_applies,
    domain_type,
    recorded,
    value_type,
)
from .spec import CONTAINER_KINDS, KEYED_KINDS, Case, Container, Input, Ref, Tree, Value

__all__ = ["ALL_DTYPES", "LARGE_SIDES", "MAX_NUMEL", "SIZE_CLASSES", "cases", "dtypes", "input_specs", "large_shapes", "output_trees",
           "shapes"]

#: float32 first: a dtype shrinks towards the front of this list.
ALL_DTYPES = ("float32", *(d for d in FLOATS if d != "float32"), *INTS, "bool")
_KEYS = ("a", "b", "c", "logits", "hidden_states", "loss", "past_key_values", "z")


def _check_choice(name: str, given: Sequence[str] | None, allowed: Sequence[str]) -> tuple[str, ...]:
    if given is None:
        return tuple(allowed)
    if isinstance(given, str) or not given:
        raise InvalidArgument(f"{name}={given!r} must be a non-empty sequence of names from {list(allowed)}")
    unknown = [g for g in given if g not in allowed]
    if unknown:
        raise InvalidArgument(f"{name}={list(given)!r} has unknown names {unknown}; choose from {list(allowed)}")
    # Keep the canonical order so the simplest choice stays first for shrinking.
    return tuple(a for a in allowed if a in given)


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidArgument(f"{name}={value!r} must be an integer in [{low}, {high}]")
    return value


def dtypes(*, allowed: Sequence[str] | None = None, include_complex: bool = False) -> st.SearchStrategy[str]:
    """Names of torch dtypes; shrinks to float32."""
    pool = (*ALL_DTYPES, *COMPLEX) if include_complex else ALL_DTYPES
    return st.sampled_from(_check_choice("dtypes", allowed, pool))


def shapes(*, max_rank: int = 4, max_side: int = 3, allow_empty: bool = True) -> st.SearchStrategy[tuple[int, ...]]:
    """Small shapes, 0-d included; sides shrink to 1, with 0-size dims as an option."""
    _check_int("max_rank", max_rank, 0, 6)
    _check_int("max_side", max_side, 1, 8)
    side = st.integers(1, max_side)
    if allow_empty:
        # About one dim in 16 is 0-size: common enough to find 0-size bugs, rare enough
        # that they do not drown everything else. Shrinks to 1, not 0.
        side = st.integers(0, 15).map(lambda v: 0 if v == 15 else 1 + v * max_side // 15)
    return st.integers(0, max_rank).flatmap(lambda rank: st.tuples(*[side] * rank))


SIZE_CLASSES = ("small", "large")
#: Sides of the ``large`` size class: powers of two a vectorizer fills (8, 16, 32, 64 lanes)
#: and the odd sides next to them that leave a tail (9, 17, 33, 65, 127), beside small ones.
LARGE_SIDES = (1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127)
#: At most this many elements in one drawn tensor: a case stays fast to run and compare.
MAX_NUMEL = 2**16


@st.composite
def large_shapes(draw: Callable, *, max_rank: int = 4) -> tuple[int, ...]:
    """Shapes of the ``large`` size class: sides from ``LARGE_SIDES`` (a 0-size dim one time
    in 19), at most ``MAX_NUMEL`` elements; each side shrinks to 1.

    A side that would pass the bound is the largest one that fits, so every drawn index
    is kept (the shrinker sees a stable choice) and a reduction sees 8 to 4096 elements
    along a dim or over all of it."""
    rank = draw(st.integers(0, max_rank))
    shape: list[int] = []
    room = MAX_NUMEL
    for _ in range(rank):
        k = draw(st.integers(0, len(LARGE_SIDES)))
        side = 0 if k == len(LARGE_SIDES) else max(s for s in LARGE_SIDES[: k + 1] if s <= room)
        shape.append(side)
        room //= max(side, 1)
    return tuple(shape)


def input_specs(
    *, dtypes_: st.SearchStrategy[str] | None = None, max_inputs: int = 3, shapes_: st.SearchStrategy | None = None
) -> st.SearchStrategy[tuple[Input, ...]]:
    """Positional and keyword inputs; the first is always positional."""
    _check_int("max_inputs", max_inputs, 1, 8)
    dtype_strategy = dtypes_ if dtypes_ is not None else dtypes()
    shape_strategy = shapes_ if shapes_ is not None else shapes()

    # A list (not a drawn count and a loop): Hypothesis shrinks lists by deleting
    # elements, so unused inputs go away.
    def build(drawn: list[tuple[str, tuple[int, ...], bool, str]]) -> tuple[Input, ...]:
        return tuple(Input(f"x{i}", dtype, shape, keyword=i > 0 and kw,
                           domain=domain if domain_applies(domain, dtype) else "small")
                     for i, (dtype, shape, kw, domain) in enumerate(drawn))

    return st.lists(st.tuples(dtype_strategy, shape_strategy, st.booleans(), _domains), min_size=1,
                    max_size=max_inputs).map(build)


#: An input's value domain: ``small`` half the time (where every op is defined, so
#: programs stay long) and where the draw shrinks to; one not applying to the dtype
#: (``precise`` for an integer) is ``small``.
_domains = st.integers(0, 5).map(lambda k: DOMAINS[max(0, k - 2)])


def output_trees(
    n_values: int, *, containers: Sequence[str] | None = None, max_depth: int = 4, max_leaves: int = 6, max_size: int = 3,
    value_kinds: Sequence[str] | None = None,
) -> st.SearchStrategy[Tree]:
    """Output trees over ``n_values`` values; shrinks to one bare leaf (depth 0).

    ``value_kinds`` (one per value: ``"NoneType"``, ``"float32(2, 3)"``, ...) lets leaves
    be drawn for what a frontend mixes up: a None beside its siblings, and a value of
    the same dtype and shape as the sibling before it."""
    kinds = _check_choice("containers", containers, CONTAINER_KINDS)
    _check_int("max_depth", max_depth, 0, 16)
    _check_int("max_leaves", max_leaves, 1, 64)
    _check_int("max_size", max_size, 0, 16)
    leaf_kinds = tuple(value_kinds) if value_kinds is not None else ("",) * n_values
    if len(leaf_kinds) != n_values:
        raise InvalidArgument(f"value_kinds={list(leaf_kinds)!r} must have n_values={n_values} items")
    return _tree(leaf_kinds, kinds, max_depth, max_leaves, max_size)


# Module level: Hypothesis inspects a composite's source when it is defined, and
# output_trees() is called for every case drawn.
@st.composite
def _tree(draw: Callable, leaf_kinds: tuple[str, ...], kinds: tuple[str, ...], max_depth: int, max_leaves: int,
          max_size: int) -> Tree:
    return draw(_node(leaf_kinds, kinds, max_depth, max_depth, [max_leaves], max_size, None))


def _leaf(draw: Callable, leaf_kinds: tuple[str, ...], sibling: int | None) -> Ref:
    """Any value (half the time, and where the draw shrinks to), else a None value, else a
    value of the same kind as the sibling before it, when the program has one."""
    pick = draw(st.integers(0, 3))
    if pick == 1:
        wanted = [i for i, kind in enumerate(leaf_kinds) if kind == "NoneType"]
    elif pick == 2 and sibling is not None:
        wanted = [i for i, kind in enumerate(leaf_kinds) if kind == leaf_kinds[sibling] and kind and i != sibling]
    else:
        wanted = []
    if wanted:
        return Ref(wanted[draw(st.integers(0, len(wanted) - 1))])
    return Ref(draw(st.integers(0, len(leaf_kinds) - 1)))


# Each node is a draw of its own: the shrinker can then put a node in its parent's place
# (Hypothesis's pass_to_descendant), so `(ModelOutput(),)` shrinks to `ModelOutput()`.
@st.composite
def _node(draw: Callable, leaf_kinds: tuple[str, ...], kinds: tuple[str, ...], max_depth: int, depth_left: int,
          budget: list[int], max_size: int, sibling: int | None) -> Tree:
    # Real models mostly return containers: the root is one 7 times in 8, each
    # level below less often. The draw shrinks to 0: a leaf.
    level = max_depth - depth_left
    if depth_left == 0 or budget[0] <= 0 or draw(st.integers(0, 7)) <= 2 * level:
        budget[0] -= 1
        return _leaf(draw, leaf_kinds, sibling)
    kind = draw(st.sampled_from(kinds))
    # Items one at a time behind a "one more" draw, as st.lists does: the shrinker
    # deletes any item with its draw (a count drawn first had to shrink together with
    # the deletion, and left items in). Empty containers are kept (a known bug class)
    # but not let dominate: 1 in 8; stopping is where each draw shrinks to.
    room = max(0, min(max_size, budget[0]))
    items: list[Tree] = []
    while len(items) < room:
        before = items[-1].index if items and isinstance(items[-1], Ref) else None
        item = draw(_item(leaf_kinds, kinds, max_depth, depth_left - 1, budget, max_size, bool(items), before))
        if item is None:
            break
        items.append(item)
    keys: tuple[str, ...] = ()
    if kind in KEYED_KINDS:
        keys = tuple(draw(st.lists(st.sampled_from(_KEYS), min_size=len(items), max_size=len(items), unique=True)))
    return Container(kind, tuple(items), keys)


# The "one more" draw and the item it lets in are one span, which the shrinker deletes whole.
@st.composite
def _item(draw: Callable, leaf_kinds: tuple[str, ...], kinds: tuple[str, ...], max_depth: int, depth_left: int,
          budget: list[int], max_size: int, after_first: bool, sibling: int | None) -> Tree | None:
    if not draw(st.integers(0, 2 if after_first else 7)):
        return None
    return draw(_node(leaf_kinds, kinds, max_depth, depth_left, budget, max_size, sibling))


@functools.lru_cache(maxsize=256)
def _operand_candidates(arity: int, names: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(itertools.product(names, repeat=arity))


def _operand_names(op: Op, types: dict[str, Type], mutated: frozenset[str]) -> tuple[str, ...]:
    if op.takes_tuples:
        return tuple(n for n, t in types.items() if isinstance(t, TupleType))
    # inputs_only ops want an input as drawn: one mutated in place is not (a clamp_ makes ties).
    return tuple(n for n, t in types.items() if isinstance(t, TensorType) and (op.complex_ok or not t.is_complex)
                 and (op.nonfinite_ok or not t.nonfinite)
                 and (not op.inputs_only or n.startswith("x") and n not in mutated))


def _operand_choices(op: Op, types: dict[str, Type], read: frozenset[str], mutated: frozenset[str], *,
                     first_only: bool = False, banned: frozenset[str] = frozenset()) -> list[tuple[str, ...]]:
    """The operand tuples on which ``op`` is defined; with ``first_only``, at most one.

    ``read`` and ``mutated`` hold the names read and mutated so far: an op that mutates
    its first operand takes an input no value has read (see ``strategies.ops.state``).
    ``banned`` are dtypes the first operand may not have (``cases(exclude=...)``)."""
    names = _operand_names(op, types, mutated)
    positions = [names] * op.arity
    if op.mutates == "operand":
        positions[0] = tuple(n for n in names if n.startswith("x") and n not in read)
    if banned and positions:
        positions[0] = tuple(n for n in positions[0] if getattr(types[n], "dtype", None) not in banned)
    found = []
    for combo in itertools.product(*positions):
        if op.mutates == "operand" and combo[0] in combo[1:]:
            continue
        if _accepted(op.name, tuple(types[n] for n in combo)):
            found.append(combo)
            if first_only:
                break
    return found


# Each step of a program asks every op about every operand tuple again; only the tuples
# with the newest value are new. Types are frozen values, so the answers are cached.
@functools.lru_cache(maxsize=1 << 18)
def _accepted(op_name: str, operand_types: tuple[Type, ...]) -> bool:
    return OPS[op_name].accepts(*operand_types)


def _draw_stable(draw: Callable, every: Sequence[Any], allowed: Collection[Any]) -> Any:
    """A uniform choice among ``allowed`` (a subset of ``every``) that shrinks stably.

    ``sampled_from(allowed)`` indexes a list that depends on the inputs (and draws
    nothing for one item), so when the shrinker simplified or deleted an input, the same
    choices named another op or operands and the shrink was rejected: cases kept unused
    inputs and float16 where float32 would do. The first choice here indexes ``every``,
    which does not depend on the inputs; only a miss falls back to indexing ``allowed``.
    Hit, or miss then fallback: each allowed item still has probability 1/len(allowed).
    """
    first = every[draw(st.integers(0, len(every) - 1))]
    if first in allowed:
        return first
    ordered = [e for e in every if e in allowed]
    return ordered[draw(st.integers(0, len(ordered) - 1))]


def _offered(ops: tuple[str, ...], types: dict[str, Type], read: frozenset[str],
             mutated: frozenset[str], banned: dict[str, frozenset[str]]) -> dict[str, list[str]]:
    """family -> the ops in it that some operands (inputs or earlier values) can feed."""
    offered: dict[str, list[str]] = {}
    for name in ops:
        op = OPS[name]
        if op.arity == 0 or _operand_choices(op, types, read, mutated, first_only=True,
                                             banned=banned.get(name, frozenset())):
            offered.setdefault(op.family, []).append(name)
    return offered


#: Families drawn more often than the rest (a family listed k times is k times as
#: likely): what the suite exists for are the leaves a model returns as they are
#: (inputs, parameters, views, tuple items) and the ones that are not tensors (None,
#: Python constants, shape ints; None, a family of its own), which 15 families of
#: computing ops would drown.
_WEIGHT = {"leaf": 3, "special": 3, "none": 2}


@st.composite
def _program(draw: Callable, inputs: tuple[Input, ...], ops: tuple[str, ...], max_values: int,
             names: tuple[str, ...], banned: dict[str, frozenset[str]]) -> tuple[Value, ...]:
    """A dataflow program: each value is an op on inputs or earlier values.

    Operands are drawn among ``names`` (every input name, then every value name, fixed
    for the strategy), so an operand that points at an earlier value shrinks toward
    pointing at an input, and the choices keep their meaning when a value is deleted.
    """
    types: dict[str, Type] = {i.name: domain_type(i.dtype, i.shape, i.domain) for i in inputs}
    families = tuple(f for f in dict.fromkeys(OPS[name].family for name in ops) for _ in range(_WEIGHT.get(f, 1)))
    values: list[Value] = []
    read: set[str] = set()
    mutated: set[str] = set()  # no longer an input as drawn
    for k in range(max_values):
        # Like st.lists: one more value (3 times in 4), or stop; shrinks toward fewer.
        if k and not draw(st.integers(0, 3)):
            break
        offered = _offered(ops, types, frozenset(read), frozenset(mutated), banned)
        if not offered:
            break
        # Family first, then the op: a family's chance does not grow with its number of
        # ops, so the few special leaves (None, constants) are not drowned.
        family = _draw_stable(draw, families, offered)
        op_name = _draw_stable(draw, tuple(n for n in ops if OPS[n].family == family), offered[family])
        op = OPS[op_name]
        choices = _operand_choices(op, types, frozenset(read), frozenset(mutated),
                                   banned=banned.get(op_name, frozenset()))
        operands = _draw_stable(draw, _operand_candidates(op.arity, names), choices)
        operand_types = tuple(types[n] for n in operands)
        attrs = op.draw_attrs(draw, operand_types) if op.draw_attrs else {}
        out = value_type(op_name, attrs, operand_types)
        types[f"v{k}"] = out
        read.update(operands)
        if op.mutates == "operand":
            types[operands[0]] = out  # later values read the input as mutated
            mutated.add(operands[0])
        dtype, shape, pytype = recorded(out)
        values.append(Value(op_name, operands, tuple(sorted(attrs.items())), dtype, shape, pytype))
    return tuple(values)


def cases(
    *,
    dtypes: Sequence[str] | None = None,
    include_complex: bool = False,
    containers: Sequence[str] | None = None,
    op_families: Sequence[str] | None = None,
    ops: Sequence[str] | None = None,
    max_ops: int = 8,
    max_depth: int = 4,
    max_leaves: int = 6,
    max_inputs: int = 3,
    max_rank: int = 4,
    max_side: int = 3,
    sizes: Sequence[str] | None = None,
    exportable: bool | None = None,
    exclude: Collection[str] | None = None,
) -> st.SearchStrategy[Case]:
    """Random models, drawn as :class:`~strategies.spec.Case` data.

    ``dtypes``, ``containers``, ``op_families`` and ``ops`` focus a run on some names;
    ``max_ops`` bounds the program's length (values computed in ``forward``);
    ``sizes`` are the size classes a case draws its input shapes from: ``small`` (sides
    up to ``max_side``; three cases in four, and where a case shrinks to) and ``large``
    (``large_shapes``: sides up to 127, where compilers vectorize, tile and split
    reductions);
    ``exportable=True`` leaves out outputs that ``torch.export`` itself rejects (an
    unregistered dict subclass), ``False`` keeps only cases that contain one;
    ``exclude`` leaves out features a frontend is known to reject cleanly
    (``suites.calibration``): ``container:<kind>``, ``op:<name>``, or ``op:<name>@<dtype>``
    (the op on a first operand of that dtype).
    """
    dtype_pool = _check_choice("dtypes", dtypes, (*ALL_DTYPES, *COMPLEX) if include_complex else ALL_DTYPES)
    kinds = _check_choice("containers", containers, CONTAINER_KINDS)
    families = _check_choice("op_families", op_families, FAMILIES)
    if "leaf" not in families:
        # Without the leaf family a drawn input may have no applicable op at all.
        raise InvalidArgument(f"op_families={list(op_families or ())!r} must include 'leaf'")
    op_names = tuple(n for n in _check_choice("ops", ops, tuple(OPS)) if OPS[n].family in families)
    if "input" not in op_names:
        op_names = ("input", *op_names)  # an input can always be returned as it is
    banned: dict[str, frozenset[str]] = {}
    for feature in sorted(exclude or ()):
        kind, _, name = feature.partition(":")
        name, _, dtype = name.partition("@")
        if kind == "container" and name in CONTAINER_KINDS and not dtype:
            kinds = tuple(k for k in kinds if k != name)
        elif kind == "op" and name in OPS and name != "input" and (not dtype or dtype in (*ALL_DTYPES, *COMPLEX)):
            if dtype:
                banned[name] = banned.get(name, frozenset()) | {dtype}
            else:
                op_names = tuple(n for n in op_names if n != name)
        else:
            raise InvalidArgument(f"exclude={sorted(exclude or ())!r}: {feature!r} is not container:<kind>, "
                                  "op:<name> or op:<name>@<dtype> (and 'input' stays)")
    if not kinds:
        max_depth = 0
    _check_int("max_ops", max_ops, 1, 64)
    names = tuple(f"x{i}" for i in range(max_inputs)) + tuple(f"v{i}" for i in range(max_ops))
    if exportable not in (None, True, False):
        raise InvalidArgument(f"exportable={exportable!r} must be None, True or False")
    if exportable is True:
        kinds = tuple(k for k in kinds if k != "plain_dict_subclass")
        if not kinds:
            max_depth = 0
    if exportable is False and "plain_dict_subclass" not in kinds:
        raise InvalidArgument(f"exportable=False needs 'plain_dict_subclass' in containers={list(kinds)!r}")
    _check_int("max_depth", max_depth, 0, 16)
    _check_int("max_leaves", max_leaves, 1, 64)
    input_strategy = input_specs(
        dtypes_=st.sampled_from(dtype_pool), max_inputs=max_inputs, shapes_=shapes(max_rank=max_rank, max_side=max_side)
    )
    large_input_strategy = input_specs(
        dtypes_=st.sampled_from(dtype_pool), max_inputs=max_inputs, shapes_=large_shapes(max_rank=max_rank))
    size_classes = _check_choice("sizes", sizes, SIZE_CLASSES)

    @st.composite
    def draw_case(draw: Callable) -> Case:
        seed = draw(st.integers(0, 2**31 - 1))
        # The size class: small three times in four, and where the draw shrinks to.
        large = "large" in size_classes and ("small" not in size_classes or draw(st.integers(0, 3)) == 3)
        inputs = draw(large_input_strategy if large else input_strategy)
        values = draw(_program(inputs, op_names, max_ops, names, banned))
        value_kinds = tuple(v.pytype if v.dtype is None else f"{v.dtype}{v.shape}" for v in values)
        if exportable is False:
            # At least one unregistered dict subclass, at the root (the simplest place).
            items = draw(st.lists(output_trees(len(values), containers=kinds, max_depth=max(0, max_depth - 1),
                                               max_leaves=max_leaves, value_kinds=value_kinds), max_size=3))
            keys = tuple(draw(st.lists(st.sampled_from(_KEYS), min_size=len(items), max_size=len(items), unique=True)))
            output: Tree = Container("plain_dict_subclass", tuple(items), keys)
        else:
            output = draw(output_trees(len(values), containers=kinds or ("tuple",), max_depth=max_depth,
                                       max_leaves=max_leaves, value_kinds=value_kinds))
        return Case(inputs=inputs, values=values, output=output, seed=seed)

    strategy = draw_case()
    arguments = {k: v for k, v in dict(
        dtypes=dtypes, include_complex=include_complex, containers=containers, op_families=op_families,
        ops=ops, max_ops=max_ops, max_depth=max_depth, max_leaves=max_leaves, max_inputs=max_inputs, max_rank=max_rank,
        max_side=max_side, sizes=sizes,
        exportable=exportable, exclude=exclude).items() if v != _DEFAULTS[k]}
    return _Named(strategy, "cases(" + ", ".join(f"{k}={v!r}" for k, v in arguments.items()) + ")")


_DEFAULTS = dict(dtypes=None, include_complex=False, containers=None, op_families=None, ops=None, max_ops=8, max_depth=4, max_leaves=6,
                 max_inputs=3, max_rank=4, max_side=3, sizes=None, exportable=None, exclude=None)


class _Named(st.SearchStrategy):
    """A strategy whose repr is the call that built it, as Hypothesis's own are."""

    def __init__(self, inner: st.SearchStrategy, name: str) -> None:
        super().__init__()
        self._inner = inner
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def do_draw(self, data: Any) -> Any:
        return data.draw(self._inner)
