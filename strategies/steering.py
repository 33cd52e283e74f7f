"""A run's steer: features drawn only in a floor share of the cases, learned as the run goes.

A frontend that rejects an op cleanly, or meets a bug already on file, tells the run
nothing new the second time: a case spent there is a case not compared. ``Steer`` holds
the features a run has learned to draw less (``container:<kind>``, ``op:<name>``, ``mixed:<name>``,
``output:repeated``...: ``strategies.features``, the names ``cases(exclude=...)`` takes) and why; ``cases(steer=...)``
leaves them out of every case but a floor share (``FREE_ONE_IN``) drawn freely, so that a
rejection, a known bug and an upstream fix stay visible. What to demote is the harness's
business (``harness.steering``): this layer only draws with it.

A steer changes while a run draws. Hypothesis replays a case's choices to shrink it, so a
steer is ``frozen`` before a failing case is shrunk: the replays draw what the failing
draw did. Its free share is where a case shrinks to: a shrunk case draws without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["FREE_ONE_IN", "Steer"]

#: One case in this many is drawn freely, whatever the steer holds (the floor share).
FREE_ONE_IN = 20


@dataclass
class Steer:
    """Features a run draws only in its free share, each with why (a row's id and the
    cases it explained), and whether the steer may still learn."""

    demoted: dict[str, dict[str, object]] = field(default_factory=dict)
    frozen: bool = False

    def demote(self, learned: dict[str, dict[str, object]]) -> None:
        """Draw ``learned``'s features (feature -> {"row", "cases"}) in the free share only;
        a frozen steer keeps what it had."""
        if not self.frozen:
            self.demoted.update(learned)

    def restore(self, features: set[str] | frozenset[str]) -> None:
        """Draw ``features`` freely again: a case of the free share holding them reached the
        judge, so what demoted them (a lesson of a few cases, a table) was wrong, or is
        fixed; a frozen steer keeps what it had."""
        if not self.frozen:
            for feature in features:
                self.demoted.pop(feature, None)

    def freeze(self) -> None:
        """From now on the steer draws as it does now (a failing case is being shrunk)."""
        self.frozen = True

    def __repr__(self) -> str:
        return f"Steer({len(self.demoted)} features demoted{', frozen' if self.frozen else ''})"
