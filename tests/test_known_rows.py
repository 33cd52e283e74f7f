"""Every ``bug`` row of the known table names one root cause: a row that also matched a
different error or an op it does not name would hide the next bug behind it.

Checked against the verdicts the rows explained in the last ``ci`` survey of the CPU
frontends (``suites/ci-survey.json``), and against made-up verdicts no row may claim:
a native crash of an op no row names, a wrapper error around an error no row names.
"""

from __future__ import annotations

import json
import re

import pytest

from reports.corpus import Entry, explains, load_entries, rows_without_entry
from suites.known import KNOWN, SURVEY, Known, counted_outcome, match, passed_or_rejected_cleanly, root_causes
from suites.runner import Verdict

# A documented difference is one cause too: its row may not hide a bug behind it.
BUG_ROWS = [row for row in KNOWN if row.kind in ("bug", "documented")]
SURVEYED = json.loads(SURVEY.read_text())


def _named(op: str, pattern: str) -> bool:
    return any(re.search(rf"(?<![\w]){re.escape(o)}(?![\w])", pattern) for o in op.split("+"))


def catch_all_reasons(row: Known, verdicts: list[dict]) -> list[str]:
    causes = root_causes(row, verdicts)
    reasons = []
    failures = sorted({failure for failure, _ in causes})
    if len(failures) > 1:
        reasons.append(f"matches {len(failures)} different failures: {failures}")
    if re.search(r"@[\w(]", row.pattern):  # a row that names ops names every op it matches
        reasons += [f"matches op {op!r} without naming it ({causes[(failure, op)][0]})"
                    for failure, op in causes if op and not _named(op, row.pattern)]
    return reasons


def test_the_survey_covers_the_cpu_frontends():
    backends = {v["backend"] for v in SURVEYED}
    assert {"tvm-ep", "tvm-fx", "tvm-dynamo", "onnx", "openvino"} <= backends, backends
    assert len(SURVEYED) >= 50


@pytest.mark.parametrize("row", BUG_ROWS, ids=[r.id for r in BUG_ROWS])
def test_bug_row_is_one_root_cause(row):
    assert not catch_all_reasons(row, SURVEYED)


def _made_up(backend: str) -> list[Verdict]:
    """Verdicts of bugs no row can know: an op that does not exist, an error type no
    frontend raises."""
    died = Verdict(backend, "crash", "compile-or-run", "WorkerDied", "the worker process died: signal SIGSEGV",
                   leaf_op="made_up_op on float32")
    hung = Verdict(backend, "hang", "compile-or-run", "Timeout", "no answer within 180 s",
                   leaf_op="made_up_op on float32")
    wrapped = Verdict(backend, "crash", "compile-on-call", "BackendCompilerFailed",
                      "backend='relax_dynamo' raised:\nMadeUpError: nothing any frontend says")
    shape = Verdict(backend, "mismatch", "judge", differences=[{"path": "", "kind": "shape", "expected": "(2,)",
                                                                  "actual": "(1, 2)", "detail": ""}],
                    leaf_op="made_up_op")
    return [died, hung, wrapped, shape]


@pytest.mark.parametrize("row", BUG_ROWS, ids=[r.id for r in BUG_ROWS])
def test_bug_row_claims_no_made_up_bug(row):
    backends = row.backends if row.backends != ("*",) else ("tvm-ep",)
    claimed = [v.signature() for b in backends for v in _made_up(b) if row.matches(v)]
    assert not claimed, f"{row.id} is a catch-all: it claims {claimed}"


def test_a_catch_all_row_is_caught():
    """The checks above can fail: the rows this project once had are flagged."""
    any_wrapper = Known("any-wrapper", ("tvm-dynamo",), "bug", r"compile-on-call/crash/", "")
    any_segfault = Known("any-segfault", ("tvm-dynamo",), "bug", r"WorkerDied", "")
    any_shape = Known("any-shape", ("tvm-ep",), "bug", r"/mismatch/shape", "")
    for row in (any_wrapper, any_segfault, any_shape):
        assert any(row.matches(v) for v in _made_up(row.backends[0])), row.id
    mixed = Known("mixed", ("tvm-ep", "tvm-fx", "tvm-dynamo"), "bug", r"/mismatch/", "")
    assert catch_all_reasons(mixed, SURVEYED)
    one_op_named = Known("one-op", ("tvm-ep", "tvm-fx", "tvm-dynamo"), "bug", r"/mismatch/dtype: .* @(sum|.*)", "")
    assert catch_all_reasons(one_op_named, SURVEYED)


# -- every bug row has its evidence: an open corpus entry, or the reason it has none ---------------


def test_every_cpu_bug_row_has_an_entry_or_says_why():
    missing = [row.id for row in rows_without_entry()]
    assert not missing, (f"{len(missing)} bug rows have no open corpus entry (meta 'row') and no no_entry "
                         f"reason; file one with `python -m suites.hunt ROW`: {missing}")


def test_a_new_bug_row_without_an_entry_is_caught():
    entries = [e for e in load_entries() if isinstance(e, Entry)]
    planted = Known("planted-row", ("tvm-ep",), "bug", r"PlantedError", "a row that lands without an entry")
    excused = Known("planted-excused", ("onnx",), "bug", r"PlantedError", "", no_entry="the generator cannot reach it")
    gpu_only = Known("planted-gpu", ("trt-dynamo",), "bug", r"PlantedError", "")
    clean = Known("planted-unsupported", ("tvm-ep",), "unsupported", r"PlantedError", "")
    found = rows_without_entry((*KNOWN, planted, excused, gpu_only, clean), entries)
    assert [row.id for row in found if row.id.startswith("planted")] == ["planted-row"]


@pytest.mark.parametrize("entry", [e for e in load_entries() if isinstance(e, Entry) and e.meta["status"] == "open"],
                         ids=lambda e: e.id)
def test_open_entry_names_the_row_that_explains_it(entry):
    rows = {row.id: row for row in KNOWN}
    row = rows.get(entry.meta.get("row", ""))
    assert row is not None, f"{entry.id}: meta 'row' {entry.meta.get('row')!r} is no row of suites.known.KNOWN"
    assert row.kind == "bug" and explains(row, entry), f"{entry.id}: row {row.id} does not match {entry.meta['signature']}"
    assert not row.no_entry, f"{row.id} has entry {entry.id}: its no_entry reason is stale"


def test_a_clean_rejection_counts_as_passed_and_a_known_bug_does_not():
    # The runner never says "unsupported": a row of that kind makes a crash a clean rejection.
    rejected = Verdict("tvm-ep", "crash", "import", "AssertionError", "Unsupported function types ['aten.foo']")
    bug = Verdict("tvm-ep", "crash", "import", "ValueError", "Exported graph produced no Relax outputs")
    assert passed_or_rejected_cleanly(rejected, match(rejected)) and counted_outcome(rejected, match(rejected)) == "unsupported"
    assert not passed_or_rejected_cleanly(bug, match(bug)) and counted_outcome(bug, match(bug)) == "crash"
    assert passed_or_rejected_cleanly(Verdict("tvm-ep", "pass"), None)


@pytest.mark.parametrize("difference", [
    {"path": "", "kind": "container_type", "expected": "tuple", "actual": "Tensor"},
    {"path": "", "kind": "arity", "expected": "1", "actual": "2"},
])
def test_the_documented_unwrap_row_needs_the_option_the_adapter_notes(difference):
    """from_fx's unwrap_unit_return_tuple is documented: the row explains the unit tuple
    returned bare only where the adapter saw the option unwrap it; the same difference
    without that note is somebody else's bug and stays new."""
    def verdict(notes: list[str]) -> Verdict:
        return Verdict("tvm-fx", "mismatch", "judge", differences=[{**difference, "detail": ""}], notes=notes)

    unwrapped = match(verdict(["unwrap_unit_return_tuple: the unit tuple or list is returned bare"]))
    assert unwrapped is not None and unwrapped.id == "tvm-fx-unit-tuple-unwrapped"
    assert match(verdict([])) is None
