"""After the shrink: the values simplified while the signature stays, and the failure
that is reported (its replay command) is the one the corpus entry then holds."""

from __future__ import annotations

from harness.conformance import ConformanceFailure, replay_command
from harness.registry import load_backend
from harness.runner import execute
from harness.simplify import simplified
from strategies import Case, Container, Input, Ref, Value

SPEC = "tests.harness_backends:Int64ToInt32"


def test_the_simplified_failure_reports_the_case_it_holds():
    backend = load_backend(SPEC)
    # x0 returned as it is (int64: the distortion narrows it); x1 read by nothing.
    case = Case(inputs=(Input("x0", "int64", (3,)), Input("x1", "float32", (2,))),
                values=(Value("input", ("x0",), (), "int64", (3,), None),), output=Ref(0), seed=7)

    def run_case(c, options):
        return execute(backend, c, options)

    shrunk = ConformanceFailure(backend, SPEC, case, {}, run_case(case, {}))
    failure = simplified(shrunk, run_case)
    assert [i.name for i in failure.case.inputs] == ["x0"]  # the unused input dropped
    assert failure.case.inputs[0].values == (0,)  # all 0 (one value stands for all): the simplest that breaks
    assert failure.verdict.signature() == shrunk.verdict.signature()
    assert f"replay: {replay_command(failure.backend, SPEC, failure.case, {})}" in str(failure), str(failure)
    assert replay_command(failure.backend, SPEC, shrunk.case, {}) not in str(failure)


def test_output_items_the_signature_does_not_need_are_dropped():
    """Where the shrink stopped with items beside the one that breaks ((v1, v1, None) for
    a lost None), each is dropped with the values only it needed: (None,)."""
    from tests.harness_backends import distorting_backend

    backend = distorting_backend("lose_none")
    x = Input("x0", "float32", ())
    case = Case(inputs=(x,), values=(Value("none", (), (), None, None, "NoneType"),
                                     Value("add", ("x0", "x0"), (), "float32", ())),
                output=Container("tuple", (Ref(1), Ref(1), Ref(0))), seed=0)

    def run_case(c, options):
        return execute(backend, c, options)

    shrunk = ConformanceFailure(backend, "harness", case, {}, run_case(case, {}))
    assert shrunk.verdict.outcome == "mismatch"
    failure = simplified(shrunk, run_case)
    assert failure.case.output == Container("tuple", (Ref(0),)), failure.case
    assert [v.op for v in failure.case.values] == ["none"]
    assert failure.verdict.signature() == shrunk.verdict.signature()


def test_an_update_nothing_reads_is_dropped():
    """A buffer counter left beside the input update that fails (the shrinker cannot
    delete a value a later operand index points past) goes; the update that fails stays."""
    from tests.harness_backends import LoseInputMutations

    backend = LoseInputMutations()
    case = Case(inputs=(Input("x0", "float32", ()), Input("x1", "float32", ())),
                values=(Value("counter", (), (), "int64", ()),
                        Value("input_update", ("x1", "x0"), (("method", "add_"),), "float32", ())),
                output=Ref(1), seed=0)

    def run_case(c, options):
        return execute(backend, c, options)

    shrunk = ConformanceFailure(backend, "harness", case, {}, run_case(case, {}))
    assert shrunk.verdict.outcome == "mismatch", shrunk.verdict
    failure = simplified(shrunk, run_case)
    assert [v.op for v in failure.case.values] == ["input_update"], failure.case
    assert failure.verdict.signature() == shrunk.verdict.signature()
