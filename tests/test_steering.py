"""A run's steer: what a row keeps explaining is drawn only in the free share for the rest
of the run, what passes is never demoted, and a failing case shrinks under a frozen steer."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from harness.backends.reference import Eager
from harness.conformance import ConformanceFailure, Recorder, conformance_property
from harness.known import Known
from harness.runner import execute
from harness.steering import CHECK_EVERY, Learner, case_features, learn, named_ops
from harness.verdict import Verdict
from strategies import Case, Input, Ref, Steer, Value, cases
from strategies.steering import FREE_ONE_IN
from tests.harness_backends import distorting_backend

DRAWS = settings(max_examples=300, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
                 suppress_health_check=list(HealthCheck))


def test_learn_demotes_the_feature_a_row_explains_alone_and_nothing_that_passed() -> None:
    a, b, c = frozenset({"op:cumsum", "container:tuple"}), frozenset({"op:cumsum", "op:add"}), frozenset({"op:add"})
    assert learn([(a, "row-1"), (b, "row-1"), (c, None)]) == {"op:cumsum": {"row": "row-1", "cases": 2}}
    # Seen once only, or under two rows: not yet the cause.
    assert learn([(a, "row-1")]) == {}
    # Under two rows, a feature is neither's cause; each row's own feature is.
    assert learn([(a, "row-1"), (b, "row-2")], 1) == {"op:add": {"row": "row-2", "cases": 1},
                                                        "op:cumsum": {"row": "row-1", "cases": 1}}
    # A row whose cases share no feature that also passes elsewhere demotes nothing.
    assert learn([(c, "row-1"), (c, "row-1"), (c, None)]) == {}
    # A bug row needs more cases than a clean rejection.
    assert learn([(a, "bug"), (b, "bug")], lambda row: 3) == {}


def _ops_drawn(strategy) -> Counter:
    seen: Counter = Counter()

    @DRAWS
    @given(st.data())
    def draw(data) -> None:
        seen.update({v.op for v in data.draw(strategy).pruned().values})

    draw()
    return seen


def test_a_demoted_op_is_drawn_in_the_free_share_only() -> None:
    steer = Steer()
    steer.demote({"op:add": {"row": "r", "cases": 2}, "container:list": {"row": "r", "cases": 2}})
    free, steered = _ops_drawn(cases(ops=["add", "mul", "neg"])), _ops_drawn(cases(ops=["add", "mul", "neg"], steer=steer))
    assert free["add"] >= 60, free
    # One case in FREE_ONE_IN is free: about 300 / 20 draws, with room for chance.
    assert 0 < steered["add"] <= 3 * 300 // FREE_ONE_IN, steered
    assert steered["mul"] > free["mul"]  # the budget went to what is left


def test_cases_checks_its_steer_and_shows_it() -> None:
    with pytest.raises(InvalidArgument, match="steer"):
        cases(steer={"op:add"})
    assert "steer=Steer(0 features demoted)" in repr(cases(steer=Steer()))


def _rejects(op: str) -> Known:
    return Known(id=f"rejects-{op}", backends=("*",), kind="unsupported", reason=f"a frontend that refuses {op}")


def test_a_run_steers_away_from_what_a_row_keeps_rejecting() -> None:
    """The run learns as it goes: a frontend (planted: eager itself, and a row that claims
    every case holding a ``mul`` as a clean rejection) stops getting ``mul`` after a few
    cases, the free share still draws it, and the recorder says why."""
    row = _rejects("mul")
    backend = Eager()
    steer = Steer()
    recorder = Recorder()
    with_mul: list[bool] = []

    def run_case(case, options):
        with_mul.append("op:mul" in case_features(case))
        return execute(backend, case, options)

    def known_row(verdict):
        return row if with_mul[-1] else None

    strategy = cases(ops=["mul", "add"], max_ops=3, steer=steer)
    check = seed(7)(settings(DRAWS, max_examples=300)(conformance_property(
        backend, "harness", run_case, recorder, strategy, keep_going=True, known_row=known_row, learner=Learner(steer))))
    check()
    assert steer.demoted["op:mul"]["row"] == row.id
    # Until the lesson that has seen two, mul is in about half the cases; after it, in
    # the free share's (one in FREE_ONE_IN, half of them with a mul), never in none.
    lesson = next(i for i in range(CHECK_EVERY, len(with_mul) + 1, CHECK_EVERY) if sum(with_mul[:i]) >= 2)
    before, after = with_mul[:lesson], with_mul[lesson:]
    assert sum(before) >= 2, with_mul
    assert 0 < sum(after) <= 2 * len(after) // FREE_ONE_IN, (sum(before), sum(after))
    recorder.record_steering(backend.name, steer.demoted)
    assert recorder.steered[backend.name]["op:mul"]["row"] == row.id


def test_a_failing_case_shrinks_under_the_steer_it_was_drawn_with() -> None:
    """A planted distortion is still caught and shrunk when the run is steered: the steer
    freezes at the failure, so the shrinker's replays draw what the failing draw did."""
    backend = distorting_backend("nudge_one_value")
    steer = Steer()
    steer.demote({"op:neg": {"row": "r", "cases": 2}})

    def run_case(case, options):
        return execute(backend, case, options)

    check = seed(3)(settings(DRAWS, max_examples=300, phases=list(Phase))(conformance_property(
        backend, "harness", run_case, Recorder(), cases(ops=["add", "neg"], max_ops=3, steer=steer),
        learner=Learner(steer))))
    with pytest.raises(ConformanceFailure) as info:
        check()
    assert steer.frozen
    assert len(info.value.case.values) == 1, info.value.case


def test_a_rejection_that_names_its_op_demotes_it_at_once() -> None:
    """"Unsupported function types ['logcumsumexp.default']": the frontend said which op."""
    case = Case(inputs=(Input("x0", "float32", (2,)),),
                values=(Value("sample_logcumsumexp", ("x0",), (("sample", 0),), "float32", (2,)),
                        Value("neg", ("v0",), (), "float32", (2,))),
                output=Ref(1), seed=0)
    assert named_ops(case, "AssertionError: Unsupported function types ['logcumsumexp.default']") == {
        "sample_logcumsumexp"}
    assert named_ops(case, "Cannot determine shape of neg_thing") == set()  # a word of its own only
    steer = Steer()
    verdict = Verdict(backend="b", outcome="crash", stage="import", error_type="AssertionError",
                      message="Unsupported function types ['logcumsumexp.default']")
    Learner(steer).observe(case, _rejects("logcumsumexp"), verdict)
    assert steer.demoted == {"op:sample_logcumsumexp": {"row": "rejects-logcumsumexp", "cases": 1}}


def test_a_rejection_names_an_op_by_what_its_code_or_its_graph_calls() -> None:
    """"Unsupported function target clone" names the op whose code calls ``.clone()``;
    "['amax.default']" names ``relu`` when every sample of its graph calls amax,
    and no op when the graphs are not known or only some samples call it."""
    x = Input("x0", "float32", (2,))
    case = Case(inputs=(x,), values=(Value("abs_", ("x0",), (("sample", 0),), "float32", (2,)),
                                     Value("relu", ("v0",), (), "float32", (2,))),
                output=Ref(1), seed=0)
    assert named_ops(case, "AssertionError: Unsupported function target clone") == {"abs_"}
    amax = "AssertionError: Unsupported function types ['amax.default']"
    assert named_ops(case, amax) == set()
    always = {"relu": [frozenset({"amax", "sub", "exp"})] * 2}
    assert named_ops(case, amax, always) == {"relu"}
    assert named_ops(case, amax, {"relu": [frozenset({"amax"}), frozenset({"max"})]}) == set()


def test_a_container_kind_is_learned_across_rows_and_an_op_from_one_row_only() -> None:
    """A dict output a frontend crashes on, or rejects when an op before it is
    unsupported, is spent either way; an op met beside two causes is neither's."""
    dict_crash, dict_reject = frozenset({"container:dict", "op:add"}), frozenset({"container:dict", "op:neg"})
    records = [(dict_crash, "dict-crash"), (dict_crash, "dict-crash"), (dict_reject, "rejects-neg"),
               (dict_crash, "dict-crash"), (frozenset({"op:add", "container:tuple"}), None)]
    assert "container:dict" not in learn(records, 2)
    assert learn([(f & {"container:dict"}, row) for f, row in records], 2, one_row=False) == {
        "container:dict": {"row": "dict-crash", "cases": 4}}


def test_a_new_crash_teaches_nothing_and_a_pass_taints() -> None:
    steer = Steer()
    learner = Learner(steer)
    case = Case(inputs=(Input("x0", "float32", (2,)),), values=(Value("neg", ("x0",), (), "float32", (2,)),),
                output=Ref(0), seed=0)
    for _ in range(CHECK_EVERY - 1):
        learner.observe(case, None, Verdict(backend="b", outcome="crash", error_type="RuntimeError"))
    assert learner.records == []  # no row, outputs never compared: nothing to learn either way
    for _ in range(CHECK_EVERY):
        learner.observe(case, _rejects("neg"), Verdict(backend="b", outcome="unsupported", error_type="E"))
    assert steer.demoted == {"op:neg": {"row": "rejects-neg", "cases": CHECK_EVERY}}
    tainted = Learner(Steer())
    tainted.observe(case, None, Verdict(backend="b", outcome="pass"))
    for _ in range(CHECK_EVERY - 1):
        tainted.observe(case, _rejects("neg"), Verdict(backend="b", outcome="unsupported", error_type="E"))
    assert tainted.steer.demoted == {}
