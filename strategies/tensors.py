"""What a tensor input is drawn as: its dtype and its shape, in two size classes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from .arguments import checked_int, checked_names
from .choices import choice
from .drawing import spanned
from .ops import COMPLEX, FLOATS, INTS

__all__ = ["ALL_DTYPES", "EVERY_DTYPE", "LARGE_SIDES", "MAX_NUMEL", "SIZE_CLASSES", "dtypes", "large_shapes", "shapes"]

#: float32 first: a dtype shrinks towards the front of this list.
ALL_DTYPES = ("float32", *(d for d in FLOATS if d != "float32"), *INTS, "bool")
#: ``ALL_DTYPES`` and the complex ones, which a case draws only when asked to.
EVERY_DTYPE = (*ALL_DTYPES, *COMPLEX)


def dtypes(*, allowed: Sequence[str] | None = None, include_complex: bool = False) -> st.SearchStrategy[str]:
    """Names of torch dtypes; shrinks to float32."""
    return st.sampled_from(checked_names("dtypes", allowed, EVERY_DTYPE if include_complex else ALL_DTYPES))


def shapes(*, max_rank: int = 4, max_side: int = 3, allow_empty: bool = True) -> st.SearchStrategy[tuple[int, ...]]:
    """Small shapes, 0-d included; sides shrink to 1, with 0-size dims as an option."""
    checked_int("max_rank", max_rank, 0, 6)
    checked_int("max_side", max_side, 1, 8)
    return _shape(("small", max_rank, max_side, allow_empty))


def large_shapes(*, max_rank: int = 4) -> st.SearchStrategy[tuple[int, ...]]:
    """Shapes of the ``large`` size class: sides from ``LARGE_SIDES`` (a 0-size dim one time
    in 19), at most ``MAX_NUMEL`` elements; each side shrinks to 1.

    A side that would pass the bound is the largest one that fits, so every drawn index
    is kept (the shrinker sees a stable choice) and a reduction sees 8 to 4096 elements
    along a dim or over all of it."""
    checked_int("max_rank", max_rank, 0, 6)
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
@spanned
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
