"""Calibration (harness/calibration.py): what a frontend rejects cleanly is learned in a
short pass, cached, and left out of the run; nothing else ever is."""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import InvalidArgument

from harness import calibration
from harness.backends.base import CompileContext
from harness.backends.reference import Eager
from harness.calibration import calibrate, calibration_features, learn
from harness.known import Known
from harness.runner import execute
from strategies import cases
from strategies.containers import ModelOutput
from tests.harness_backends import contains
from tests.processes import start_run


class RejectsOrderedDict(Eager):
    """Rejects OrderedDict outputs cleanly (an error its table documents); crashes on
    dict subclasses registered like ModelOutput (a bug, not in its table)."""

    name = "harness-rejects-ordered-dict"

    def version(self) -> str:
        return "harness 1"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        out = compiled(*ctx.args, **ctx.kwargs)
        # The clean rejection first, as a frontend refuses what it documents before it
        # trips over the rest: outputs hold several containers, and a plain OrderedDict
        # beside a ModelOutput (an OrderedDict subclass) that crashed would leave the
        # OrderedDict out of what may be learned.
        if contains(out, _PlainOrderedDict):
            raise NotImplementedError("OrderedDict outputs are not supported")
        if contains(out, ModelOutput):
            raise RuntimeError("lost track of a ModelOutput")
        return out


class _PlainOrderedDictMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return type(obj) is collections.OrderedDict


class _PlainOrderedDict(metaclass=_PlainOrderedDictMeta):
    """An OrderedDict itself, not a subclass (``isinstance`` through ``contains``)."""


ROOT = Path(__file__).resolve().parents[1]
NO_ORDERED_DICT = Known(id="harness-no-ordered-dict", backends=("*",), kind="unsupported", errors=("NotImplementedError",),
                        message=r"OrderedDict outputs are not supported", reason="")


def table(verdict):
    return NO_ORDERED_DICT if NO_ORDERED_DICT.matches(verdict) else None


def test_learn_picks_the_cause_not_what_rode_along():
    dict_sub, mul, scalar = "container:plain_dict_subclass", "op:mul", "op:const_float"
    records = [
        (frozenset({dict_sub, mul}), "no-dict-subclass"),
        (frozenset({dict_sub, mul}), "no-dict-subclass"),
        (frozenset({dict_sub}), "no-dict-subclass"),
        (frozenset({scalar, "op:const_float@float32"}), "no-scalar"),
        (frozenset({scalar, dict_sub}), "no-dict-subclass"),  # two causes: either row
        (frozenset({scalar}), "no-scalar"),
        (frozenset({"op:sum"}), "no-sum"),  # seen once: not enough
        (frozenset({"op:relu"}), "no-relu"),
        (frozenset({"op:relu"}), None),  # also passed (or crashed): never excluded
    ]
    chosen = learn(records)
    assert chosen == {dict_sub: {"row": "no-dict-subclass", "cases": 4}, scalar: {"row": "no-scalar", "cases": 2}}


def test_a_clean_rejection_is_calibrated_away_cached_and_never_drawn(tmp_path, monkeypatch):
    backend = RejectsOrderedDict()
    run = lambda case, options: execute(backend, case, options)  # noqa: E731
    learned = calibrate(backend, backend.name, run, known_row=table, cache=tmp_path)
    assert not learned["cached"] and learned["cases"] == calibration.CALIBRATION_CASES
    # Only the cause: not the ops that rode along, not the ModelOutput (a crash: a bug).
    assert set(learned["features"]) == {"container:ordered_dict"}, learned["features"]
    assert learned["features"]["container:ordered_dict"]["row"] == "harness-no-ordered-dict"
    # The second time, from the cache; a new frontend version makes a new pass.
    assert calibrate(backend, backend.name, run, known_row=table, cache=tmp_path)["cached"]
    monkeypatch.setattr(RejectsOrderedDict, "version", lambda self: "harness 2")
    assert not calibrate(backend, backend.name, run, known_row=table, cache=tmp_path)["cached"]

    @settings(max_examples=200, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(cases(exclude=learned["features"]))
    def never_drawn(case):
        assert "container:ordered_dict" not in calibration_features(case)

    never_drawn()


def test_an_op_on_one_dtype_is_left_out_alone():
    @settings(max_examples=300, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(cases(exclude=["op:relu@float32", "container:dict"]))
    def check(case):
        features = calibration_features(case)
        assert "op:relu@float32" not in features and "container:dict" not in features

    check()
    with pytest.raises(InvalidArgument):
        cases(exclude=["op:input"]).example()


def test_ctrl_c_during_a_calibration_pass_stops_the_run_and_leaves_no_partial_cache(tmp_path):
    args = [sys.executable, "-m", "pytest", "suites/test_conformance.py::test_outputs_round_trip", "-q", "-p", "no:cacheprovider",
            "-p", "no:xdist", "--calibration", "refresh", "--backend", "tests.harness_backends:Int64ToInt32",
            "--database", str(tmp_path / "examples")]  # not the project's, shared with other tests
    env = {**os.environ, "ROUNDTRIP_PROFILE": "nightly", "ROUNDTRIP_CACHE": str(tmp_path / "cache"),
           "ROUNDTRIP_CORPUS": str(tmp_path / "corpus"), "ROUNDTRIP_REPORTS": str(tmp_path / "reports")}
    process = start_run(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(4)  # start-up, then inside the pass
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the run did not stop within 120 s of Ctrl-C during calibration")
    cache = tmp_path / "cache" / "calibration"
    assert not [p for p in cache.glob("*") if ".tmp" in p.name], list(cache.iterdir())
    for done in cache.glob("*.json"):  # a pass that finished before the signal is whole
        assert json.loads(done.read_text())["cases"] == calibration.CALIBRATION_CASES
