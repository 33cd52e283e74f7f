"""The same draws in every process, whatever else it imported.

Hypothesis mixes into its draws (one in twenty) integer, float and string constants it
harvests from every module of the project the process has imported
(``providers._get_local_constants``). A derandomised ``ci`` run then draws other cases
after an edit of any imported module (one more known row, a changed message), and a
process that ran other tests first draws other cases than a fresh one. The suite turns
that off for the whole process: its cases depend on the strategy and the seed alone.
"""

from __future__ import annotations

__all__ = ["ignore_local_constants"]


def ignore_local_constants() -> None:
    """From now on, no constants of the project's own modules in Hypothesis's draws."""
    from hypothesis.internal.conjecture import providers

    providers._get_local_constants = providers.Constants
