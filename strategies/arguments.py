"""The checks of the strategies' arguments: a bad one raises ``InvalidArgument`` naming
the argument and its value, as Hypothesis's own strategies do."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from hypothesis.errors import InvalidArgument

__all__ = ["checked_int", "checked_names", "dtype_names"]


def checked_names(name: str, given: Sequence[str] | None, allowed: Sequence[str]) -> tuple[str, ...]:
    """``given`` (default: all of ``allowed``) in ``allowed``'s order."""
    if given is None:
        return tuple(allowed)
    if isinstance(given, str) or not given:
        raise InvalidArgument(f"{name}={given!r} must be a non-empty sequence of names from {list(allowed)}")
    unknown = [g for g in given if g not in allowed]
    if unknown:
        raise InvalidArgument(f"{name}={list(given)!r} has unknown names {unknown}; choose from {list(allowed)}")
    # Keep the canonical order so the simplest choice stays first for shrinking.
    return tuple(a for a in allowed if a in given)


def dtype_names(given: Any) -> Any:
    """``torch.float16`` as ``"float16"``: dtypes may be given as torch's or by name."""
    if given is None or isinstance(given, str):
        return given
    return [str(d).removeprefix("torch.") if isinstance(d, torch.dtype) else d for d in given]


def checked_int(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidArgument(f"{name}={value!r} must be an integer in [{low}, {high}]")
    return value
