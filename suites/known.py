"""What each backend does not support, and the upstream bugs already known: as data.

A verdict that matches a row is counted under that row and the search goes on; one
that matches none is a new finding and fails its test with the shrunk case. Rows of
kind ``unsupported`` turn a clean compile-time rejection into the ``unsupported``
outcome; rows of kind ``bug`` are real bugs (crash, hang or mismatch) already on file.

``pattern`` is a regular expression searched in the verdict's signature
``backend/stage/outcome/what`` (see ``Verdict.signature``); ``stage`` narrows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .runner import Verdict

__all__ = ["KNOWN", "Known", "match"]

TVM = ("tvm-ep", "tvm-fx", "tvm-dynamo")
TVM_IMPORTERS = ("tvm-ep", "tvm-fx")


@dataclass(frozen=True)
class Known:
    id: str
    backends: tuple[str, ...]
    kind: str  # "unsupported" | "bug"
    pattern: str
    reason: str
    link: str = ""
    #: Stages the row applies to; empty = any stage.
    stages: tuple[str, ...] = ()

    def matches(self, verdict: Verdict) -> bool:
        if self.backends != ("*",) and verdict.backend not in self.backends:
            return False
        if self.stages and verdict.stage not in self.stages:
            return False
        if self.kind == "unsupported" and verdict.outcome not in ("crash", "unsupported"):
            return False
        return re.search(self.pattern, verdict.signature()) is not None


KNOWN: tuple[Known, ...] = (
    # -- not frontend bugs: PyTorch itself refuses ---------------------------------------
    Known("export-unregistered-dict-subclass", ("*",), "unsupported",
          r"Found <class '[\w.]*PlainDictSubclass'> in output, which is not a known type",
          "torch.export rejects a dict subclass not registered with pytree; eager accepts it. "
          "Not a frontend bug.", "https://github.com/pytorch/pytorch/issues/94497", ("export",)),
    Known("fx-unregistered-dict-subclass", ("tvm-fx",), "unsupported",
          r"Unsupported function types \['(PlainDictSubclass|ModelOutput|Output\w*)'",
          "from_fx sees the container constructor as a call_function it cannot convert.",
          "", ("import",)),
    # -- TVM: documented gaps, rejected cleanly at import time ----------------------------
    Known("tvm-unsupported-op", TVM, "unsupported", r"AssertionError: Unsupported function (types|target)",
          "The importer has no converter for this aten op (its own message says so).",
          "", ("import",)),
    Known("tvm-ep-python-scalar-output", ("tvm-ep",), "unsupported",
          r"Unsupported output type in exported graph output: <class '(int|float|bool)'>",
          "from_exported_program rejects Python int/float/bool outputs (constants, x.shape[d]).",
          "", ("import",)),
)


def match(verdict: Verdict) -> Known | None:
    """The first row that explains this verdict, if any."""
    if verdict.outcome == "pass":
        return None
    return next((row for row in KNOWN if row.matches(verdict)), None)
