"""How the generator draws: its choices directly, its parts in spans of their own, and
blocks of a fixed number of choices.

A case draws over a hundred choices and a few dozen spans. Drawn as Hypothesis
strategies, each pays for checks that cost more than the choice it makes; drawn here,
they record the same choices and spans, so the shrinker sees what it would see of
``st.composite`` functions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from . import engine
from .choices import DIRECT

__all__ = ["Named", "Span", "choices_so_far", "direct_draws", "pad_to", "padded", "spanned"]


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


_COUNT = _PadFrom(None, 0)
_DIRECT = (*DIRECT, _PadFrom)


def direct_draws(draw: Callable) -> Callable:
    """``draw`` (a composite's), with the choices and spans of the generator drawn
    directly: the same choices as ``draw(strategy)`` records, without the checks a
    strategy draw pays for. A ``Span`` keeps its span (the shrinker deletes or lifts it
    whole); a choice or padding is drawn with none (see ``Choice``). Anything else goes
    to ``draw``."""
    data = draw.__self__

    def direct(strategy: st.SearchStrategy) -> Any:
        kind = type(strategy)
        if kind is Span:
            with engine.span(data, strategy.label):
                return strategy.run(direct)
        if kind in _DIRECT:
            return strategy.do_draw(data)
        return draw(strategy)

    direct.span = functools.partial(engine.span, data)  # type: ignore[attr-defined]
    return direct


class Span(st.SearchStrategy):
    """What ``st.composite`` makes of a function (a draw in a span of its own), without
    a new strategy's first-draw checks each time one is made: nodes of the output tree
    and programs are made for every case drawn. See ``spanned``."""

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
        return self.run(direct_draws(data.draw))


def spanned(function: Callable) -> Callable[..., Span]:
    """``function(draw, *args)`` as a strategy maker, like ``st.composite`` (positional
    arguments only), drawn in a span labelled with its name.

    The shrinker orders its passes by label, so a spanned function keeps its name: a
    renamed one may shrink the same case to another minimum."""
    label = engine.label(f"roundtrip span: {function.__qualname__}")

    @functools.wraps(function)
    def make(*args: Any) -> Span:
        return Span(label, function, args)

    return make


def choices_so_far(draw: Callable) -> int:
    """How many choices the case has drawn, for ``pad_to``."""
    return draw(_COUNT)


def pad_to(draw: Callable, start: int, total: int) -> None:
    """Choices that mean nothing, until ``total`` have been drawn since ``start``
    (``choices_so_far``); none if more already have."""
    draw(_PadFrom(start, total))


def padded(draw: Callable, total: int, function: Callable[[Callable], Any]) -> Any:
    """``function(draw)``, its choices padded up to ``total``: a block of fixed length,
    so that the shrinker's change of what the block draws (another op, another model
    family) leaves every choice after it in its place."""
    start = choices_so_far(draw)
    out = function(draw)
    drawn = choices_so_far(draw) - start
    if drawn > total:
        raise ValueError(f"{function!r} drew {drawn} choices, more than the block's {total}")
    pad_to(draw, start, total)
    return out


class Named(st.SearchStrategy):
    """A strategy whose repr is the call that built it, as Hypothesis's own are."""

    def __init__(self, inner: st.SearchStrategy, name: str) -> None:
        super().__init__()
        self._inner = inner
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def do_draw(self, data: Any) -> Any:
        return data.draw(self._inner)
