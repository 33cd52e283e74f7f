"""Isolation: a segfault or a hang inside a backend becomes a finding, the worker
restarts, and the session goes on. Also: the reference backend raises no false alarm."""

from __future__ import annotations

import math

import pytest
from hypothesis import seed, settings

from harness.conformance import ConformanceFailure, Recorder, conformance_property
from harness.registry import BUILTIN_BACKENDS, load_backend, preload_for
from harness.runner import execute
from harness.worker import Worker
from strategies import Case, Container, Input, Ref, Value, cases

SCALAR = Input("x0", "float32", ())
VALUE = Value("input", ("x0",), (), "float32", (), None)
LIST_CASE = Case((SCALAR,), (VALUE,), Container("list", (Ref(0),)))
DICT_CASE = Case((SCALAR,), (VALUE,), Container("dict", (Ref(0),), ("a",)))
BARE_CASE = Case((SCALAR,), (VALUE,), Ref(0))


@pytest.fixture
def worker():
    w = Worker(timeout=20)
    yield w
    w.close()


def test_segfault_is_a_crash_and_the_worker_restarts(worker):
    verdict = worker.run("tests.harness_backends:Segfault", LIST_CASE, {})
    assert verdict.outcome == "crash" and "SIGSEGV" in verdict.message, verdict
    assert worker.restarts == 1
    assert worker.run("tests.harness_backends:Segfault", BARE_CASE, {}).outcome == "pass"


def test_a_death_is_blamed_on_the_case_only_if_it_dies_in_a_fresh_worker_too(worker):
    # The list case poisons its process and passes; the next case dies there, then passes
    # in a fresh worker: it was not that case's crash.
    backend = "tests.harness_backends:CorruptsTheNextCase"
    assert worker.run(backend, LIST_CASE, {}).outcome == "pass"
    assert worker.run(backend, BARE_CASE, {}).outcome == "pass"
    assert worker.deaths_retried == 1 and worker.restarts == 1
    # A case that dies on its own still dies after other cases ran in the worker.
    assert worker.run("tests.harness_backends:Segfault", BARE_CASE, {}).outcome == "pass"
    verdict = worker.run("tests.harness_backends:Segfault", LIST_CASE, {})
    assert verdict.outcome == "crash" and "SIGSEGV" in verdict.message and worker.deaths_retried == 2


def test_hang_is_a_hang_after_the_time_limit(worker):
    verdict = worker.run("tests.harness_backends:Hang", DICT_CASE, {}, timeout=3)
    assert verdict.outcome == "hang", verdict
    assert worker.run("tests.harness_backends:Hang", BARE_CASE, {}).outcome == "pass"


def test_crash_found_through_the_worker_is_shrunk(worker):
    backend = load_backend("tests.harness_backends:Segfault")
    check = seed(1)(settings(max_examples=200, database=None, deadline=None)(conformance_property(
        backend, "tests.harness_backends:Segfault",
        lambda case, options: worker.run("tests.harness_backends:Segfault", case, options), Recorder())))
    with pytest.raises(ConformanceFailure) as info:
        check()
    case = info.value.case
    assert info.value.verdict.outcome == "crash"
    assert case.output == Container("list", ()), case  # the smallest list: empty


def test_harness_bug_is_not_reported_as_a_backend_bug(worker):
    from harness.backends.base import HarnessError

    with pytest.raises(HarnessError):
        worker.run("no.such.module:Backend", BARE_CASE, {})


def test_reference_has_no_false_positives():
    """500 generated cases through torch.export and back: no finding at all, chains and
    the large size class among them."""
    backend = load_backend("reference")
    recorder = Recorder()
    drawn = {"large": 0, "chains": 0}

    def run(case, options):
        drawn["large"] += any(math.prod(i.shape) > 81 for i in case.inputs)
        drawn["chains"] += len(case.pruned().values) >= 3
        return execute(backend, case, options)

    check = settings(max_examples=500, database=None, deadline=None, derandomize=True)(
        conformance_property(backend, "reference", run, recorder, cases(exportable=True)))
    check()
    outcomes = {o: n for (_, o), n in recorder.outcomes.items()}
    assert outcomes == {"pass": 500}, outcomes
    assert drawn["large"] >= 25 and drawn["chains"] >= 50, drawn


def test_the_fork_server_imports_the_frontends_of_the_run_only():
    """A run of the reference backend does not import TVM's, Inductor's and onnxscript's
    frontends before each fork (seconds a subprocess); a run of every backend does."""
    assert preload_for(["reference", "eager", "not.a:Backend"]) == []
    assert preload_for(["tvm-ep", "tvm-fx", "onnx"]) == ["tvm.relax.frontend.torch", "onnxscript"]
    assert set(preload_for(BUILTIN_BACKENDS)) == {"tvm.relax.frontend.torch", "torch._inductor.compile_fx", "onnxscript"}
