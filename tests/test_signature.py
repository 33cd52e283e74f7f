"""The signature as data: ``Signature.parse`` reads back exactly what a verdict wrote."""

from __future__ import annotations

import json

from reports.corpus import Entry, load_entries
from suites.known import SURVEY
from suites.runner import Verdict
from suites.signature import Signature


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
