"""Dynamic shapes: declarations drawn and checked, and the harness catches a frontend that
compiles once for the example and goes wrong at other sizes, without a false alarm on
one that recompiles per size."""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from harness.conformance import ConformanceFailure, Recorder, conformance_property
from harness.runner import execute
from strategies import case_from_json, case_to_json, cases, engine, materialize
from strategies.dynamic import dynamic_shapes, resized, size_roles, statically, valid_at
from tests.harness_backends import RecompilesPerSize, SpecializesToExample, StuckAtMax, distorting_backend

DRAWS = settings(max_examples=120, database=None, derandomize=True, phases=[Phase.generate], deadline=None,
                 suppress_health_check=list(HealthCheck))


def _drawn(n: int = 120) -> list:
    found = []

    @settings(DRAWS, max_examples=n)
    @given(cases(dynamic=True, exportable=True))
    def collect(case):
        found.append(case)

    collect()
    return found


def test_declarations_are_valid_and_round_trip_through_json():
    drawn = _drawn()
    dynamic = [c for c in drawn if c.dynamic is not None]
    assert len(dynamic) >= len(drawn) // 3, f"only {len(dynamic)} of {len(drawn)} draws declare a dynamic dim"
    for case in dynamic:
        assert case_from_json(case_to_json(case)) == case
        assert valid_at(case)
        roles = [role for role, _ in size_roles(case)]
        assert roles[0] == "example" and len(roles) >= 2, roles  # max is the example where numel bounds it
        for symbol in case.dynamic.symbols:
            assert symbol.min <= symbol.max
        for _, sizes in size_roles(case):  # the inputs take every size, eager runs there
            model, args, kwargs = materialize(statically(resized(case, sizes)))
            model(*args, **kwargs)
    assert any(len(c.dynamic.symbols) > 1 for c in dynamic), "no case with two symbols"
    assert any(s.min <= 1 for c in dynamic for s in c.dynamic.symbols), "no range reaching 0 or 1"


def test_torch_export_accepts_nearly_every_declaration():
    """A constraint violation is the generator's fault: under 5% of declarations."""
    from torch.export import export

    dynamic = [c for c in _drawn() if c.dynamic is not None]
    violations = 0
    for case in dynamic:
        model, args, kwargs = materialize(case)
        try:
            export(model, args, kwargs, dynamic_shapes=dynamic_shapes(case))
        except Exception as exc:
            assert "Constraints violated" in str(exc), exc
            violations += 1
    assert violations <= 0.05 * len(dynamic), f"{violations} of {len(dynamic)} declarations violated"


def _search(backend, budget: int) -> tuple[Recorder, ConformanceFailure | None, float]:
    recorder = Recorder()
    check = seed(20261203)(settings(max_examples=budget, database=None, deadline=None)(conformance_property(
        backend, "harness", lambda case, options: execute(backend, case, options), recorder,
        cases(dynamic=True, exportable=True), dynamic=True)))
    start = time.perf_counter()
    try:
        with engine.unlimited_shrinking():
            check()
    except ConformanceFailure as failure:
        return recorder, failure, time.perf_counter() - start
    return recorder, None, time.perf_counter() - start


@pytest.mark.parametrize("backend", [SpecializesToExample(), StuckAtMax()], ids=lambda b: b.name)
def test_a_frontend_wrong_away_from_one_size_is_caught_and_shrunk(backend):
    _, failure, seconds = _search(backend, 300)
    assert failure is not None, f"{backend.name} was not caught"
    case, verdict = failure.case, failure.verdict
    assert case.dynamic is not None, f"shrunk to a static case: {case_to_json(case)}"
    assert verdict.size_role, verdict.signature()  # a dynamic failure names its size's role
    assert len(case.values) <= 2 and len(case.ops()) <= 2, case_to_json(case)
    assert len(case.dynamic.symbols) == 1 and len(case.dynamic.dims) == 1, json.loads(case_to_json(case))["dynamic"]
    print(f"{backend.name}: {verdict.signature()} in {seconds:.0f} s: {case_to_json(case)}")


def test_a_frontend_that_recompiles_per_size_passes():
    recorder, failure, _ = _search(RecompilesPerSize(), 40)
    assert failure is None, str(failure)
    notes = Counter(n for (_, n), k in recorder.deviations.items() for _ in range(k))
    assert any(n.startswith("recompiled") for n in notes), notes
    assert sum(n for (_, role, _), n in recorder.dynamic.items() if role == "max") > 0


def test_a_failure_the_static_case_repeats_is_probed_once(monkeypatch):
    """A dynamic mismatch the static case at that size repeats is that static verdict; its
    root-cause probes (a compile per value) run once, for the static case, not also for
    the dynamic one that is thrown away."""
    import harness.probes as probes

    probed = []
    real = probes._root_cause
    monkeypatch.setattr(probes, "_root_cause", lambda backend, case, *rest: probed.append(case) or real(backend, case, *rest))
    backend = distorting_backend("nudge_one_value")  # every size, statically too
    for case in _drawn(40):
        if case.dynamic is None:
            continue
        probed.clear()
        verdict = execute(backend, case, {})
        if verdict.outcome == "mismatch" and verdict.root:
            break
    else:
        pytest.fail("no drawn dynamic case had a probed mismatch")
    assert any("compiled statically too" in n for n in verdict.notes), verdict.notes
    assert len(probed) == 1 and probed[0].dynamic is None
