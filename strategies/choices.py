"""The choices the generator draws directly: the same choices as ``st.integers``,
``st.sampled_from`` and ``st.booleans``, at a fraction of a strategy draw's cost.

The generator draws about a hundred choices a case, an op's attributes among them, and
a Hypothesis strategy's draw (a span, its checks, a lazy strategy unwrapped) cost more
than the choice it makes. The strategies here are drawn directly (``DIRECT``:
``strategies.drawing`` draws them without a span); drawn as strategies, they are ordinary
ones. ``tests/test_strategies.py`` checks that they draw what their namesakes draw.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Collection, Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from .engine import integer_choice, label

__all__ = ["DIRECT", "Boolean", "Choice", "Sampled", "booleans", "choice", "draw_stable", "integers", "pick", "sampled"]


class Choice(st.SearchStrategy):
    """An integer in ``[low, high]``, named for what it decides; it shrinks to ``low``,
    as ``st.integers`` does (and, for a range of at most 128, draws the same choice).

    Drawn directly, a choice is one node and no span: a span per choice would serve only
    the engine's mutations, which copy the choices of one span over another of the same
    label, and the suite draws without them (``strategies/engine.py``). Drawn as a
    strategy (``draw(strategy)`` of Hypothesis's own), it has the label of its purpose,
    so that a mutation copies a seed only over a seed, never over an op index."""

    def __init__(self, purpose: str, low: int, high: int, *, unused: bool = False) -> None:
        super().__init__()
        self._purpose, self._low, self._high, self._unused = purpose, low, high, unused

    def calc_label(self) -> int:
        return label(f"roundtrip choice: {self._purpose}")

    def __repr__(self) -> str:
        return f"choice({self._purpose!r}, {self._low}, {self._high}{', unused=True' if self._unused else ''})"

    def do_draw(self, data: Any) -> int:
        # An unused choice (a side past the rank, padding) keeps its place in the case
        # but is forced to ``low``: the shrinker has nothing to spend its budget on
        # (500 shrinks) there, and a mutation cannot copy anything into it.
        return integer_choice(data, self._low, self._high, self._low if self._unused else None)


@functools.cache
def choice(purpose: str, low: int, high: int, *, unused: bool = False) -> Choice:
    return Choice(purpose, low, high, unused=unused)


def integers(low: int, high: int) -> st.SearchStrategy[int]:
    """``st.integers(low, high)``'s choice, for an op's attribute."""
    if high - low > 127:  # st.integers weights the bounds of a wider range: its own draw
        return st.integers(low, high)
    return choice("op attribute", low, high)


class Sampled(st.SearchStrategy):
    """``st.sampled_from(values)``'s choice: an index, none for one value."""

    def __init__(self, values: tuple) -> None:
        super().__init__()
        self._values = values

    def __repr__(self) -> str:
        return f"sampled({self._values!r})"

    def do_draw(self, data: Any) -> Any:
        values = self._values
        if len(values) == 1:  # st.sampled_from of one value is st.just: no choice
            return values[0]
        if not values:
            raise InvalidArgument("Cannot sample from a length-zero sequence.")
        return values[integer_choice(data, 0, len(values) - 1)]


@functools.lru_cache(maxsize=1 << 12)
def _sampled(values: tuple) -> Sampled:
    return Sampled(values)


def sampled(values: Any) -> Sampled:
    """``st.sampled_from(values)``'s choice, made once per distinct values (an op's
    attributes are drawn for most values of a program)."""
    return _sampled(tuple(values))


class Boolean(st.SearchStrategy):
    """``st.booleans()``'s choice."""

    def __repr__(self) -> str:
        return "booleans()"

    def do_draw(self, data: Any) -> bool:
        return data.draw_boolean()


_BOOLEAN = Boolean()


def booleans() -> Boolean:
    return _BOOLEAN


#: Strategies drawn directly, without a span.
DIRECT = (Choice, Sampled, Boolean)


def draw_stable(draw: Callable, purpose: str, every: Sequence[Any], allowed: Collection[Any]) -> Any:
    """A choice among ``allowed`` (a subset of ``every``), about uniform, that shrinks stably.

    ``sampled_from(allowed)`` indexes a list that depends on the inputs (and draws
    nothing for one item), so where the shrinker simplifies or deletes an input, the same
    choices would name another op or operands and the shrink be rejected: cases would keep
    unused inputs and float16 where float32 would do. The choice here indexes ``every``, which
    does not depend on the inputs; only a miss falls back to an item of ``allowed``
    (``pick``). One choice over a range that does not depend on ``allowed``, drawn
    whether or not it hits: a value's choices keep their places.
    """
    return pick(every, allowed, draw(choice(purpose, 0, len(every) - 1)))


def pick(every: Sequence[Any], allowed: Collection[Any], index: int) -> Any:
    """``draw_stable``'s item for its choice ``index``: ``every[index]`` where allowed.

    On a miss: where ``allowed`` is a list of the items (operand tuples, dtypes), the
    item ``index`` names among them; where it is a question asked one item at a time
    (``strategies.operands.Feeds``: is this op fed?), the first allowed item in an order
    drawn from ``index``: the first allowed item of a random order is uniform among the
    allowed, and asking a few items costs less than asking all of them (every op of the
    vocabulary, most not fed). 0, where the choice shrinks to, asks in ``every``'s order:
    the simplest allowed item."""
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
