"""Every ``bug`` row of the known table names one root cause: a row that also matched a
different error or an op it does not name would hide the next bug behind it.

Checked against every verdict on record (the last ``ci`` survey of the CPU frontends,
``harness/ci-survey.json``, and the corpus entries): each form of a row matches one
failure, and a row that names ops (errors) claims no recorded verdict planted with an op
(error) it does not name. Against made-up verdicts no row may claim: a native crash of
an op no row names, a wrapper error around an error no row names. And the survey holds
each verdict it recorded to the row that explained it then.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields, replace
from typing import Any

import pytest

from harness.difference import Difference
from harness.known import KNOWN, SURVEY, TVM, Known, When, counted_outcome, match, passed_or_rejected_cleanly, recorded, root_causes
from harness.signature import WRAPPER, Trigger
from harness.verdict import Verdict
from reports.entries import Entry, load_entries
from reports.evidence import explains, rows_without_entry

# A documented difference is one cause too: its row may not hide a bug behind it.
BUG_ROWS = [row for row in KNOWN if row.kind in ("bug", "documented")]
SURVEYED = json.loads(SURVEY.read_text())


def _entry_verdict(entry: Entry) -> dict[str, Any]:
    return {"signature": entry.meta["signature"], "backend": entry.meta["backend"], "notes": entry.meta.get("notes", [])}


#: Every verdict on record: the survey's, and the corpus entries' (which no snapshot wrote).
RECORDED = SURVEYED + [_entry_verdict(e) for e in load_entries() if isinstance(e, Entry)]
#: Each read once: every row is matched against all of them.
_READ = [(v, recorded(v)) for v in RECORDED]


def matched(row: Known) -> list[dict[str, Any]]:
    """The recorded verdicts ``row`` matches (any of its forms)."""
    return [v for v, signature in _READ if row.matches(signature)]


def forms(row: Known) -> list[Known]:
    """Each form of ``row`` as a row of its own: a row of one cause that shows in two
    forms lists the second in ``also``, so one root cause is one failure per form."""
    return [replace(row, also=()),
            *(replace(row, also=(), **{f.name: getattr(form, f.name) for f in fields(When)}) for form in row.also)]


#: Real ops and error types to plant where a recorded verdict had its own.
OTHER_OPS = ("add", "sum", "matmul", "relu", "cat")
OTHER_ERRORS = ("RuntimeError", "ValueError", "TypeError", "InternalError", "AssertionError")


def _planted(v: dict[str, Any], *, op: str = "", error: str = "") -> dict[str, Any] | None:
    """``v`` with its op (the trigger's ops) or its error type (the inner one of a wrapper)
    changed, or None where ``v`` records none. Edited in the recorded text
    (``backend/stage/outcome/what @trigger``), so that it is read back through
    ``_recorded`` as any recorded verdict is."""
    head, at, trigger = v["signature"].rpartition(" @")
    head, trigger = (head, trigger) if at else (v["signature"], "")
    if op:
        if not trigger:
            return None
        ops = trigger.split(" on ")[0].removesuffix(" 0-size")
        trigger = op + trigger[len(ops):]
    if error:
        backend, stage, outcome, what = head.split("/", 3)
        wrapper = WRAPPER if what.startswith(WRAPPER) else ""
        raised = re.match(r"\w+:", what.removeprefix(wrapper))
        if outcome == "mismatch" or raised is None:
            return None
        head = f"{backend}/{stage}/{outcome}/{wrapper}{error}:{what.removeprefix(wrapper)[raised.end():]}"
    return {**v, "signature": head + (f" @{trigger}" if trigger else "")}


def planted_claims(row: Known, verdicts: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """How many verdicts were planted from ``verdicts``, and those ``row`` claims: each
    recorded verdict a form of the row that names ops (errors) matches, with its op
    (error type) changed to one the row does not name."""
    named_errors = {error for form in forms(row) for error in form.errors}
    planted = []
    for form in forms(row):
        for v in verdicts if form.ops or form.errors else ():
            if form.matches(recorded(v)):
                planted += [_planted(v, op=op) for op in OTHER_OPS if form.ops and op not in row.named_ops()]
                planted += [_planted(v, error=e) for e in OTHER_ERRORS if form.errors and e not in named_errors]
    planted = [p for p in planted if p is not None]
    return len(planted), [p["signature"] for p in planted if row.matches(recorded(p))]


def catch_all_reasons(row: Known, verdicts: list[dict]) -> list[str]:
    """Why ``row`` is more than one root cause, judged by the recorded ``verdicts``: a form
    that matches two failures, an op it matches without naming it, a verdict it still
    claims once planted with an op or an error type it does not name."""
    reasons = []
    for i, form in enumerate(forms(row)):
        failures = sorted({failure for failure, _ in root_causes(form, verdicts)})
        if len(failures) > 1:
            reasons.append(f"form {i} matches {len(failures)} different failures: {failures}")
    causes = root_causes(row, verdicts)
    if row.named_ops():  # a row that names ops names every op it matches
        reasons += [f"matches op {op!r} without naming it ({causes[(failure, op)][0]})"
                    for failure, op in causes if op and not set(op.split("+")) & set(row.named_ops())]
    reasons += [f"claims {claimed!r}, planted with an op or an error it does not name"
                for claimed in planted_claims(row, verdicts)[1]]
    return reasons


def test_the_survey_covers_the_cpu_frontends():
    backends = {v["backend"] for v in SURVEYED}
    assert {"tvm-ep", "tvm-fx", "tvm-dynamo", "onnx", "openvino"} <= backends, backends
    assert len(SURVEYED) >= 50


@pytest.mark.parametrize("row", BUG_ROWS, ids=[r.id for r in BUG_ROWS])
def test_bug_row_is_one_root_cause(row):
    assert not catch_all_reasons(row, matched(row))


def _made_up(backend: str) -> list[Verdict]:
    """Verdicts of bugs no row can know: an op that does not exist, an error type no
    frontend raises."""
    died = Verdict(backend, "crash", "compile-or-run", "WorkerDied", "the worker process died: signal SIGSEGV",
                   trigger=Trigger(("made_up_op",), "float32"))
    hung = Verdict(backend, "hang", "compile-or-run", "Timeout", "no answer within 180 s",
                   trigger=Trigger(("made_up_op",), "float32"))
    wrapped = Verdict(backend, "crash", "compile-on-call", "BackendCompilerFailed",
                      "backend='relax_dynamo' raised:\nMadeUpError: nothing any frontend says")
    shape = Verdict(backend, "mismatch", "judge", differences=[Difference((), "shape", "(2,)", "(1, 2)")],
                    trigger=Trigger(("made_up_op",)))
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
    dtype = Difference((), "dtype", "torch.int64", "torch.int32")
    assert sum_only.matches(Verdict("tvm-ep", "mismatch", "judge", differences=[dtype], trigger=Trigger(("sum",))))
    assert not any(sum_only.matches(Verdict("tvm-ep", "mismatch", "judge", differences=[dtype], trigger=Trigger((op,))))
                   for op in ("cumsum", "sum_to"))


def test_a_row_that_claims_another_op_or_error_is_caught():
    """The planted verdicts catch a form that names ops or errors beside one that names none."""
    dtype = {"signature": "tvm-ep/judge/mismatch/dtype: torch.int64 -> torch.int32 @sum", "backend": "tvm-ep", "notes": []}
    crash = {"signature": "tvm-ep/import/crash/ValueError: the same words", "backend": "tvm-ep", "notes": []}
    sum_only = Known(id="sum-only", backends=("tvm-ep",), kind="bug", differences=("dtype",), ops=("sum",), reason="")
    value_error = Known(id="value-error", backends=("tvm-ep",), kind="bug", errors=("ValueError",),
                        message="the same words", reason="")
    assert planted_claims(sum_only, [dtype]) == (len(OTHER_OPS) - 1, [])
    assert planted_claims(value_error, [crash]) == (len(OTHER_ERRORS) - 1, [])
    any_op = replace(sum_only, also=(When(differences=("dtype",)),))
    any_error = replace(value_error, also=(When(message="the same words"),))
    assert len(planted_claims(any_op, [dtype])[1]) == len(OTHER_OPS) - 1
    assert len(planted_claims(any_error, [crash])[1]) == len(OTHER_ERRORS) - 1
    assert catch_all_reasons(any_op, [dtype]) and catch_all_reasons(any_error, [crash])


def _moved(rows: tuple[Known, ...]) -> list[tuple[str, str, str | None]]:
    """(signature, recorded row, row now) of each surveyed verdict ``rows`` explain otherwise."""
    now = [(v, match(recorded(v), rows)) for v in SURVEYED]
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
        return Verdict("tvm-fx", "mismatch", "judge", differences=[Difference.from_dict(difference)], notes=notes)

    unwrapped = match(verdict(["unwrap_unit_return_tuple: the unit tuple or list is returned bare"]))
    assert unwrapped is not None and unwrapped.id == "tvm-fx-unit-tuple-unwrapped"
    assert match(verdict([])) is None


@pytest.mark.parametrize("idle", ["input", "clone", "contiguous"])
def test_an_op_that_computes_nothing_breaks_no_trigger(idle):
    """A crash's trigger holds every op the process ran: one that computes nothing beside
    the row's op (the quick start's ``buffer_update+input``) leaves the row's cause as it
    was, while a real op beside it still breaks an ``alone`` trigger."""
    row = next(r for r in KNOWN if r.id == "openvino-zero-d-buffer-copy-segfault")

    def died(*ops: str) -> Verdict:
        return Verdict("openvino", "crash", "compile-or-run", error_type="WorkerDied",
                       message="the worker process died: signal SIGSEGV",
                       trigger=Trigger(tuple(sorted(ops)), "int8"))

    assert row.matches(died("buffer_update")) and row.matches(died("buffer_update", idle))
    assert not row.matches(died("buffer_update", "add")) and not row.matches(died("buffer_update", "add", idle))
    # A row about the copy itself still names it.
    clone_row = Known(id="idle-row", backends=("openvino",), kind="bug", errors=("WorkerDied",), ops=(idle,), alone=True,
                      reason="")
    assert clone_row.matches(died(idle)) and not clone_row.matches(died("buffer_update"))


def _shared_crash_keys(rows: tuple[Known, ...]) -> dict[tuple[str, str], set[str]]:
    """(error type, masked message) of each recorded crash a bug row explains, with the
    rows that explain one: a frontend's own words for one failure, whatever backend or
    stage met it (tvm-fx and relax_dynamo share a converter). A dead process's key is its
    signal alone, which many causes share: left out."""
    keys: dict[tuple[str, str], set[str]] = {}
    for _, signature in _READ:
        row = match(signature, rows)
        seen = signature.as_seen()
        if row is None or row.kind == "unsupported" or seen.outcome != "crash" or seen.error_type in ("", "WorkerDied"):
            continue
        keys.setdefault((seen.error_type, seen.message), set()).add(row.id)
    return keys


def _two_rows_of_one_failure(rows: tuple[Known, ...]) -> list[tuple[str, list[str]]]:
    """Keys two rows share where neither row's reason names the other (says why they are two)."""
    by_id = {row.id: row for row in rows}
    return [(message, sorted(ids)) for (_, message), ids in _shared_crash_keys(rows).items() if len(ids) > 1
            and not any(other in by_id[one].reason for one in ids for other in ids if other != one)]


def test_one_failure_is_one_row():
    """Two rows whose recorded crashes carry the same error and message are one root
    cause filed twice (the pairs folded in one row each: the fx translator's narrow on
    tvm-fx and tvm-dynamo, ONNX Runtime's Reshape of a -1 beside a product of 0), unless a
    row's reason names the other and says why they are two."""
    shared = _two_rows_of_one_failure(KNOWN)
    assert not shared, f"rows sharing a failure, neither saying why they are two: {shared}"


def test_a_root_cause_filed_twice_is_caught():
    row = next(r for r in KNOWN if r.id == "onnx-zero-size-reshape-minus-one")
    # Put first, the twin takes the static verdicts; the dynamic one stays with the row.
    narrowed = replace(row, id="planted-twin", reason="", dynamic=False)
    assert _two_rows_of_one_failure((narrowed, *KNOWN)), "a second row of one failure went unseen"
    said = replace(narrowed, reason="Not onnx-zero-size-reshape-minus-one: another graph writes the same Reshape.")
    assert not _two_rows_of_one_failure((said, *KNOWN))
