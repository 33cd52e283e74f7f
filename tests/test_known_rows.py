"""Every ``bug`` row of the known table names one root cause: a row that also matched a
different error or an op it does not name would hide the next bug behind it.

Checked against the verdicts the rows explained in the last ``ci`` survey of the CPU
frontends (``harness/ci-survey.json``), and against made-up verdicts no row may claim:
a native crash of an op no row names, a wrapper error around an error no row names.
"""

from __future__ import annotations

import json

import pytest

from harness.known import KNOWN, SURVEY, TVM, Known, SignatureOnly, counted_outcome, match, passed_or_rejected_cleanly, root_causes
from harness.runner import Verdict
from reports.entries import Entry, load_entries
from reports.evidence import explains, rows_without_entry

# A documented difference is one cause too: its row may not hide a bug behind it.
BUG_ROWS = [row for row in KNOWN if row.kind in ("bug", "documented")]
SURVEYED = json.loads(SURVEY.read_text())


def catch_all_reasons(row: Known, verdicts: list[dict]) -> list[str]:
    causes = root_causes(row, verdicts)
    reasons = []
    failures = sorted({failure for failure, _ in causes})
    if len(failures) > 1:
        reasons.append(f"matches {len(failures)} different failures: {failures}")
    if row.named_ops():  # a row that names ops names every op it matches
        reasons += [f"matches op {op!r} without naming it ({causes[(failure, op)][0]})"
                    for failure, op in causes if op and not set(op.split("+")) & set(row.named_ops())]
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
    any_wrapper = Known(id="any-wrapper", backends=("tvm-dynamo",), kind="bug", stages=("compile-on-call",),
                        outcome="crash", reason="")
    any_segfault = Known(id="any-segfault", backends=("tvm-dynamo",), kind="bug", errors=("WorkerDied",), reason="")
    any_shape = Known(id="any-shape", backends=("tvm-ep",), kind="bug", differences=("shape",), reason="")
    for row in (any_wrapper, any_segfault, any_shape):
        assert any(row.matches(v) for v in _made_up(row.backends[0])), row.id
    mixed = Known(id="mixed", backends=("tvm-ep", "tvm-fx", "tvm-dynamo"), kind="bug", outcome="mismatch", reason="")
    assert catch_all_reasons(mixed, SURVEYED)
    # Ops are matched as names, never as text: a row of sum is no row of cumsum or sum_to.
    sum_only = Known(id="sum-only", backends=("tvm-ep",), kind="bug", differences=("dtype",), ops=("sum",), reason="")
    dtype = {"path": "", "kind": "dtype", "expected": "torch.int64", "actual": "torch.int32", "detail": ""}
    assert sum_only.matches(Verdict("tvm-ep", "mismatch", "judge", differences=[dtype], leaf_op="sum"))
    assert not any(sum_only.matches(Verdict("tvm-ep", "mismatch", "judge", differences=[dtype], leaf_op=op))
                   for op in ("cumsum", "sum_to"))


def _moved(rows: tuple[Known, ...]) -> list[tuple[str, str, str | None]]:
    """(signature, recorded row, row now) of each surveyed verdict ``rows`` explain otherwise."""
    now = [(v, match(SignatureOnly.recorded(v["signature"], v["backend"], v.get("notes", [])), rows)) for v in SURVEYED]
    return [(v["signature"], v["row"], k.id if k else None) for v, k in now if (k.id if k else None) != v["row"]]


def test_each_surveyed_verdict_keeps_its_row():
    """A change to the table moves no recorded verdict to another row (or to none): the
    survey records the row that explained each (``python -m harness.known`` rewrites it)."""
    moved = _moved(KNOWN)
    assert not moved, f"{len(moved)} of {len(SURVEYED)} recorded verdicts change rows: {moved[:5]}"


def test_a_row_that_moves_a_verdict_is_caught():
    planted = Known(id="planted-first", backends=TVM, kind="bug", differences=("dtype",), reason="")
    assert _moved((planted, *KNOWN))


# -- every bug row has its evidence: an open corpus entry, or the reason it has none ---------------


def test_every_cpu_bug_row_has_an_entry_or_says_why():
    missing = [row.id for row in rows_without_entry()]
    assert not missing, (f"{len(missing)} bug rows have no open corpus entry (meta 'row') and no no_entry "
                         f"reason; file one with `python -m suites.hunt ROW`: {missing}")


def test_a_new_bug_row_without_an_entry_is_caught():
    entries = [e for e in load_entries() if isinstance(e, Entry)]
    planted = Known(id="planted-row", backends=("tvm-ep",), kind="bug", errors=("PlantedError",),
                    reason="a row that lands without an entry")
    excused = Known(id="planted-excused", backends=("onnx",), kind="bug", errors=("PlantedError",), reason="",
                    no_entry="the generator cannot reach it")
    gpu_only = Known(id="planted-gpu", backends=("trt-dynamo",), kind="bug", errors=("PlantedError",), reason="")
    clean = Known(id="planted-unsupported", backends=("tvm-ep",), kind="unsupported", errors=("PlantedError",), reason="")
    found = rows_without_entry((*KNOWN, planted, excused, gpu_only, clean), entries)
    assert [row.id for row in found if row.id.startswith("planted")] == ["planted-row"]


@pytest.mark.parametrize("entry", [e for e in load_entries() if isinstance(e, Entry) and e.meta["status"] == "open"],
                         ids=lambda e: e.id)
def test_open_entry_names_the_row_that_explains_it(entry):
    rows = {row.id: row for row in KNOWN}
    row = rows.get(entry.meta.get("row", ""))
    assert row is not None, f"{entry.id}: meta 'row' {entry.meta.get('row')!r} is no row of harness.known.KNOWN"
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
