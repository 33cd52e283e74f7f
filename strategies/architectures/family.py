"""What every family of architectures provides: how to draw its config and flags, how
to write it as Python (the one source the harness runs and the reproducer prints), and
the depth and width its precision bound needs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from .spec import Architecture

__all__ = ["Family", "literal", "tensor_literal"]

#: (config, flags) of one draw.
Drawn = tuple[dict[str, Any], dict[str, Any]]


@dataclass(frozen=True)
class Family:
    name: str
    #: draw(draw_fn) -> (config, flags); builds a valid model directly (no filtering).
    draw: Callable[[st.DrawFn], Drawn]
    #: The model and its inputs as Python: (imports, statements that set ``model``,
    #: ``args`` and ``kwargs``).
    source: Callable[[Architecture], tuple[list[str], list[str]]]
    #: Layers on the longest path from an input to an output (time steps for a recurrence).
    depth: Callable[[Architecture], int]
    #: The longest contraction on that path (a matmul's k, a softmax's length).
    width: Callable[[Architecture], int]
    #: The flags drawn that change the output tree (for the self-tests' bounded run).
    output_flags: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = ("float32", "float16", "bfloat16")


def literal(mapping: dict[str, Any]) -> str:
    """``a=1, b='x'``: keyword arguments as they read in a call."""
    return ", ".join(f"{k}={v!r}" for k, v in mapping.items())


def tensor_literal(rows: list[list[bool]] | list[list[int]]) -> str:
    return f"torch.tensor({rows!r})"


def padding_rows(batch: int, length: int, *, pad: bool) -> list[list[bool]]:
    """A key padding mask, True where padded: row ``b`` pads its last ``b`` positions,
    and never the first, so every query keeps a key to attend to (no all-masked row,
    whose softmax is NaN)."""
    return [[pad and i >= length - min(b, length - 1) for i in range(length)] for b in range(batch)]
