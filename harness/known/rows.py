"""A row of the known table and how it matches a verdict: field by field.

A row is keyword-only fields, each compared with one part of the verdict's signature
(``harness.signature.Signature``); a field left at its default matches anything. Only a
frontend's error text is a regular expression (``message``); every other field is a
tuple of the values it accepts. A row of one cause that shows in two forms lists the
second in ``also``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Protocol

from strategies.ops import COMPUTES_NOTHING

from ..difference import Difference
from ..signature import Outcome, Signature

__all__ = ["Known", "When", "counted_outcome", "match", "passed_or_rejected_cleanly", "seen"]


class _Verdict(Protocol):
    """Anything with a signature: ``harness.verdict.Verdict``."""

    outcome: str

    def as_signature(self) -> Signature: ...


def seen(target: _Verdict | Signature) -> Signature:
    """What a row matches: a verdict's signature, or a recorded one (``Signature.from_text``)
    as it was seen (``Signature.as_seen``: a crash a row counted as unsupported is a crash)."""
    return (target if isinstance(target, Signature) else target.as_signature()).as_seen()


#: A crash's or a hang's signature has no difference: every field of this one is empty.
_NO_DIFFERENCE = Difference((), "", "", "")


@dataclass(frozen=True, kw_only=True)
class When:
    """What a verdict's signature must show, field by field; an empty field: anything."""

    #: The stage, without its size role (``import``, ``build``, ``judge``, ``compile-on-call``...).
    stages: tuple[str, ...] = ()
    #: A dynamic case only (True), a static one only (False), either (None).
    dynamic: bool | None = None
    #: The size roles of a dynamic case (``min``, ``max``, ``example``, ``interior``, ``one``, ``dynamic``).
    sizes: tuple[str, ...] = ()
    #: ``crash``, ``mismatch`` or ``hang``.
    outcome: str = ""
    #: A crash's error type (the inner error's, under dynamo's wrapper).
    errors: tuple[str, ...] = ()
    #: A regular expression searched in a crash's masked message: the frontend's own words.
    message: str = ""
    #: A mismatch's kind of difference (``values``, ``dtype``, ``shape``, ``arity``, ...).
    differences: tuple[str, ...] = ()
    #: In the state after the call (True), in the output (False), either (None).
    state: bool | None = None
    #: Eager's side: the dtype of a ``values`` or ``dtype`` difference, the type of a ``leaf_type``.
    expected: tuple[str, ...] = ()
    #: The frontend's side of a ``dtype``, ``leaf_type`` or ``container_type`` difference.
    got: tuple[str, ...] = ()
    #: The special class of a mismatch (``0-d``, ``NaN lost``...; ``""`` for none); None: any.
    special: tuple[str, ...] | None = None
    #: The op of the differing leaf, or a run of the ops a dead process or a user's model
    #: ran (``a+b``). A crash a generated case raised in process records no ops: this
    #: field does not tell those apart.
    ops: tuple[str, ...] = ()
    #: The ops a dead process ran are exactly one of ``ops`` (not a longer chain holding it).
    alone: bool = False
    #: A dead process had an empty tensor (True), had none (False), either (None).
    zero_size: bool | None = None
    #: A regular expression one of the verdict's notes (what the adapter saw) must match.
    note: str = ""
    #: The whole signature, exactly (an open corpus entry's row).
    signature: str = ""

    def fits(self, signature: Signature) -> bool:
        """Every field this form sets agrees with the signature (and its notes)."""
        if self.signature:
            return signature.text == self.signature
        if self.stages and signature.stage not in self.stages:
            return False
        if self.dynamic is not None and bool(signature.size_role) != self.dynamic:
            return False
        if self.sizes and signature.size_role not in self.sizes:
            return False
        if self.outcome and signature.outcome != self.outcome:
            return False
        if self.errors and signature.error_type not in self.errors:
            return False
        if self.message and (signature.outcome == Outcome.MISMATCH or not re.search(self.message, signature.message)):
            return False
        difference = signature.difference or _NO_DIFFERENCE
        if self.differences and difference.kind not in self.differences:
            return False
        if self.state is not None and difference.in_state != self.state:
            return False
        expected, got = difference.sides
        if self.expected and expected not in self.expected:
            return False
        if self.got and got not in self.got:
            return False
        if self.special is not None and signature.outcome == Outcome.MISMATCH and difference.special not in self.special:
            return False
        if self.ops and (signature.chain or signature.outcome != Outcome.CRASH) and not any(
                _runs(signature.chain, op.split("+"), self.alone) for op in self.ops):
            return False
        if self.zero_size is not None and signature.zero_size != self.zero_size:
            return False
        return not self.note or any(re.search(self.note, n) for n in signature.notes)

    def describe(self) -> str:
        """The fields this form sets, as a reader would write them (``stages=import; errors=ValueError``)."""
        parts = []
        for f in fields(When):
            value = getattr(self, f.name)
            if value != f.default:
                shown = "|".join(v or "none" for v in value) if isinstance(value, tuple) else value
                parts.append(f"{f.name}={shown}")
        return "; ".join(parts) or "anything"

    def named_ops(self) -> tuple[str, ...]:
        """The ops this form names (the hunt narrows its programs to them)."""
        return tuple(part for op in self.ops for part in op.split("+"))


def _runs(chain: tuple[str, ...], run: list[str], alone: bool) -> bool:
    """``run`` is ``chain`` (``alone``) or a stretch of it, read past the ops that compute
    nothing (``COMPUTES_NOTHING``) that ``run`` does not name itself."""
    chain = tuple(op for op in chain if op in run or op not in COMPUTES_NOTHING)
    if alone:
        return list(chain) == run
    return any(list(chain[i:i + len(run)]) == run for i in range(len(chain) - len(run) + 1))


@dataclass(frozen=True, kw_only=True)
class Known(When):
    """A row: what the frontend does not support, or a bug already on file.

    Rows of kind ``unsupported`` turn a clean compile-time rejection into the
    ``unsupported`` outcome, and so a mismatch made only of mutations not written back
    where the frontend documents that it drops them; ``bug`` rows are real bugs (crash,
    hang or mismatch) already on file; ``documented`` rows are results that differ from
    eager where the frontend documents that they do (counted apart, never reported
    upstream). An error dynamo wraps (``BackendCompilerFailed``) is matched as its inner
    error raised at the row's stages: a row names a root cause, never the wrapper.
    """

    id: str
    #: The backend specs (or the names their verdicts carry) the row is about; ``("*",)``: any.
    backends: tuple[str, ...]
    kind: str  # "unsupported" | "bug" | "documented"
    #: One paragraph: what fails, on what, and why where it is known.
    reason: str
    link: str = ""
    #: A second form of the same cause (another op of one converter, say).
    also: tuple[When, ...] = ()
    #: Why a ``bug`` row of a CPU frontend has no corpus entry; empty = it has one.
    no_entry: str = ""

    def matches(self, target: _Verdict | Signature) -> bool:
        """The row explains a verdict, or a recorded signature."""
        signature = seen(target)
        if self.backends != ("*",) and signature.backend not in self.backends:
            return False
        if self.kind == "unsupported" and signature.outcome != Outcome.CRASH and not (
                signature.outcome == Outcome.MISMATCH and signature.only_lost_mutations):
            return False
        forms: tuple[When, ...] = (self, *self.also)
        if signature.wrapped:  # as if the row's stage inside dynamo's backend call had raised the inner error
            signature = signature.unwrapped()
            forms = tuple(replace(form, stages=(), dynamic=form.dynamic or None) for form in forms)
        return any(form.fits(signature) for form in forms)

    def named_ops(self) -> tuple[str, ...]:
        return tuple(op for form in (self, *self.also) for op in When.named_ops(form))

    def describe(self) -> str:
        return " or ".join(When.describe(form) for form in (self, *self.also))


def counted_outcome(verdict: _Verdict, known: Known | None) -> Outcome | str:
    """The outcome a verdict counts as: ``unsupported`` where a row of that kind explains
    it (a clean rejection, or mutations a frontend documents that it drops), else its own."""
    return Outcome.UNSUPPORTED if known is not None and known.kind == "unsupported" else verdict.outcome


def passed_or_rejected_cleanly(verdict: _Verdict, known: Known | None) -> bool:
    """Nothing to report: the case passed, or the frontend refused it as a row says it does."""
    return counted_outcome(verdict, known) in (Outcome.PASS, Outcome.UNSUPPORTED)


def match(target: _Verdict | Signature, rows: tuple[Known, ...]) -> Known | None:
    """The first of ``rows`` that explains this verdict (or recorded signature). The suite
    passes the table and the open corpus entries' rows (``reports.corpus.known_rows``)."""
    signature = seen(target)  # once: every row reads its parts
    if signature.outcome == Outcome.PASS:
        return None
    return next((row for row in rows if row.matches(signature)), None)
