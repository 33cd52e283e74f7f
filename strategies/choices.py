"""The choices the generator draws directly: the same choices as ``st.integers``,
``st.sampled_from`` and ``st.booleans``, at a fraction of a strategy draw's cost.

The generator draws about a hundred choices a case, an op's attributes among them, and
a Hypothesis strategy's draw (a span, its checks, a lazy strategy unwrapped) cost more
than the choice it makes. The strategies here are drawn directly (``DIRECT``:
``strategies.cases`` draws them without a span); drawn as strategies, they are ordinary
ones. ``tests/test_strategies.py`` checks that they draw what their namesakes draw.
"""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from .engine import integer_choice, label

__all__ = ["DIRECT", "Boolean", "Choice", "Sampled", "booleans", "choice", "integers", "sampled"]


class Choice(st.SearchStrategy):
    """An integer in ``[low, high]``, named for what it decides; it shrinks to ``low``,
    as ``st.integers`` does (and, for a range of at most 128, draws the same choice).

    Drawn directly, a choice is one node and no span: a span per choice cost a twentieth
    of a draw and served only the engine's mutations, which copied the choices of one
    span over another of the same label (a purpose's label kept a seed from landing on
    an op index). The suite draws without them (``strategies/engine.py``). Drawn as a
    strategy (``draw(strategy)`` of Hypothesis's own), it has the label of its purpose."""

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
