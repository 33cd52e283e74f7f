"""Hypothesis strategies for cases: random models with nested, varied-dtype outputs.

Everything is built valid by construction (no ``assume``/``filter``), and every part
shrinks to its simplest form: one input, float32, shape ``()``, the input returned
as it is, no container.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any, NamedTuple

import torch
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from . import engine
from .choices import DIRECT, choice
from .dynamic import dynamic_specs
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
from .spec import (
    CONTAINER_KINDS,
    INPUT_TREE_KINDS,
    KEYED_KINDS,
    Case,
    Const,
    Container,
    Input,
    Param,
    ParamNode,
    ParamTree,
    Ref,
    Tree,
    Value,
)

__all__ = ["ALL_DTYPES", "LARGE_SIDES", "MAX_NUMEL", "SIZE_CLASSES", "STRUCTURAL_FAMILIES", "VALUE_CHOICES",
           "cases", "chain_depth", "dtypes", "input_specs", "large_shapes", "output_trees", "padded", "shapes"]

#: float32 first: a dtype shrinks towards the front of this list.
ALL_DTYPES = ("float32", *(d for d in FLOATS if d != "float32"), *INTS, "bool")
_KEYS = ("a", "b", "c", "logits", "hidden_states", "loss", "past_key_values", "z")


class _PadFrom(st.SearchStrategy):
    """Choices that mean nothing, up to ``total`` since the ``start``-th choice of the
    case; drawn with ``start=None``, it draws nothing and gives the count so far."""

    def __init__(self, start: int | None, total: int) -> None:
        super().__init__()
        self._start, self._total = start, total

    def calc_label(self) -> int:
        return engine.label("roundtrip: padding")

    def __repr__(self) -> str:
        return f"_PadFrom({self._start})"

    def do_draw(self, data: Any) -> int:
        if self._start is not None:
            for _ in range(self._total - (engine.choice_count(data) - self._start)):
                engine.integer_choice(data, 0, 2**31 - 1, 0)  # see Choice: unused
        return engine.choice_count(data)


def _direct(draw: Callable) -> Callable:
    """``draw`` (a composite's), with the choices and spans of this module drawn
    directly: the same choices as ``draw(strategy)`` records, without the checks a
    strategy draw pays for (a case draws over a hundred choices and a few dozen spans,
    and that overhead was a third of a draw's cost). A ``_Span`` keeps its span (the
    shrinker deletes or lifts it whole); a choice or padding is drawn with none (see
    ``Choice``). Anything else goes to ``draw``."""
    data = draw.__self__

    def direct(strategy: st.SearchStrategy) -> Any:
        kind = type(strategy)
        if kind is _Span:
            with engine.span(data, strategy.label):
                return strategy.run(direct)
        if kind in _DIRECT:
            return strategy.do_draw(data)
        return draw(strategy)

    direct.span = functools.partial(engine.span, data)  # type: ignore[attr-defined]
    return direct


class _Span(st.SearchStrategy):
    """What ``st.composite`` makes of a function (a draw in a span of its own), without
    a new strategy's first-draw checks each time one is made: nodes of the output tree
    and programs are made for every case drawn. See ``_spanned``."""

    def __init__(self, label: int, function: Callable, args: tuple) -> None:
        super().__init__()
        self._label, self._function, self._args = label, function, args

    def calc_label(self) -> int:
        return self._label

    def __repr__(self) -> str:
        return f"{self._function.__name__}{self._args!r}"

    def run(self, draw: Callable) -> Any:
        return self._function(draw, *self._args)

    def do_draw(self, data: Any) -> Any:
        return self.run(_direct(data.draw))


def _spanned(function: Callable) -> Callable[..., _Span]:
    """``function(draw, *args)`` as a strategy maker, like ``st.composite`` (positional
    arguments only), drawn in a span labelled with its name."""
    label = engine.label(f"roundtrip span: {function.__qualname__}")

    @functools.wraps(function)
    def make(*args: Any) -> _Span:
        return _Span(label, function, args)

    return make


#: Choices each value of a program takes, padded up to (see ``_program``).
VALUE_CHOICES = 8
_VALUE_SPAN = engine.label("roundtrip span: a program's value")
_COUNT = _PadFrom(None, 0)
_DIRECT = (*DIRECT, _PadFrom)


def padded(draw: Callable, total: int, function: Callable[[Callable], Any]) -> Any:
    """``function(draw)``, its choices padded up to ``total``: a block of fixed length,
    so that the shrinker's change of what the block draws (another op, another model
    family) leaves every choice after it in its place (see ``_program``)."""
    start = draw(_COUNT)
    out = function(draw)
    drawn = draw(_COUNT) - start
    if drawn > total:
        raise ValueError(f"{function!r} drew {drawn} choices, more than the block's {total}")
    draw(_PadFrom(start, total))
    return out


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


def _dtype_names(given: Any) -> Any:
    """``torch.float16`` as ``"float16"``: dtypes may be given as torch's or by name."""
    if given is None or isinstance(given, str):
        return given
    return [str(d).removeprefix("torch.") if isinstance(d, torch.dtype) else d for d in given]


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
    return _shape(("small", max_rank, max_side, allow_empty))


def large_shapes(*, max_rank: int = 4) -> st.SearchStrategy[tuple[int, ...]]:
    """Shapes of the ``large`` size class: sides from ``LARGE_SIDES`` (a 0-size dim one time
    in 19), at most ``MAX_NUMEL`` elements; each side shrinks to 1.

    A side that would pass the bound is the largest one that fits, so every drawn index
    is kept (the shrinker sees a stable choice) and a reduction sees 8 to 4096 elements
    along a dim or over all of it."""
    _check_int("max_rank", max_rank, 0, 6)
    return _shape(("large", max_rank, 0, True))


SIZE_CLASSES = ("small", "large")
#: Sides of the ``large`` size class: powers of two a vectorizer fills (8, 16, 32, 64 lanes)
#: and the odd sides next to them that leave a tail (9, 17, 33, 65, 127), beside small ones.
LARGE_SIDES = (1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127)
#: At most this many elements in one drawn tensor: a case stays fast to run and compare.
MAX_NUMEL = 2**16

#: (size class, max rank, max side of a small shape, whether a side may be 0).
ShapeRule = tuple[str, int, int, bool]


# A side is drawn for every dim up to max_rank, those past the rank unused (forced, see
# Choice): a block of fixed length, so that a shrunk rank leaves the choices after the
# shape in their places.
@_spanned
def _shape(draw: Callable, rule: ShapeRule) -> tuple[int, ...]:
    size_class, max_rank, max_side, allow_empty = rule
    rank = draw(choice("rank", 0, max_rank))
    if size_class == "large":
        picks = [draw(choice("large side", 0, len(LARGE_SIDES), unused=d >= rank)) for d in range(max_rank)]
        shape: list[int] = []
        room = MAX_NUMEL
        for k in picks[:rank]:
            side = 0 if k == len(LARGE_SIDES) else max(s for s in LARGE_SIDES[: k + 1] if s <= room)
            shape.append(side)
            room //= max(side, 1)
        return tuple(shape)
    if not allow_empty:
        return tuple(draw(choice("small side", 1, max_side, unused=d >= rank)) for d in range(max_rank))[:rank]
    # About one dim in 16 is 0-size: common enough to find 0-size bugs, rare enough that
    # they do not drown everything else. Shrinks to 1, not 0.
    picks = [draw(choice("small side or 0", 0, 15, unused=d >= rank)) for d in range(max_rank)]
    return tuple(0 if v == 15 else 1 + v * max_side // 15 for v in picks[:rank])


def input_specs(*, dtypes_: Sequence[str] | None = None, max_inputs: int = 3,
                shapes_: st.SearchStrategy[tuple[int, ...]] | None = None) -> st.SearchStrategy[tuple[Input, ...]]:
    """Positional and keyword inputs of ``dtypes_`` (default every dtype but complex); the
    first is always positional."""
    _check_int("max_inputs", max_inputs, 1, 8)
    pool = _check_choice("dtypes", dtypes_, (*ALL_DTYPES, *COMPLEX))
    shape = shapes_ if shapes_ is not None else shapes()
    return _inputs(pool, pool, shape, max_inputs)


# Inputs one at a time, each behind a "one more" draw in one span with it, as st.lists
# draws a list (and _item an output item): the shrinker deletes an unused input whole.
@_spanned
def _inputs(draw: Callable, every_dtype: tuple[str, ...], allowed_dtypes: tuple[str, ...],
            shape: st.SearchStrategy[tuple[int, ...]], max_inputs: int) -> tuple[Input, ...]:
    inputs = [draw(_input(0, every_dtype, allowed_dtypes, shape))]
    while len(inputs) < max_inputs:
        more = draw(_input(len(inputs), every_dtype, allowed_dtypes, shape))
        if more is None:
            break
        inputs.append(more)
    return tuple(inputs)


@_spanned
def _input(draw: Callable, i: int, every_dtype: tuple[str, ...], allowed_dtypes: tuple[str, ...],
           shape: st.SearchStrategy[tuple[int, ...]]) -> Input | None:
    # Three inputs in five go on to one more (about two inputs a case, as st.lists drew);
    # stopping is where the draw shrinks to.
    if i and draw(choice("one more input", 0, 4)) < 2:
        return None
    dtype = _draw_stable(draw, "input dtype", every_dtype, allowed_dtypes)
    drawn_shape = draw(shape)
    keyword = i > 0 and draw(choice("keyword input", 0, 1)) == 1
    # An input's value domain: ``small`` half the time (where every op is defined, so
    # programs stay long) and where the draw shrinks to; one not applying to the dtype
    # (``precise`` for an integer) is ``small``.
    domain = DOMAINS[max(0, draw(choice("input domain", 0, 5)) - 2)]
    return Input(f"x{i}", dtype, drawn_shape, keyword=keyword,
                 domain=domain if domain_applies(domain, dtype) else "small")


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
    kinds = _check_choice("containers", containers, CONTAINER_KINDS)
    _check_int("max_depth", max_depth, 0, 16)
    _check_int("max_leaves", max_leaves, 1, 64)
    _check_int("max_size", max_size, 0, 16)
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
@_spanned
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
@_spanned
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
    # deletes any item with its draw (a count drawn first had to shrink together with
    # the deletion, and left items in). Empty containers are kept (a known bug class)
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
        keys = _keys(draw, len(items))
    return Container(kind, tuple(items), keys)


def _keys(draw: Callable, n: int) -> tuple[str, ...]:
    """``n`` distinct keys, one choice each among the keys left: ``n`` choices for ``n``
    items (a count fixed by the items), each shrinking to the first key left, so keys
    shrink to ``a``, ``b``, ``c``."""
    left = list(_KEYS)
    return tuple(left.pop(draw(choice("key", 0, len(left) - 1))) for _ in range(n))


# The "one more" draw and the item it lets in are one span, which the shrinker deletes whole.
@_spanned
def _item(draw: Callable, leaves: _Leaves, kinds: tuple[str, ...], max_depth: int, depth_left: int,
          budget: list[int], max_size: int, after_first: bool, sibling: int | None) -> Tree | None:
    if not draw(choice("one more output item", 0, 2 if after_first else 15)):
        return None
    return draw(_node(leaves, kinds, max_depth, depth_left, budget, max_size, sibling))


@functools.lru_cache(maxsize=256)
def _operand_candidates(arity: int, names: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(itertools.product(names, repeat=arity))


def _operand_names(op: Op, scope: _Scope) -> tuple[str, ...]:
    """The names ``op`` may read in ``scope``, kept there for ops of one kind (``_KINDS``)."""
    kind, names_by_kind = _KINDS[op.name], scope.names_by_kind
    if kind in names_by_kind:
        return names_by_kind[kind]
    types, mutated = scope.types, scope.mutated
    if op.takes_tuples:
        names = tuple(n for n, t in types.items() if isinstance(t, TupleType))
    else:
        # inputs_only ops want an input as drawn: one mutated in place is not (a clamp_ makes ties).
        names = tuple(n for n, t in types.items() if isinstance(t, TensorType) and (op.complex_ok or not t.is_complex)
                      and (op.nonfinite_ok or not t.nonfinite)
                      and (not op.inputs_only or n.startswith("x") and n not in mutated))
    names_by_kind[kind] = names
    return names


def _operand_choices(op: Op, scope: _Scope, *, first_only: bool = False, banned: frozenset[str] = frozenset(),
                     focus: str | None = None) -> list[tuple[str, ...]]:
    """The operand tuples on which ``op`` is defined; with ``first_only``, at most one
    (``_Feeds`` asks so of ops that mutate; of the others it asks by types).

    ``scope.read`` holds the names read so far: an op that mutates its first operand
    takes an input no value has read (see ``strategies.ops.state``).
    ``banned`` are dtypes the first operand may not have (``cases(exclude=...)``).
    ``focus``, when given, is a name every tuple must contain."""
    names, types = _operand_names(op, scope), scope.types
    positions = [names] * op.arity
    if op.mutates == "operand":
        positions[0] = tuple(n for n in names if n.startswith("x") and n not in scope.read)
    if banned and positions:
        positions[0] = tuple(n for n in positions[0] if getattr(types[n], "dtype", None) not in banned)
    found = []
    for combo in _combos(positions, focus):
        if op.mutates == "operand" and combo[0] in combo[1:]:
            continue
        if _accepted(op.name, tuple(types[n] for n in combo)):
            found.append(combo)
            if first_only:
                break
    return found


def _one_per_type(names: tuple[str, ...], types: dict[str, Type], keep: str | None) -> tuple[str, ...]:
    """The first name of each type among ``names``, and ``keep`` if it is among them."""
    first: dict[Type, str] = {}
    for n in names:
        first.setdefault(types[n], n)
    kept = tuple(first.values())
    return kept + (keep,) if keep in names and keep not in kept else kept


def _combos(positions: list[tuple[str, ...]], focus: str | None) -> Iterator[tuple[str, ...]]:
    """Every tuple of one name per position (with ``focus``, those holding it), each once,
    in ``itertools.product`` order."""
    if focus is None:
        yield from itertools.product(*positions)
        return
    seen: set[tuple[str, ...]] = set()
    for i, names in enumerate(positions):
        if focus in names:
            for combo in itertools.product(*positions[:i], (focus,), *positions[i + 1:]):
                if combo not in seen:
                    seen.add(combo)
                    yield combo


# Each step of a program asks every op about every operand tuple again; only the tuples
# with the newest value are new. Types are frozen values, so the answers are cached.
@functools.lru_cache(maxsize=1 << 18)
def _accepted(op_name: str, operand_types: tuple[Type, ...]) -> bool:
    return OPS[op_name].accepts(*operand_types)


def _draw_stable(draw: Callable, purpose: str, every: Sequence[Any], allowed: Collection[Any]) -> Any:
    """A choice among ``allowed`` (a subset of ``every``), about uniform, that shrinks stably.

    ``sampled_from(allowed)`` indexes a list that depends on the inputs (and draws
    nothing for one item), so when the shrinker simplified or deleted an input, the same
    choices named another op or operands and the shrink was rejected: cases kept unused
    inputs and float16 where float32 would do. The choice here indexes ``every``, which
    does not depend on the inputs; only a miss falls back to an item of ``allowed``
    (``_pick``). One choice over a range that does not depend on ``allowed``, drawn
    whether or not it hits: a value's choices keep their places.
    """
    return _pick(every, allowed, draw(choice(purpose, 0, len(every) - 1)))


def _pick(every: Sequence[Any], allowed: Collection[Any], index: int) -> Any:
    """``_draw_stable``'s item for its choice ``index``: ``every[index]`` where allowed.

    On a miss: where ``allowed`` is a list of the items (operand tuples, dtypes), the
    item ``index`` names among them; where it is a question asked one item at a time
    (``_Feeds``: is this op fed?), the first allowed item in an order drawn from
    ``index``: the first allowed item of a random order is uniform among the allowed,
    and asking a few items instead of all of them (130 ops, most not fed) was a third of
    a draw. 0, where the choice shrinks to, asks in ``every``'s order: the simplest
    allowed item."""
    item = every[index]
    if item in allowed:
        return item
    if isinstance(allowed, (list, tuple)):
        return allowed[index % len(allowed)]
    for i in _probe_order(len(every), index):
        if every[i] in allowed:
            return every[i]
    raise ValueError(f"nothing of {every!r} is allowed")


@functools.lru_cache(maxsize=1 << 12)
def _probe_order(n: int, index: int) -> tuple[int, ...]:
    """Every index in ``range(n)`` but ``index``, in an order that is a function of
    ``index`` alone (a Fisher-Yates shuffle seeded by it, made once); ascending for 0."""
    if index == 0:
        return tuple(range(1, n))
    rng = random.Random(index)
    rest = [*range(index), *range(index + 1, n)]
    order = []
    for k in range(len(rest), 0, -1):
        j = rng.randrange(k)
        order.append(rest[j])
        rest[j] = rest[k - 1]
    return tuple(order)


class _Scope:
    """What one value of a program may read (the types of the inputs and values so far,
    the names read and mutated so far), and what its questions found, kept while the
    value is drawn: every ``_Feeds`` of the value (free, on the sink, aimed) shares them."""

    def __init__(self, types: dict[str, Type], read: frozenset[str], mutated: frozenset[str]) -> None:
        self.types, self.read, self.mutated = types, read, mutated
        self.names_by_kind: dict[int, tuple[str, ...]] = {}  # see _operand_names
        #: (kind, focus): one name per type among the names ops of that kind (_KINDS) may read.
        self.pools: dict[tuple[int, str | None], tuple[str, ...]] = {}
        #: (kind, banned, focus): the pool's types as a first and as a later operand.
        self.typed: dict[tuple, tuple[tuple[Type, ...], tuple[Type, ...]]] = {}


class _Feeds:
    """Which of ``ops`` some operands (inputs or earlier values) can feed; with ``focus``,
    which can read that value, and the leaves that read nothing (a None, a constant, a
    parameter: the newest sink stays the one to read, where a tensor created from
    nothing would be a new sink).

    Asked one op at a time, as a choice needs it (``name in feeds``, ``feeds.family(f)``):
    a choice usually hits at its first index, so a value asks about a few ops instead of
    every op of the vocabulary, which was most of a draw's cost. Answers are kept for
    the value being drawn; ``_accepted`` keeps them across values and cases.
    """

    def __init__(self, ops: _Vocabulary, scope: _Scope, banned: dict[str, frozenset[str]],
                 focus: str | None = None) -> None:
        self._ops, self._by_family, self._scope = ops.names, ops.by_family, scope
        self._banned, self._focus = banned, focus
        self._answers: dict[str, bool] = {}
        self._families: dict[str, bool] = {}

    def __contains__(self, name: object) -> bool:
        if name not in self._ops:
            return False
        answer = self._answers.get(name)  # type: ignore[call-overload]
        if answer is None:
            answer = self._answers[name] = self._feeds(OPS[name])  # type: ignore[index]
        return answer

    def _feeds(self, op: Op) -> bool:
        focus, scope = self._focus, self._scope
        if op.arity == 0:
            return focus is None or op.family in STRUCTURAL_FAMILIES
        kind, types = _KINDS[op.name], scope.types
        pool = scope.pools.get((kind, focus))
        if pool is None:
            pool = scope.pools[kind, focus] = _one_per_type(_operand_names(op, scope), types, focus)
        banned = self._banned.get(op.name, _NOTHING)
        if op.mutates:
            return bool(_operand_choices(op, scope, first_only=True, banned=banned, focus=focus))
        # What _operand_choices(first_only=True) answers, asked of types, not names (the
        # answer depends on the types alone), each kind's found once per banned dtypes.
        typed = scope.typed.get((kind, banned, focus))
        if typed is None:
            others = tuple(types[n] for n in pool)  # distinct but for the focus: a repeat asks twice
            firsts = tuple(t for t in others if not banned or getattr(t, "dtype", None) not in banned)
            typed = scope.typed[kind, banned, focus] = firsts, others
        firsts, others = typed
        name, arity = op.name, op.arity
        if focus is None:
            return any(_accepted(name, combo) for combo in itertools.product(firsts, *(others,) * (arity - 1)))
        if focus not in pool:
            return False
        at = types[focus]
        for i in range(arity):
            # The focus is among the firsts unless its dtype is banned (its own type is
            # kept in the pool: _one_per_type's keep), a question cheaper than ``in``.
            if i == 0 and banned and getattr(at, "dtype", None) in banned:
                continue
            positions = [firsts, *(others,) * (arity - 1)]
            positions[i] = (at,)
            if any(_accepted(name, combo) for combo in itertools.product(*positions)):
                return True
        return False

    def any(self, *, computing: bool = False) -> bool:
        """Whether some op is fed (with ``computing``, one that reads an operand)."""
        return any(name in self for names in self._by_family.values() for name in names
                   if not computing or OPS[name].arity)

    def family(self, family: str) -> bool:
        """Whether some op of ``family`` is fed."""
        answer = self._families.get(family)
        if answer is None:
            answer = self._families[family] = any(name in self for name in self._by_family.get(family, ()))
        return answer


class _FedFamilies:
    """The families with an op ``feeds`` feeds, as ``_draw_stable`` asks about them."""

    def __init__(self, feeds: _Feeds) -> None:
        self._feeds = feeds

    def __contains__(self, family: object) -> bool:
        return self._feeds.family(family)  # type: ignore[arg-type]


_NOTHING: frozenset[str] = frozenset()
_KIND_NUMBERS: dict[tuple[bool, ...], int] = {}
#: Ops that read the same names (``_operand_names``) share a number.
_KINDS = {name: _KIND_NUMBERS.setdefault((op.takes_tuples, op.complex_ok, op.nonfinite_ok, op.inputs_only),
                                         len(_KIND_NUMBERS)) for name, op in OPS.items()}


class _Vocabulary(NamedTuple):
    """The ops a ``_Feeds`` asks about: as a set, and by family (in their order)."""

    names: frozenset[str]
    by_family: dict[str, tuple[str, ...]]


# Once per program, not per question: a tuple of 140 names is hashed anew at each lookup.
@functools.lru_cache(maxsize=256)
def _vocabulary(ops: tuple[str, ...]) -> _Vocabulary:
    return _Vocabulary(frozenset(ops), _by_family(ops))


@functools.lru_cache(maxsize=256)
def _by_family(ops: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for name in ops:
        grouped.setdefault(OPS[name].family, []).append(name)
    return {family: tuple(names) for family, names in grouped.items()}


#: Families whose ops compute nothing: leaves returned as they are (inputs, views,
#: state, tuple items) and values that are not tensors (None, constants, shape ints).
STRUCTURAL_FAMILIES = ("leaf", "special", "none")


def chain_depth(case: Case) -> int:
    """The most computing ops (outside ``STRUCTURAL_FAMILIES``) on one path from an input
    to a result (an output leaf, or state mutated in place); 0 for a case that computes
    nothing."""
    depth = _value_depths(case.values)
    return max((depth[i] for i in (*case.refs(), *case.mutations())), default=0)


def _value_depths(values: Sequence[Value]) -> list[int]:
    """Each value's chain depth: the most computing ops on one path to it."""
    depth: list[int] = []
    for value in values:
        before = max((depth[int(o[1:])] for o in value.operands if o.startswith("v")), default=0)
        depth.append(before + (OPS[value.op].family not in STRUCTURAL_FAMILIES))
    return depth


#: Families drawn more often than the rest (a family listed k times is k times as
#: likely): what the suite exists for are the leaves a model returns as they are
#: (inputs, parameters, views, tuple items) and the ones that are not tensors (None,
#: Python constants, shape ints; None, a family of its own), which 15 families of
#: computing ops would drown. PyTorch's own op database (``strategies.ops.opinfo`` and
#: ``strategies.ops.samples``: some 500 ops in six families, against some 190 in the other
#: twenty) is drawn in proportion to the ops it holds, so that a nightly's draws meet
#: its ops as often as the hand-written ones.
_WEIGHT = {"leaf": 3, "special": 3, "none": 2,
           "opinfo": 2, "opinfo_torch": 6, "opinfo_functional": 3, "opinfo_module": 3, "opinfo_math": 3}


def _sinks(values: Sequence[Value], consumed: Collection[str]) -> tuple[int, ...]:
    """The computed values no computing op reads yet (a view or a shape int of a value
    leaves it a result), shallowest first: the last is the end of the longest chain."""
    depth = _value_depths(values)
    found = [i for i, v in enumerate(values)
             if f"v{i}" not in consumed and OPS[v.op].family not in STRUCTURAL_FAMILIES and v.pytype is None]
    return tuple(sorted(found, key=lambda i: (depth[i], i)))


class _Aim(NamedTuple):
    """Coverage-directed choice (see ``cases``): the dtype a case aims at, the ops that
    may be aimed at it, and each op's first-operand dtypes left out (all but ``dtype``)."""

    dtype: str
    ops: tuple[str, ...]
    banned: dict[str, frozenset[str]]


@functools.lru_cache(maxsize=64)
def _aims_cached(ops: tuple[str, ...], banned_items: tuple, dtype: str) -> _Aim:
    banned = dict(banned_items)
    others = frozenset(_EVERY_DTYPE) - {dtype}
    return _Aim(dtype, ops, {op: others | banned.get(op, frozenset()) for op in ops})


def _aims(ops: tuple[str, ...], banned: dict[str, frozenset[str]], dtype: str) -> _Aim:
    return _aims_cached(ops, tuple(sorted(banned.items())), dtype)


_EVERY_DTYPE = (*ALL_DTYPES, *COMPLEX)


@_spanned
def _program(draw: Callable, inputs: tuple[Input, ...], ops: tuple[str, ...], max_values: int,
             names: tuple[str, ...], banned: dict[str, frozenset[str]], every_op: tuple[str, ...],
             aim: _Aim | None = None) -> tuple[Value, ...]:
    """A dataflow program: each value is an op on inputs or earlier values, mostly on the
    deepest computed value nothing reads yet (a chain that the output returns).

    With ``aim``, half the values apply an op drawn uniformly among ``aim.ops`` to a first
    operand of ``aim.dtype`` (the deepest sink when it has that dtype).

    Operands are drawn among ``names`` (every input name, then every value name, fixed
    for the strategy), so an operand that points at an earlier value shrinks toward
    pointing at an input, and the choices keep their meaning when a value is deleted.
    ``ops`` are the ops this case may use, among ``every_op`` of the strategy: a choice
    indexes ``every_op``, so it names the same op when the swarm lets more in.
    """
    types: dict[str, Type] = {i.name: domain_type(i.dtype, i.shape, i.domain) for i in inputs}
    every_family = tuple(dict.fromkeys(OPS[name].family for name in every_op))
    every_by_family, vocabulary = _by_family(every_op), _vocabulary(ops)
    aim_vocabulary = _vocabulary(aim.ops) if aim else None
    families = tuple(f for f in every_family for _ in range(_WEIGHT.get(f, 1)))
    # A misaligned choice falls back to the first (see Choice). The first value puts the
    # leaves first: the simplest case returns an input as it is. After it, the computing
    # families come first: a choice out of step starts a chain, not one more input.
    # Reading a sink, every family is as likely (the weights are for the leaves).
    later_families = tuple(sorted(families, key=lambda f: f in STRUCTURAL_FAMILIES))
    focus_families = tuple(sorted(every_family, key=lambda f: f in STRUCTURAL_FAMILIES))
    values: list[Value] = []
    read: set[str] = set()
    consumed: set[str] = set()  # read by a computing op: no longer a sink
    mutated: set[str] = set()  # no longer an input as drawn
    # The length first, not a "one more" draw before each value: a case the engine
    # mutates (it copies a span of one choice over another) reads the choices after the
    # copy out of step, and a choice that does not fit becomes 0 (see Choice): a 0
    # that stopped the program cut most mutated cases to one value. Shrinking still
    # ends at one value (the draw shrinks to 0), and an intermediate value goes away when
    # the value reading it reads an input instead (``Case.pruned`` drops it).
    length = min(max_values, 1 + draw(choice("program length", 0, 2 * max_values - 1)))
    for k in range(length):
        # Each value takes VALUE_CHOICES choices, padded: an op's attributes take more
        # or fewer, so when the shrinker put a simpler op in a value's place, every value
        # after it read its choices out of step and the shrink was rejected. A block of
        # fixed length keeps them in place (an op drawing more overruns it: 1 in 50). The
        # block is a span: after the program's length shrinks, the shrinker deletes the
        # value it no longer draws (or any value) whole.
        with draw.span(_VALUE_SPAN):
            start = draw(_COUNT)
            # Output-directed: 7 times in 8 the value reads the deepest sink (a computed value
            # nothing reads yet), so drawn ops chain instead of feeding nothing. 0, where the
            # draw shrinks to, is a free choice among the inputs and every earlier value.
            sinks = _sinks(values, consumed)
            focus = f"v{sinks[-1]}" if sinks and draw(choice("read the deepest sink", 0, 7)) else None
            scope = _Scope(types, frozenset(read), frozenset(mutated))
            feeds = _Feeds(vocabulary, scope, banned, focus) if focus is not None else None
            if feeds is None or not feeds.any(computing=True):
                # Free, or nothing reads the sink: it stays an output candidate.
                focus, feeds = None, _Feeds(vocabulary, scope, banned)
                if not feeds.any():
                    break
            # Family first, then the op: a family's chance does not grow with its number of
            # ops, so the few special leaves (None, constants) are not drowned.
            family = _draw_stable(draw, "op family", focus_families if focus else later_families if k else families,
                                  _FedFamilies(feeds))
            op_name = _draw_stable(draw, "op", every_by_family[family], feeds)
            op_banned = banned.get(op_name, frozenset())
            # One choice in every value of an aiming case: below len(aim.ops) (and 0, where
            # it shrinks to) the value is not aimed, else it names the op aimed at.
            aimed_at = draw(choice("coverage: op aimed at, if any", 0, 2 * len(aim.ops) - 1)) - len(aim.ops) if aim else -1
            if aim and aimed_at >= 0:
                on_focus = focus if getattr(types.get(focus), "dtype", None) == aim.dtype else None
                aimed = _Feeds(aim_vocabulary, scope, aim.banned, on_focus)
                if not aimed.any() and on_focus:
                    on_focus, aimed = None, _Feeds(aim_vocabulary, scope, aim.banned)
                if aimed.any():
                    op_name = _pick(aim.ops, aimed, aimed_at)
                    op_banned, focus = aim.banned[op_name], on_focus
            op = OPS[op_name]
            choices = _operand_choices(op, scope, banned=op_banned, focus=focus if op.arity else None)
            operands = _draw_stable(draw, "operands", _operand_candidates(op.arity, names), choices)
            operand_types = tuple(types[n] for n in operands)
            attrs = op.draw_attrs(draw, operand_types) if op.draw_attrs else {}
            out = value_type(op_name, attrs, operand_types)
            types[f"v{k}"] = out
            read.update(operands)
            if op.family not in STRUCTURAL_FAMILIES:  # a view or a shape int of it leaves it a result
                consumed.update(operands)
            if op.mutates == "operand":
                types[operands[0]] = out  # later values read the input as mutated
                mutated.add(operands[0])
            dtype, shape, pytype = recorded(out)
            values.append(Value(op_name, operands, tuple(sorted(attrs.items())), dtype, shape, pytype))
            draw(_PadFrom(start, VALUE_CHOICES))
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
    input_trees: bool = False,
    dynamic: bool = False,
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
    (``harness.calibration``): ``container:<kind>``, ``op:<name>``, or ``op:<name>@<dtype>``
    (the op on a first operand of that dtype);
    ``input_trees=True`` also draws how ``forward`` takes its inputs: in trees (tuples,
    lists, dicts, a tuple of pairs like a KV cache), beside ``None`` and Python flags and
    numbers, positional or keyword (``parameter_trees``); it shrinks to flat tensor inputs;
    ``dynamic=True`` declares input dimensions dynamic where the program allows
    (the ops that read sizes, ``strategies.ops.sizes``, then compute on symbols; in a
    static case they compute on the sizes as Python ints)
    (``strategies.dynamic.dynamic_specs``): the case is compiled once and run at several
    sizes; it shrinks to fewer dynamic dimensions and to the static case.
    """
    given_dtypes = dtypes
    dtypes = _dtype_names(dtypes)
    # A complex dtype named outright is asked for; include_complex widens the default pool.
    named_complex = dtypes is not None and not isinstance(dtypes, str) and any(d in COMPLEX for d in dtypes)
    dtype_pool = _check_choice("dtypes", dtypes, (*ALL_DTYPES, *COMPLEX) if include_complex or named_complex
                               else ALL_DTYPES)
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
    _check_int("max_inputs", max_inputs, 1, 8)
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
    case_families = tuple(dict.fromkeys(OPS[n].family for n in op_names))
    aim_ops = tuple(n for n in op_names if OPS[n].arity and not OPS[n].takes_tuples
                    and OPS[n].family not in STRUCTURAL_FAMILIES)
    small_shapes, large_shapes_ = shapes(max_rank=max_rank, max_side=max_side), large_shapes(max_rank=max_rank)
    size_classes = _check_choice("sizes", sizes, SIZE_CLASSES)

    @st.composite
    def draw_case(draw: Callable) -> Case:
        draw = _direct(draw)
        seed = draw(choice("seed", 0, 2**31 - 1))
        # The size class: small three times in four, and where the draw shrinks to.
        large = "large" in size_classes and ("small" not in size_classes or draw(choice("size class", 0, 3)) == 3)
        # Swarm testing (Groce et al., ISSTA 2012): each case leaves out a random part of
        # the op families and of the input dtypes, so that the ones it keeps meet more often than
        # a draw over everything lets them (an int16 clamp, a where over two dtypes).
        # 0, where each mask shrinks to, leaves nothing out; an op keeps its choice index.
        families_out = draw(choice("swarm: op families left out", 0, 2 ** len(case_families) - 1))
        dtypes_out = draw(choice("swarm: input dtypes left out", 0, 2 ** len(dtype_pool) - 1))
        left_out = {f for i, f in enumerate(case_families) if families_out >> i & 1}
        case_ops = tuple(n for n in op_names if n == "input" or OPS[n].family not in left_out)
        case_dtypes = tuple(d for i, d in enumerate(dtype_pool) if not dtypes_out >> i & 1) or dtype_pool
        # Coverage-directed: most cases aim at one dtype, the first input's, and half their
        # values apply an op drawn uniformly among all (the swarm aside) to a value of it,
        # so that a rare op x dtype pair (cumsum of an int32, sign of a bool) is met as
        # often as a common one. 0, where the draw shrinks to, aims at nothing. The aim
        # follows the first input's drawn dtype, so that dtype still shrinks on its own.
        aiming = draw(choice("coverage: aim at the first input's dtype", 0, len(dtype_pool))) > 0
        inputs = draw(_inputs(dtype_pool, case_dtypes, large_shapes_ if large else small_shapes, max_inputs))
        aim = _aims(aim_ops, banned, inputs[0].dtype) if aiming and aim_ops else None
        values = draw(_program(inputs, case_ops, max_ops, names, banned, op_names, aim))
        value_kinds = tuple(v.pytype if v.dtype is None else f"{v.dtype}{v.shape}" for v in values)
        structural = tuple(k for k, v in enumerate(values) if OPS[v.op].family in STRUCTURAL_FAMILIES)
        consumed = {o for v in values if OPS[v.op].family not in STRUCTURAL_FAMILIES for o in v.operands}
        sinks = _sinks(values, consumed)
        if exportable is False:
            # At least one unregistered dict subclass, at the root (the simplest place).
            items = draw(st.lists(output_trees(len(values), containers=kinds, max_depth=max(0, max_depth - 1),
                                               max_leaves=max_leaves, value_kinds=value_kinds, sinks=sinks,
                                       structural=structural), max_size=3))
            keys = _keys(draw, len(items))
            output: Tree = Container("plain_dict_subclass", tuple(items), keys)
        else:
            output = draw(output_trees(len(values), containers=kinds or ("tuple",), max_depth=max_depth,
                                       max_leaves=max_leaves, value_kinds=value_kinds, sinks=sinks,
                                       structural=structural))
        params = draw(parameter_trees(inputs)) if input_trees else ()
        case = Case(inputs=inputs, values=values, output=output, seed=seed, params=params)
        return draw(dynamic_specs(case)) if dynamic else case

    strategy = draw_case()
    arguments = {k: v for k, v in dict(
        dtypes=given_dtypes, include_complex=include_complex, containers=containers, op_families=op_families,
        ops=ops, max_ops=max_ops, max_depth=max_depth, max_leaves=max_leaves, max_inputs=max_inputs, max_rank=max_rank,
        max_side=max_side, sizes=sizes,
        exportable=exportable, exclude=exclude, input_trees=input_trees, dynamic=dynamic).items()
        if v != _DEFAULTS[k]}
    return _Named(strategy, "cases(" + ", ".join(f"{k}={v!r}" for k, v in arguments.items()) + ")")


_DEFAULTS = dict(dtypes=None, include_complex=False, containers=None, op_families=None, ops=None, max_ops=8, max_depth=4, max_leaves=6,
                 max_inputs=3, max_rank=4, max_side=3, sizes=None, exportable=None, exclude=None, input_trees=False,
                 dynamic=False)

#: Constants an input tree or a parameter may hold: what real calls pass beside tensors
#: (``attention_mask=None``, ``return_dict=True``, ``use_cache=False``, a scale, a count).
CONSTANTS: tuple[None | bool | int | float, ...] = (None, True, False, 0.5, 2)


def _constant(draw: Callable, purpose: str) -> Const:
    return Const(CONSTANTS[draw(choice(purpose, 0, len(CONSTANTS) - 1))])


@st.composite
def parameter_trees(draw: Callable, inputs: Sequence[Input]) -> tuple[Param, ...]:
    """How ``forward`` takes ``inputs``: ``()`` (each a parameter of its own, where the
    draw shrinks to), or parameters whose arguments are trees holding every input once, in
    order (``t0=(x0, (x1, x2))``, ``t1={"a": x0, "b": None}``, a tuple of ``(k, v)`` pairs),
    and constant parameters beside them (``k0=None``, ``k1=True``)."""
    draw = _direct(draw)
    if not draw(choice("inputs: as trees", 0, 1)):
        return ()
    names, params, position = [i.name for i in inputs], [], 0
    while position < len(names):
        size = min(len(names) - position, 1 + draw(choice("inputs: tensors in this tree", 0, 2)))
        leaves: list[ParamTree] = list(names[position:position + size])
        position += size
        kind = INPUT_TREE_KINDS[draw(choice("inputs: tree kind", 0, len(INPUT_TREE_KINDS) - 1))]
        if draw(choice("inputs: a constant in the tree", 0, 1)):
            leaves.insert(draw(choice("inputs: where the constant goes", 0, len(leaves))),
                          _constant(draw, "inputs: tree constant"))
        if len(leaves) >= 2 and draw(choice("inputs: pairs, as a cache of (k, v)", 0, 1)):
            leaves = [ParamNode("tuple", tuple(leaves[i:i + 2])) for i in range(0, len(leaves), 2)]
        keys = tuple("abcdefgh"[:len(leaves)]) if kind == "dict" else ()
        # A lone tensor in a container shrinks to staying in it: the tree is what is drawn here.
        tree = leaves[0] if len(leaves) == 1 and isinstance(leaves[0], str) and \
            draw(choice("inputs: a lone tensor on its own", 0, 1)) else ParamNode(kind, tuple(leaves), keys)
        params.append(Param(f"t{len(params)}", tree, bool(draw(choice("inputs: tree passed by keyword", 0, 1)))))
    for k in range(draw(choice("inputs: constant parameters", 0, 2))):
        params.append(Param(f"k{k}", _constant(draw, "inputs: constant parameter"),
                            bool(draw(choice("inputs: constant passed by keyword", 0, 1)))))
    # Positional parameters first: a keyword one may only be followed by keyword ones.
    return tuple(sorted(params, key=lambda p: p.keyword))


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
