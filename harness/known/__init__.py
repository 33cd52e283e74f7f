"""What each backend does not support, and the upstream bugs already known: as data.

A verdict that matches a row is counted under that row and the search goes on; one
that matches none is a new finding and fails its test with the shrunk case. A row is
keyword fields matched field by field against the verdict's signature (``rows.py``);
the rows of each frontend family live in a module of their own (``tvm.py``,
``onnx.py``...), and ``KNOWN`` is all of them, searched in order: the first row that
matches explains a verdict. Each ``bug`` row is one root cause: ``tests/test_known_rows.py``
holds every row to that against the last ``ci`` survey (``SURVEY``), and holds the
survey's verdicts to the rows they were filed under.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from ..signature import WRAPPER, Outcome, Signature
from . import export, inductor, onnx, openvino, tensorrt, tvm
from .backends import TRT, TRT_EXPORT_PATHS, TVM
from .rows import Known, When, counted_outcome, passed_or_rejected_cleanly, seen
from .rows import match as _match

__all__ = ["KNOWN", "SURVEY", "TRT", "TRT_EXPORT_PATHS", "TVM", "Known", "When", "counted_outcome", "match",
           "passed_or_rejected_cleanly", "recorded", "root_causes", "row", "seen"]

#: The failing verdicts of the last ``ci`` survey of the CPU frontends (signature,
#: backend, notes, and the row that explained each), kept to check that no row is a
#: catch-all (see ``root_causes``) and that a change to the table moves no verdict to
#: another row. Rewrite it from a survey's findings.json with
#: ``python -m harness.known SURVEY_DIR/findings.json``.
SURVEY = Path(__file__).parent.with_name("ci-survey.json")

KNOWN: tuple[Known, ...] = (*export.ROWS, *tvm.ROWS, *tensorrt.ROWS, *inductor.ROWS, *onnx.ROWS, *openvino.ROWS)


def match(target: Any, rows: tuple[Known, ...] = KNOWN) -> Known | None:
    """The first of ``rows`` (default: the table) that explains this verdict or recorded
    signature. The suite passes the table and the open corpus entries' rows."""
    return _match(target, rows)


def recorded(v: dict[str, Any]) -> Signature:
    """A verdict as a survey or a findings file records it ({"signature", "notes"}), typed."""
    return Signature.from_text(v["signature"], v.get("notes", ()))


def row(row_id: str) -> Known:
    """The table's row of that id."""
    found = next((k for k in KNOWN if k.id == row_id), None)
    if found is None:
        raise KeyError(f"no row {row_id!r} in harness.known.KNOWN")
    return found


def _cause(signature: Signature) -> tuple[str, str]:
    """(what failed, the op) of a signature: the error type of a crash (the inner error
    of a wrapper) with its op when a native crash names one; the difference kind of a
    mismatch with the op of the differing leaf."""
    op = signature.trigger.op
    if signature.outcome == Outcome.MISMATCH:  # the kind: dtype, values, shape, state ... (the dtypes may vary)
        if op in ("buffer_update", "input_update", "counter"):  # state, or a later read of it: not updated
            return "mutation not applied", op
        difference = signature.difference
        kind = difference.kind if difference else "?"
        return (f"state {kind}" if difference and difference.in_state else kind), op
    error = signature.error_type or signature.what.removeprefix(WRAPPER)
    # The ONNX exporter wraps what failed inside it: the inner error is the cause too.
    inner = re.match(r"(\w+(Error|Exception)): ", signature.message) if error == "ConversionError" else None
    return (inner.group(1) if inner else error), op


def root_causes(row: Known, verdicts: list[dict[str, Any]]) -> dict[tuple[str, str], list[str]]:
    """The distinct (failure, op) pairs among ``verdicts`` (signature, backend, notes)
    that ``row`` matches, each with the signatures behind it. A row of one root cause
    has one failure, and, if it names ops at all, names every op it matches."""
    found: dict[tuple[str, str], list[str]] = {}
    for v in verdicts:
        signature = seen(recorded(v))
        if row.matches(signature):
            found.setdefault(_cause(signature), []).append(v["signature"])
    return found


def snapshot(findings: Path) -> None:
    """Rewrite ``SURVEY`` from a survey's findings.json: each failing verdict with its row."""
    data = json.loads(findings.read_text())
    seen = {sig: {"signature": sig, "backend": e["backend"], "notes": e.get("notes", [])}
            for per_row in data.get("absorbed", {}).values() for sig, e in per_row.items()}
    # Findings new to the table then are verdicts the survey saw too.
    seen.update((sig, {"signature": sig, "backend": e["backend"], "notes": []}) for sig, e in data.get("new", {}).items()
                if sig not in seen)
    verdicts = sorted(seen.values(), key=lambda v: v["signature"])
    for v in verdicts:
        found = match(recorded(v))
        v["row"] = found.id if found else None
    SURVEY.write_text(json.dumps(verdicts, indent=1) + "\n")
    print(f"{SURVEY}: {len(verdicts)} verdicts", file=sys.stderr)
