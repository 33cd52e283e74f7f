"""Derandomized draws that are the same in every process."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = ["no_local_constants"]


@contextlib.contextmanager
def no_local_constants() -> Iterator[None]:
    """Hypothesis mixes in integer constants it harvests from every project module the
    process has imported (providers._get_local_constants), so derandomized draws differ
    between a process that ran other tests first and one that did not. Without them the
    draws are the same in every process."""
    from hypothesis.internal.conjecture import providers

    saved = providers._get_local_constants
    providers._get_local_constants = lambda: providers.Constants()
    try:
        yield
    finally:
        providers._get_local_constants = saved
