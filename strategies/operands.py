"""Which operands an op may read at a step of a program, asked lazily and cached: the
questions ``strategies.programs`` asks of every op at every value it draws."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from typing import NamedTuple

from .features import MIXED
from .ops import OPS, STRUCTURAL_FAMILIES, Op, TensorType, TupleType, Type

__all__ = ["FedFamilies", "Feeds", "Scope", "Vocabulary", "by_family", "operand_candidates", "operand_choices",
           "vocabulary_of"]


@functools.lru_cache(maxsize=256)
def operand_candidates(arity: int, names: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(itertools.product(names, repeat=arity))


def _operand_names(op: Op, scope: Scope) -> tuple[str, ...]:
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


def operand_choices(op: Op, scope: Scope, *, first_only: bool = False, banned: frozenset[str] = frozenset(),
                     focus: str | None = None) -> list[tuple[str, ...]]:
    """The operand tuples on which ``op`` is defined; with ``first_only``, at most one
    (``Feeds`` asks so of ops that mutate; of the others it asks by types).

    ``scope.read`` holds the names read so far: an op that mutates its first operand
    takes an input no value has read (see ``strategies.ops.state``).
    ``banned`` are dtypes the first operand may not have (``cases(exclude=...)``); with
    ``MIXED`` among them, the tensor operands share one dtype (``mixed:<op>``).
    ``focus``, when given, is a name every tuple must contain."""
    names, types = _operand_names(op, scope), scope.types
    positions = [names] * op.arity
    if op.mutates == "operand":
        positions[0] = tuple(n for n in names if n.startswith("x") and n not in scope.read)
    if banned and positions:
        positions[0] = tuple(n for n in positions[0] if getattr(types[n], "dtype", None) not in banned)
    found = []
    one_dtype = MIXED in banned
    for combo in _combos(positions, focus):
        if op.mutates == "operand" and combo[0] in combo[1:]:
            continue
        if one_dtype and _mixed(tuple(types[n] for n in combo)):
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


def _mixed(operand_types: tuple[Type, ...]) -> bool:
    """Tensor operands of two dtypes or more (``strategies.features``' ``mixed:<op>``)."""
    return len({t.dtype for t in operand_types if isinstance(t, TensorType)}) > 1


# Each step of a program asks every op about every operand tuple again; only the tuples
# with the newest value are new. Types are frozen values, so the answers are cached.
@functools.lru_cache(maxsize=1 << 18)
def _accepted(op_name: str, operand_types: tuple[Type, ...]) -> bool:
    return OPS[op_name].accepts(*operand_types)


class Scope:
    """What one value of a program may read (the types of the inputs and values so far,
    the names read and mutated so far), and what its questions found, kept while the
    value is drawn: every ``Feeds`` of the value (free, on the sink, aimed) shares them."""

    def __init__(self, types: dict[str, Type], read: frozenset[str], mutated: frozenset[str]) -> None:
        self.types, self.read, self.mutated = types, read, mutated
        self.names_by_kind: dict[int, tuple[str, ...]] = {}  # see _operand_names
        #: (kind, focus): one name per type among the names ops of that kind (_KINDS) may read.
        self.pools: dict[tuple[int, str | None], tuple[str, ...]] = {}
        #: (kind, banned, focus): the pool's types as a first and as a later operand.
        self.typed: dict[tuple, tuple[tuple[Type, ...], tuple[Type, ...]]] = {}


class Feeds:
    """Which of ``ops`` some operands (inputs or earlier values) can feed; with ``focus``,
    which can read that value, and the leaves that read nothing (a None, a constant, a
    parameter: the newest sink stays the one to read, where a tensor created from
    nothing would be a new sink).

    Asked one op at a time, as a choice needs it (``name in feeds``, ``feeds.family(f)``):
    a choice usually hits at its first index, so a value asks about a few ops instead of
    every op of the vocabulary (most of which no operand feeds). Answers are kept for
    the value being drawn; ``_accepted`` keeps them across values and cases.
    """

    def __init__(self, ops: Vocabulary, scope: Scope, banned: dict[str, frozenset[str]],
                 focus: str | None = None) -> None:
        self._ops, self.by_family, self._scope = ops.names, ops.by_family, scope
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
            return bool(operand_choices(op, scope, first_only=True, banned=banned, focus=focus))
        # What operand_choices(first_only=True) answers, asked of types, not names (the
        # answer depends on the types alone), each kind's found once per banned dtypes.
        typed = scope.typed.get((kind, banned, focus))
        if typed is None:
            others = tuple(types[n] for n in pool)  # distinct but for the focus: a repeat asks twice
            firsts = tuple(t for t in others if not banned or getattr(t, "dtype", None) not in banned)
            typed = scope.typed[kind, banned, focus] = firsts, others
        firsts, others = typed
        name, arity = op.name, op.arity
        one_dtype = MIXED in banned

        def fed(combo: tuple[Type, ...]) -> bool:
            return not (one_dtype and _mixed(combo)) and _accepted(name, combo)

        if focus is None:
            return any(fed(combo) for combo in itertools.product(firsts, *(others,) * (arity - 1)))
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
            if any(fed(combo) for combo in itertools.product(*positions)):
                return True
        return False

    def any(self, *, computing: bool = False) -> bool:
        """Whether some op is fed (with ``computing``, one that reads an operand)."""
        return any(name in self for names in self.by_family.values() for name in names
                   if not computing or OPS[name].arity)

    def family(self, family: str) -> bool:
        """Whether some op of ``family`` is fed."""
        answer = self._families.get(family)
        if answer is None:
            answer = self._families[family] = any(name in self for name in self.by_family.get(family, ()))
        return answer


class FedFamilies:
    """The families with an op ``feeds`` feeds, as ``draw_stable`` asks about them."""

    def __init__(self, feeds: Feeds) -> None:
        self._feeds = feeds

    def __contains__(self, family: object) -> bool:
        return self._feeds.family(family)  # type: ignore[arg-type]


_NOTHING: frozenset[str] = frozenset()
_KIND_NUMBERS: dict[tuple[bool, ...], int] = {}
#: Ops that read the same names (``_operand_names``) share a number.
_KINDS = {name: _KIND_NUMBERS.setdefault((op.takes_tuples, op.complex_ok, op.nonfinite_ok, op.inputs_only),
                                         len(_KIND_NUMBERS)) for name, op in OPS.items()}


class Vocabulary(NamedTuple):
    """The ops a ``Feeds`` asks about: as a set, and by family (in their order)."""

    names: frozenset[str]
    by_family: dict[str, tuple[str, ...]]


# Once per program, not per question: a tuple of 140 names is hashed anew at each lookup.
@functools.lru_cache(maxsize=256)
def vocabulary_of(ops: tuple[str, ...]) -> Vocabulary:
    return Vocabulary(frozenset(ops), by_family(ops))


@functools.lru_cache(maxsize=256)
def by_family(ops: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for name in ops:
        grouped.setdefault(OPS[name].family, []).append(name)
    return {family: tuple(names) for family, names in grouped.items()}
