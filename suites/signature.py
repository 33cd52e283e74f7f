"""A verdict's signature: one per distinct bug, as data.

Written as ``backend/stage/outcome/what @op`` (in reports, the corpus's ``meta.json``
and the known table's patterns); ``Signature.parse`` is the one place that reads that
text back into its parts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["WRAPPER", "Signature"]

#: dynamo wraps an error raised inside a backend call: the inner error is the cause.
WRAPPER = "BackendCompilerFailed: "


@dataclass(frozen=True)
class Signature:
    backend: str
    stage: str
    outcome: str
    #: What failed: a mismatch's kind of difference (``dtype: torch.int64 -> torch.int32``,
    #: ``values: float64 NaN lost``), or a crash's error type and masked message.
    what: str
    #: The op of the differing leaf, or what a process that died ran (``cumsum on int32``).
    op: str = ""

    def __str__(self) -> str:
        return f"{self.backend}/{self.stage}/{self.outcome}/{self.what}" + (f" @{self.op}" if self.op else "")

    @classmethod
    def parse(cls, text: str) -> Signature:
        backend, stage, outcome, rest = text.split("/", 3)
        what, at, op = rest.rpartition(" @")
        return cls(backend, stage, outcome, what if at else rest, op if at else "")

    @property
    def wrapped(self) -> bool:
        """An error that dynamo wrapped (``BackendCompilerFailed``) around the real one."""
        return self.what.startswith(WRAPPER)

    def unwrapped(self, stage: str) -> Signature:
        """As if ``stage`` had raised the wrapped error itself."""
        return replace(self, stage=stage, outcome="crash", what=self.what.removeprefix(WRAPPER))

    @property
    def error_type(self) -> str:
        """A crash's error type (the inner one of a wrapper); empty for a mismatch."""
        if self.outcome == "mismatch" or ":" not in self.what:
            return ""
        return self.what.removeprefix(WRAPPER).split(":", 1)[0]

    @property
    def trigger(self) -> str:
        """The op alone (``cumsum`` of ``cumsum on int32 0-size``)."""
        return self.op.split(" on ")[0]
