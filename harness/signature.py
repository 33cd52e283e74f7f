"""A verdict's signature: one per distinct bug, as data.

Written as ``backend/stage/outcome/what @op`` (in reports, the corpus's ``meta.json``
and the known table's patterns); ``Signature.parse`` is the one place that reads that
text back into its parts.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

__all__ = ["WRAPPER", "Difference", "Signature", "difference_what", "masked"]

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

    # -- the parts a known-table row matches, field by field ------------------------------

    @property
    def base_stage(self) -> str:
        """The stage without its size role (``judge`` of ``judge@max``)."""
        return self.stage.partition("@")[0]

    @property
    def size_role(self) -> str:
        """Which size of a dynamic case (``max`` of ``judge@max``; ``dynamic`` where the
        stage compiled the dynamic program); empty for a static case."""
        return self.stage.partition("@")[2]

    @cached_property  # read by every row of the known table
    def message(self) -> str:
        """A crash's or a hang's masked message, without its error type (the inner
        error's of a wrapper); empty for a mismatch."""
        if self.outcome == "mismatch":
            return ""
        what = self.what.removeprefix(WRAPPER)
        return what.split(": ", 1)[1] if self.error_type and ": " in what else what.removeprefix(f"{self.error_type}:")

    @cached_property  # read by every row of the known table
    def difference(self) -> Difference:
        """A mismatch's ``what`` in its parts (all empty for a crash)."""
        if self.outcome != "mismatch":
            return Difference()
        what, state = self.what, self.what.startswith("state ")
        what = what.removeprefix("state ")
        head, colon, detail = what.partition(": ")
        kind, _, special = head.partition(" ")
        expected = got = ""
        if colon and " -> " in detail:  # dtype, leaf_type, container_type: eager's, then the frontend's
            expected, got = (side.strip().removeprefix("torch.") for side in detail.split(" -> ", 1))
            if kind == "leaf_type":  # a Python number's type, without its value
                expected, got = expected.split(" ")[0], got.split(" ")[0]
        elif colon:  # values: the leaf's dtype, then a special value gone wrong
            expected, _, special = detail.partition(" ")
        return Difference(kind, state, expected, got, special)

    @cached_property  # read by every row of the known table
    def chain(self) -> tuple[str, ...]:
        """The ops a process that died ran (``cumsum+add``), or the differing leaf's op."""
        return tuple(self.trigger.split("+")) if self.trigger else ()

    @property
    def zero_size(self) -> bool:
        """A process that died had an empty tensor among its inputs or values."""
        return self.op.endswith(" 0-size")


@dataclass(frozen=True)
class Difference:
    """A mismatch's kind of difference and its details, as a signature writes them."""

    #: ``values``, ``dtype``, ``shape``, ``arity``, ``container_type``, ``leaf_type``, ``mutation_lost`` ...
    kind: str = ""
    #: In a buffer or an input after the call, not in the output.
    state: bool = False
    #: Eager's side: the dtype of a ``values`` or ``dtype`` difference, the type of a ``leaf_type``.
    expected: str = ""
    #: The frontend's side of a ``dtype``, ``leaf_type`` or ``container_type`` difference.
    got: str = ""
    #: A class of its own: ``0-d``, ``NaN lost``, ``NaN made``, ``inf lost``, ``inf made``.
    special: str = ""


def difference_what(d: dict[str, Any]) -> str:
    """A mismatch's ``what``, from its first difference as a verdict records it: the kind,
    both sides of a type change, the leaf's dtype for values, a special class where one
    applies, and ``state`` before a difference in a buffer or an input after the call."""
    what = f"{d['kind']}: {d['expected']} -> {d['actual']}" if d["kind"] in ("dtype", "leaf_type",
                                                                             "container_type") else d["kind"]
    if d["kind"] == "values" and d.get("dtype"):
        what += f": {d['dtype']}"
    if d["kind"] in ("values", "mutation_lost", "shape") and d.get("special"):
        what += f" {d['special']}"  # NaN lost, 0-d, ...: a class of its own
    if d.get("path", "").startswith("state."):
        what = f"state {what}"
    return re.sub(r"\(.*\)", "", what)  # a repr's contents: values, not the kind of bug


def masked(error_type: str, message: str) -> str:
    """A crash's ``what``: its error type and the first line of its message that says
    what failed, with numbers, addresses and names of generated things masked, so that
    many examples of one bug share one signature."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    # Wrappers say "... raised:" (dynamo's BackendCompilerFailed) or "Exception from
    # src/...:N:" (OpenVINO's, one per layer) and then the error.
    while len(lines) > 1 and (lines[0].endswith("raised:") or re.fullmatch(r"Exception from src/[\w/.]+:\d+:", lines[0])):
        lines = lines[1:]
    first = lines[0] if lines else ""
    if re.fullmatch(r"Check '.*' failed at src/[\w/.]+:\d+:", first):  # OpenVINO: and what failed
        first = f"{first} {next((line for line in lines[1:] if not line.endswith(':')), '')}".strip()
    if first.endswith("C++ compile error"):  # Inductor: the compiler's first error, not the generated file's path
        first += ": " + next((re.sub(r"^\S+\.cpp:\d+:\d+: ", "", line) for line in lines[1:] if " error: " in line), "")
    # TVM prints a whole op's repr before saying what is wrong with it: keep its name.
    first = re.sub(r'ir\.Op\(span=.*?name="([\w.]+)".*?support_level=\d+\)', r"ir.Op(\1)", first)
    first = re.sub(r"0x[0-9a-f]+", "ADDR", first)
    first = re.sub(r"\b(v|x|s)\d+\b", "NAME", first)
    first = re.sub(r"\d+", "N", first)
    return f"{error_type}: {_sets_sorted(first)[:240]}"


def _sets_sorted(message: str) -> str:
    """Collections a frontend prints from a set (TVM's unsupported ops, onnxscript's type
    unions) come in hash order, which differs from one process to the next: sorted, so
    that one bug keeps one signature from run to run."""
    message = re.sub(r"\['[^']*'(?:, '[^']*')+\]", lambda m: str(sorted(ast.literal_eval(m.group(0)))), message)
    return re.sub(r"\b[A-Z]\w*(?: \| [A-Z]\w*)+\b", lambda m: " | ".join(sorted(m.group(0).split(" | "))), message)
