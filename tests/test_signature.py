"""The signature as data: built from a verdict's typed fields, written as text only at the
JSON boundary, and read back from it into the same fields."""

from __future__ import annotations

import json

import torch
from torch.utils import _pytree as pytree

from harness.difference import Difference, InState
from harness.known import SURVEY
from harness.oracle import compare
from harness.signature import Outcome, Signature, Stage, Trigger
from harness.verdict import Verdict
from reports.entries import Entry, load_entries


def test_every_recorded_signature_reads_back_to_itself():
    recorded = [v["signature"] for v in json.loads(SURVEY.read_text())]
    recorded += [e.meta["signature"] for e in load_entries() if isinstance(e, Entry)]
    assert len(recorded) > 100
    for text in recorded:
        parsed = Signature.from_text(text)
        assert parsed.text == text
        assert "/" not in parsed.backend + parsed.stage + parsed.outcome and "@" not in parsed.stage


def test_a_verdict_writes_its_fields():
    crash = Verdict("tvm-dynamo", Outcome.CRASH, Stage.COMPILE, error_type="BackendCompilerFailed",
                    message="backend='relax' raised:\nValueError: axis 3 out of range", trigger=Trigger(("sort",)))
    parts = crash.as_signature()
    assert parts.text == crash.signature() == "tvm-dynamo/compile/crash/BackendCompilerFailed: ValueError: axis N out of range @sort"
    assert parts.wrapped and parts.error_type == "ValueError" and parts.trigger.ops == ("sort",)
    assert parts.unwrapped().text == "tvm-dynamo/compile/crash/ValueError: axis N out of range @sort"
    died = Verdict("tvm-ep", Outcome.CRASH, Stage.COMPILE_OR_RUN, error_type="WorkerDied",
                   message="the worker process died: signal SIGSEGV", trigger=Trigger(("cumsum", "add"), "int32", True))
    assert died.signature().endswith(" @cumsum+add on int32 0-size")
    assert died.as_signature().chain == ("cumsum", "add") and died.as_signature().zero_size
    assert Signature.from_text(died.signature()) == died.as_signature()
    (dtype,) = compare((torch.ones(2, dtype=torch.int64),), (torch.ones(2, dtype=torch.int32),))
    mismatch = Verdict("onnx", Outcome.MISMATCH, Stage.JUDGE, differences=[dtype], trigger=Trigger.of_op("sum"))
    signature = mismatch.as_signature()
    assert signature.text == "onnx/judge/mismatch/dtype: torch.int64 -> torch.int32 @sum"
    assert signature.difference.sides == ("int64", "int32") and signature.error_type == ""
    assert Signature.from_text(signature.text) == signature


def test_a_dynamic_size_role_is_a_field_written_beside_the_stage():
    verdict = Verdict("inductor", Outcome.CRASH, Stage.RUN, size_role="max", error_type="RuntimeError", message="boom")
    assert verdict.signature() == "inductor/run@max/crash/RuntimeError: boom"
    again = Verdict.from_dict(json.loads(json.dumps(verdict.to_dict())))
    assert (again.stage, again.size_role, again.as_signature()) == ("run", "max", verdict.as_signature())


def test_a_verdict_crosses_the_json_boundary_typed():
    expected = {"cache": [torch.ones(2)], "n": torch.tensor(1.0)}
    actual = {"cache": [torch.tensor([1.0, 2.0])], "n": torch.tensor(1.0)}
    (difference,) = compare(expected, actual)
    state = Difference((InState("buffers"), pytree.MappingKey("s0")), "mutation_lost", "a", "b", dtype="float32",
                       special="0-d")
    verdict = Verdict("tvm-ep", Outcome.MISMATCH, Stage.JUDGE, differences=[difference, state],
                      trigger=Trigger.of_op("add"), root={"op": "add", "value": "v1 = add(x0, x0)", "difference": difference})
    again = Verdict.from_dict(json.loads(json.dumps(verdict.to_dict())))
    assert again.differences == verdict.differences and again.root == verdict.root
    assert again.differences[0].where == "['cache'][0]" and again.differences[1].where == "state.buffers['s0']"
    assert difference.largest == (1.0, 1.0) and difference.index == (1,)
    assert again.signature() == verdict.signature() == "tvm-ep/judge/mismatch/values: float32 @add"


def test_a_set_a_frontend_prints_gives_one_signature_whatever_its_order():
    # TVM's unsupported ops and onnxscript's type unions are printed from sets: their
    # order follows the process's string hashing, which differs from run to run.
    def signature(message: str) -> str:
        return Verdict("tvm-fx", Outcome.UNSUPPORTED, "import", "AssertionError", message).signature()

    assert (signature("Unsupported function types ['Output2', 'full_like', 'minimum']")
            == signature("Unsupported function types ['minimum', 'Output1', 'full_like']")
            == "tvm-fx/import/unsupported/AssertionError: Unsupported function types ['OutputN', 'full_like', 'minimum']")
    assert (signature("aten_amin(self: T) where T=FLOAT | DOUBLE | INT8, T_dim=INT64 | INT32")
            == signature("aten_amin(self: T) where T=INT8 | FLOAT | DOUBLE, T_dim=INT32 | INT64")
            == "tvm-fx/import/unsupported/AssertionError: aten_amin(self: T) where T=DOUBLE | FLOAT | INTN, T_dim=INTN | INTN")
    assert signature("Unsupported function types ['sort']").endswith("['sort']")
