"""The signature as data: ``Signature.parse`` reads back exactly what a verdict wrote."""

from __future__ import annotations

import json

from harness.known import SURVEY
from harness.runner import Verdict
from harness.signature import Signature
from reports.entries import Entry, load_entries


def test_every_recorded_signature_parses_back_to_itself():
    recorded = [v["signature"] for v in json.loads(SURVEY.read_text())]
    recorded += [e.meta["signature"] for e in load_entries() if isinstance(e, Entry)]
    assert len(recorded) > 100
    for text in recorded:
        parsed = Signature.parse(text)
        assert str(parsed) == text
        assert "/" not in parsed.backend + parsed.stage + parsed.outcome


def test_a_verdict_writes_its_parts():
    crash = Verdict("tvm-dynamo", "crash", "compile", "BackendCompilerFailed",
                    "backend='relax' raised:\nValueError: axis 3 out of range", leaf_op="sort")
    parts = crash.as_signature()
    assert str(parts) == crash.signature() == "tvm-dynamo/compile/crash/BackendCompilerFailed: ValueError: axis N out of range @sort"
    assert parts.wrapped and parts.error_type == "ValueError" and parts.trigger == "sort"
    assert str(parts.unwrapped("build")) == "tvm-dynamo/build/crash/ValueError: axis N out of range @sort"
    died = Verdict("tvm-ep", "crash", "compile-or-run", "WorkerDied", "the worker process died: signal SIGSEGV",
                   leaf_op="cumsum on int32 0-size")
    assert died.as_signature().trigger == "cumsum" and Signature.parse(died.signature()) == died.as_signature()
    mismatch = Verdict("onnx", "mismatch", "judge", differences=[
        {"path": "[0]", "kind": "dtype", "expected": "torch.int64", "actual": "torch.int32", "detail": ""}], leaf_op="sum")
    assert mismatch.as_signature() == Signature("onnx", "judge", "mismatch", "dtype: torch.int64 -> torch.int32", "sum")
    assert mismatch.as_signature().error_type == ""


def test_a_set_a_frontend_prints_gives_one_signature_whatever_its_order():
    # TVM's unsupported ops and onnxscript's type unions are printed from sets: their
    # order follows the process's string hashing, which differs from run to run.
    def signature(message: str) -> str:
        return Verdict("tvm-fx", "unsupported", "import", "AssertionError", message).signature()

    assert (signature("Unsupported function types ['Output2', 'full_like', 'minimum']")
            == signature("Unsupported function types ['minimum', 'Output1', 'full_like']")
            == "tvm-fx/import/unsupported/AssertionError: Unsupported function types ['OutputN', 'full_like', 'minimum']")
    assert (signature("aten_amin(self: T) where T=FLOAT | DOUBLE | INT8, T_dim=INT64 | INT32")
            == signature("aten_amin(self: T) where T=INT8 | FLOAT | DOUBLE, T_dim=INT32 | INT64")
            == "tvm-fx/import/unsupported/AssertionError: aten_amin(self: T) where T=DOUBLE | FLOAT | INTN, T_dim=INTN | INTN")
    assert signature("Unsupported function types ['sort']").endswith("['sort']")
