"""What happened to one case on one backend, typed, and its crossing of the JSON boundary
(the worker's pipe, reports)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .difference import Difference, KeyPath
from .signature import Outcome, Signature, Trigger, masked_message
from .subjects import Subject

__all__ = ["Verdict"]


@dataclass
class Verdict:
    """What happened to one case on one backend."""

    backend: str
    outcome: Outcome
    #: Where it stopped (``Stage``, or an adapter's own name).
    stage: str = ""
    error_type: str = ""
    message: str = ""
    traceback: str = ""
    differences: list[Difference] = field(default_factory=list)
    #: Documented structure changes seen on the way (e.g. a flat tuple re-assembled).
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: The op that computed the first differing leaf (mismatches), for the signature; for
    #: a process that died or hung, what the case ran (``SubjectKind.trigger``).
    trigger: Trigger = Trigger()
    #: A dynamic case: the size it stopped at (``strategies.dynamic.size_roles``;
    #: ``dynamic``: compiling it); empty for a static case.
    size_role: str = ""
    #: The earliest value on the way to that leaf that differs on its own (the root
    #: cause in a program), as {"op", "value": "v3 = sum(v1)", "difference": Difference}.
    root: dict[str, Any] = field(default_factory=dict)
    #: A dynamic case: each size it ran at, in order, as {"role", "sizes", "outcome"}
    #: (``strategies.dynamic.size_roles``); the last is where it stopped.
    sizes: list[dict[str, Any]] = field(default_factory=list)
    #: Seconds per part of the pipeline in the process that ran it: materialize, eager,
    #: the frontend's stages (``CompileContext.timings``), judge, and root-cause (the
    #: probes a mismatch compiles to name its first differing value). Never in the signature.
    timings: dict[str, float] = field(default_factory=dict)
    #: (case, options, path) a mismatch's root-cause probes will start from, until
    #: ``_probe`` runs them: in the process only, never recorded.
    probe_with: tuple[Subject, dict[str, Any], KeyPath] | None = field(default=None, repr=False, compare=False)

    # -- the JSON boundary: a verdict crosses the worker's pipe and lands in reports -------

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("probe_with", "size_role")}
        data.update(outcome=str(self.outcome), stage=self.staged, trigger=str(self.trigger),
                    differences=[d.to_dict() for d in self.differences],
                    root={**self.root, "difference": self.root["difference"].to_dict()} if self.root else {})
        data["leaf_op"] = data.pop("trigger")  # the key recorded reports have always used
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        data = dict(data)
        stage, _, role = data.pop("stage", "").partition("@")
        root = data.pop("root", {}) or {}
        return cls(**{k: v for k, v in data.items() if k not in ("leaf_op", "differences", "outcome")},
                   outcome=Outcome.read(data["outcome"]), stage=stage, size_role=role,
                   trigger=Trigger.from_text(data.get("leaf_op", "")),
                   differences=[Difference.from_dict(d) for d in data.get("differences", [])],
                   root={**root, "difference": Difference.from_dict(root["difference"])} if root else {})

    @property
    def staged(self) -> str:
        """The stage and its size role as reports write them (``judge@max``)."""
        return f"{self.stage}@{self.size_role}" if self.size_role else self.stage

    def headline(self) -> str:
        if self.differences:  # a mismatch, or lost mutations a frontend documents (unsupported)
            d = self.differences[0]
            return f"{d.where or '<output>'}: {d.kind} expected {d.expected}, got {d.actual}"
        return f"{self.error_type}: {self.message.splitlines()[0] if self.message else ''}".strip()

    def as_signature(self) -> Signature:
        """The signature: of a comparison, its first difference (the root cause's, where a
        probe found one) whatever the outcome (lost mutations a frontend documents that it
        drops are ``unsupported``, and still differences); else the masked error."""
        common = dict(backend=self.backend, stage=self.stage, outcome=self.outcome, size_role=self.size_role,
                      trigger=self.trigger, notes=tuple(self.notes),
                      only_lost_mutations=bool(self.differences) and all(d.kind == "mutation_lost"
                                                                         for d in self.differences))
        if self.outcome == Outcome.MISMATCH or self.differences:
            first = self.root.get("difference") or (self.differences[0] if self.differences
                                                    else Difference((), "?", "", ""))
            return Signature(difference=first.named(), **common)
        return Signature(raised=self.error_type, said=masked_message(self.message), **common)

    def signature(self) -> str:
        """The signature's text (``Signature.text``): one string per distinct bug."""
        return self.as_signature().text
