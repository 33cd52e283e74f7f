"""Features by name (``strategies.features``): what a case holds is what ``exclude`` and
a steer leave out, structures and mixed-dtype operands included, and a run's steer learns
a structure a known bug keeps showing though every op of it also passes elsewhere."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from harness.backends.reference import Eager
from harness.conformance import Recorder, conformance_property
from harness.known import Known
from harness.runner import execute
from harness.steering import Learner
from harness.verdict import Verdict
from strategies import OPS, Case, Input, Ref, Steer, Value, cases
from strategies.features import case_features, left_out
from strategies.spec import Container
from strategies.steering import FREE_ONE_IN

DRAWS = settings(max_examples=200, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
                 suppress_health_check=list(HealthCheck))
EVERY_MIXED = [f"mixed:{op}" for op in OPS if op != "input"]
STRUCTURES = ["output:no_tensor", "output:empty", "output:number", "output:repeated"]


def _held(strategy) -> Counter:
    """How many of the derandomised draws hold each structure (``mixed:`` as one)."""
    seen: Counter = Counter()

    @DRAWS
    @given(st.data())
    def draw(data) -> None:
        features = case_features(data.draw(strategy))
        seen.update({f.partition(":")[0] if f.startswith("mixed:") else f for f in features} & {"mixed", *STRUCTURES})

    draw()
    return seen


def test_a_case_holds_its_structures() -> None:
    x0, x1 = Input("x0", "float32", (2,)), Input("x1", "int64", (2,))
    add = Value("add", ("x0", "x1"), (), "float32", (2,))
    twice = Case(inputs=(x0, x1), values=(add,), output=Container("tuple", (Ref(0), Ref(0))))
    assert {"mixed:add", "output:repeated", "op:add@float32"} <= case_features(twice)
    assert "output:no_tensor" not in case_features(twice)
    # An input returned through two values is one tensor returned twice; None alone holds no tensor.
    as_is = Value("input", ("x0",), (), "float32", (2,))
    inputs = Case(inputs=(x0,), values=(as_is, as_is, Value("none", (), (), None, None, "NoneType")),
                  output=Container("tuple", (Ref(0), Ref(1))))
    assert "output:repeated" in case_features(inputs) and "output:no_tensor" not in case_features(inputs)
    nothing = Case(inputs=(x0,), values=inputs.values, output=Container("list", (Ref(2),)))
    assert "output:no_tensor" in case_features(nothing) and "output:empty" not in case_features(nothing)
    assert "output:empty" in case_features(Case(inputs=(x0,), values=inputs.values, output=Container("dict")))
    number = Case(inputs=(x0,), values=(Value("shape", ("x0",), (("dim", 0),), None, None, "int"), as_is),
                  output=Container("tuple", (Ref(0), Ref(1))))
    assert "output:number" in case_features(number)


def test_exclude_leaves_structures_and_mixed_operands_out() -> None:
    free = _held(cases())
    assert min(free[f] for f in ("mixed", *STRUCTURES)) >= 10, free  # the suite draws all three
    assert _held(cases(exclude=EVERY_MIXED))["mixed"] == 0
    structured = _held(cases(exclude=STRUCTURES))
    assert structured["output:repeated"] == structured["output:number"] == 0
    # No tensor (or no leaf) only where the program computes none (a None alone).
    for shape in ("output:no_tensor", "output:empty"):
        assert structured[shape] <= free[shape] // 5, (structured, free)


def test_feature_names_are_checked() -> None:
    assert left_out(["mixed:add", "output:repeated", "op:abs@int8"]).outputs == {"repeated"}
    assert left_out(["container:mapping"]).kinds == {"dict", "ordered_dict", "model_output", "plain_dict_subclass"}
    assert left_out(["output:mutation"]).ops == {"buffer_update", "counter", "input_update"}
    assert dict(left_out(["op:log@integral"]).banned)["log"] == {"bool", "uint8", "int8", "int16", "int32", "int64"}
    for bad in ("output:nothing", "mixed:input", "mixed:add@int8", "shape:add", "op:log@odd"):
        with pytest.raises(InvalidArgument, match="mixed:<name>"):
            cases(exclude=[bad])
    assert left_out(["output:nothing"], argument=None).outputs == frozenset()  # a steer skips it


def test_a_run_steers_away_from_a_structure_a_bug_row_keeps_explaining() -> None:
    """A planted frontend (eager, and a bug row claiming every case that returns one
    computed tensor twice, as openvino-same-tensor-twice does): its ops pass elsewhere, so
    only the structure names the cause; the steer learns it, and after the lesson the
    structure is drawn in the free share only."""
    row = Known(id="same-tensor-twice", backends=("*",), kind="bug", reason="one tensor returned at two places")
    steer, held = Steer(), []

    def run_case(case, options):
        held.append("output:repeated" in case_features(case))
        return execute(Eager(), case, options)

    check = seed(5)(settings(DRAWS, max_examples=300)(conformance_property(
        Eager(), "harness", run_case, Recorder(), cases(ops=["add", "neg", "mul"], max_ops=3, steer=steer),
        keep_going=True, known_row=lambda verdict: row if held[-1] else None, learner=Learner(steer))))
    check()
    assert steer.demoted["output:repeated"]["row"] == row.id, steer.demoted
    lesson = next(i for i in range(0, len(held), 10) if sum(held[:i]) >= 3) + 10
    after = held[lesson:]
    assert 0 < sum(after) <= 2 * len(after) // FREE_ONE_IN, (sum(held[:lesson]), sum(after), len(after))


def test_a_demoted_feature_that_reaches_the_judge_is_drawn_freely_again() -> None:
    """A lesson of ten cases can be wrong (a tuple output seen only beside known bugs), and
    an upstream fix makes one so: the free share's case that passes restores it."""
    x0 = Input("x0", "float32", (2,))
    case = Case(inputs=(x0,), values=(Value("neg", ("x0",), (), "float32", (2,)),), output=Container("tuple", (Ref(0),)))
    steer = Steer()
    steer.demote({"container:tuple": {"row": "r", "cases": 3}, "op:abs": {"row": "r", "cases": 3}})
    learner = Learner(steer)
    learner.observe(case, None, Verdict(backend="b", outcome="pass"))
    assert set(steer.demoted) == {"op:abs"}
    steer.freeze()  # a failing case being shrunk: the steer draws as it did
    steer.restore({"op:abs"})
    assert set(steer.demoted) == {"op:abs"}
