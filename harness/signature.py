"""A verdict's signature: one per distinct bug, as data.

Fields, typed: the backend, the stage and a dynamic case's size role, the ``Outcome``, the
``Difference`` a mismatch names or the error a crash raised, and the ``Trigger`` (the op
of the differing leaf, or what a process that died ran). The known table's rows match
those fields. Text exists at the JSON boundary only (reports, the corpus's
``meta.json``, the recorded survey): ``Signature.text`` writes
``backend/stage@role/outcome/what @trigger`` and ``Signature.from_text`` reads it back.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .difference import Difference

__all__ = ["WRAPPER", "Outcome", "Signature", "Stage", "Trigger", "masked", "masked_message"]

#: dynamo wraps an error raised inside a backend call: the inner error is the cause.
WRAPPER = "BackendCompilerFailed: "


class Outcome(StrEnum):
    """How one case ended on one backend (a str: recorded JSON holds the value)."""

    PASS = "pass"
    #: A clean rejection a row of kind ``unsupported`` lists (or lost mutations a frontend documents).
    UNSUPPORTED = "unsupported"
    CRASH = "crash"
    HANG = "hang"
    MISMATCH = "mismatch"

    @classmethod
    def read(cls, value: str) -> Outcome | str:
        """A recorded outcome; a seed's own status (``unverified``) stays as written."""
        return cls(value) if value in cls._value2member_map_ else value


class Stage(StrEnum):
    """Where a case stopped: the harness's stages and the built-in adapters'. An adapter of
    one's own may name others (``CompileContext.stage`` takes any str)."""

    EXPORT = "export"
    TRACE = "trace"
    IMPORT = "import"
    CONVERT = "convert"
    ONNX_EXPORT = "onnx-export"
    BUILD = "build"
    COMPILE = "compile"
    COMPILE_MODEL = "compile-model"
    COMPILE_ON_CALL = "compile-on-call"
    SESSION = "session"
    SAVE = "save"
    LOAD = "load"
    RUN = "run"
    #: A process that died or hung: which of the two it was in is not known.
    COMPILE_OR_RUN = "compile-or-run"
    JUDGE = "judge"


@dataclass(frozen=True)
class Trigger:
    """What the signature blames: the op of the differing leaf, or the ops a process that
    died ran with its input dtypes and whether a tensor was empty (no message tells one
    segfault from another)."""

    #: The op, or a run of ops (``cumsum``, ``add``); a user's model's calls; ``architecture llama in float32``.
    ops: tuple[str, ...] = ()
    #: The input dtypes (``int32/float32``; ``no input``), where a process died.
    inputs: str = ""
    #: An empty tensor among the inputs or values, where a process died.
    zero_size: bool = False

    @classmethod
    def of_op(cls, op: str) -> Trigger:
        """A differing leaf's op (``sum``; a user's model's ``linear+relu``)."""
        return cls(tuple(op.split("+")) if op else ())

    @property
    def op(self) -> str:
        """The ops as one name (``cumsum+add``)."""
        return "+".join(self.ops)

    def __str__(self) -> str:
        return self.op + (f" on {self.inputs}" if self.inputs else "") + (" 0-size" if self.zero_size else "")

    @classmethod
    def from_text(cls, text: str) -> Trigger:
        """``str`` read back (the JSON boundary: a recorded ``leaf_op``)."""
        zero_size = text.endswith(" 0-size")
        head, _, inputs = text.removesuffix(" 0-size").partition(" on ")
        return cls(tuple(head.split("+")) if head else (), inputs, zero_size)


@dataclass(frozen=True)
class Signature:
    """One distinct bug. Two verdicts of one bug have equal signatures."""

    backend: str
    #: Where it stopped (a ``Stage``, or an adapter's own name).
    stage: str
    outcome: Outcome | str
    #: Which size of a dynamic case (``max``; ``dynamic`` where the stage compiled the
    #: dynamic program); empty for a static case.
    size_role: str = ""
    #: A mismatch's first difference (the root cause's, where a probe found one), as the
    #: signature names it (``Difference.named``); None for a crash or a hang.
    difference: Difference | None = None
    #: A crash's or a hang's error type as raised (dynamo's wrapper, where it wrapped one).
    raised: str = ""
    #: Its masked message (``masked``); None where none was written.
    said: str | None = None
    trigger: Trigger = Trigger()
    #: What the adapter saw (documented structure changes): a row may ask for one. Not
    #: part of the bug's identity.
    notes: tuple[str, ...] = field(default=(), compare=False)
    #: Every difference was a mutation not written back (a frontend that documents that
    #: it drops mutations is within its promise). Not part of the identity.
    only_lost_mutations: bool = field(default=False, compare=False)

    @property
    def what(self) -> str:
        """What failed, as the text names it: a difference's, or the error type and message."""
        if self.difference is not None:
            return self.difference.what()
        return self.raised + (f": {self.said}" if self.said is not None else "")

    # -- the parts a known-table row matches, field by field ------------------------------

    @property
    def wrapped(self) -> bool:
        """An error that dynamo wrapped (``BackendCompilerFailed``) around the real one."""
        return self.difference is None and self.what.startswith(WRAPPER)

    def unwrapped(self) -> Signature:
        """As if the stage had raised the wrapped error itself."""
        inner = (self.said or "")
        raised, colon, said = inner.partition(": ")
        return replace(self, outcome=Outcome.CRASH, raised=raised, said=said if colon else None)

    @property
    def error_type(self) -> str:
        """A crash's error type (the inner one of a wrapper); empty for a mismatch."""
        if self.difference is not None or ":" not in self.what:
            return ""
        return self.what.removeprefix(WRAPPER).split(":", 1)[0]

    @property
    def message(self) -> str:
        """A crash's or a hang's masked message, without its error type (the inner
        error's of a wrapper); empty for a mismatch."""
        if self.difference is not None:
            return ""
        what = self.what.removeprefix(WRAPPER)
        return what.split(": ", 1)[1] if self.error_type and ": " in what else what.removeprefix(f"{self.error_type}:")

    @property
    def chain(self) -> tuple[str, ...]:
        """The ops a process that died ran (``cumsum``, ``add``), or the differing leaf's op."""
        return self.trigger.ops

    @property
    def zero_size(self) -> bool:
        """A process that died had an empty tensor among its inputs or values."""
        return self.trigger.zero_size

    def as_seen(self) -> Signature:
        """A verdict a row counted as ``unsupported`` is recorded under that outcome: read
        back as what it was, a crash or a mismatch of lost mutations."""
        if self.outcome != Outcome.UNSUPPORTED:
            return self
        lost = self.difference is not None and self.difference.kind == "mutation_lost"
        return replace(self, outcome=Outcome.MISMATCH if lost else Outcome.CRASH,
                       only_lost_mutations=self.only_lost_mutations or lost)

    # -- the JSON boundary ---------------------------------------------------------------

    @property
    def text(self) -> str:
        """``backend/stage@role/outcome/what @trigger``: the key of reports and the corpus."""
        stage = f"{self.stage}@{self.size_role}" if self.size_role else self.stage
        trigger = str(self.trigger)
        return f"{self.backend}/{stage}/{self.outcome}/{self.what}" + (f" @{trigger}" if trigger else "")

    def __str__(self) -> str:
        return self.text

    @classmethod
    def from_text(cls, text: str, notes: tuple[str, ...] | list[str] = ()) -> Signature:
        """``text`` read back into its fields (a recorded verdict's, an entry's)."""
        backend, stage, outcome, rest = text.split("/", 3)
        what, at, trigger = rest.rpartition(" @")
        what, trigger = (what, trigger) if at else (rest, "")
        stage, _, role = stage.partition("@")
        outcome = Outcome.read(outcome)
        recorded_difference = outcome == Outcome.MISMATCH or (outcome == Outcome.UNSUPPORTED
                                                                 and what.startswith("state mutation_lost"))
        if recorded_difference:
            difference, raised, said = Difference.from_what(what), "", None
        else:
            raised, colon, said_text = what.partition(": ")
            difference, said = None, said_text if colon else None
        return cls(backend, stage, outcome, role, difference, raised, said, Trigger.from_text(trigger), tuple(notes))


def masked(error_type: str, message: str) -> str:
    """A crash's ``what``: its error type and its masked message (``masked_message``)."""
    return f"{error_type}: {masked_message(message)}"


def masked_message(message: str) -> str:
    """The first line of an error's message that says what failed, with numbers,
    addresses and names of generated things masked, so that many examples of one bug
    share one signature."""
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
    return _sets_sorted(first)[:240]


def _sets_sorted(message: str) -> str:
    """Collections a frontend prints from a set (TVM's unsupported ops, onnxscript's type
    unions) come in hash order, which differs from one process to the next: sorted, so
    that one bug keeps one signature from run to run."""
    message = re.sub(r"\['[^']*'(?:, '[^']*')+\]", lambda m: str(sorted(ast.literal_eval(m.group(0)))), message)
    return re.sub(r"\b[A-Z]\w*(?: \| [A-Z]\w*)+\b", lambda m: " | ".join(sorted(m.group(0).split(" | "))), message)
