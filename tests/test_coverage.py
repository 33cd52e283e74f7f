"""Op x dtype coverage (strategies/coverage.py): the pairs a case needs, the pairs the
generator admits, and the summary's section on them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import InvalidArgument

from harness.calibration import calibration_features
from harness.conformance import Recorder
from harness.subjects import kind_of
from harness.verdict import Verdict
from reports.merge import merge
from reports.summary import pair_coverage, write_latest
from strategies import OPS, Case, Container, Input, Ref, Value, admitted_pairs, cases, op_dtype_pairs
from strategies.coverage import probe_key

#: An int16 input and a 0-d float32 one: add promotes to float32, whose abs is returned;
#: neg is computed but not needed (the pruned case has no neg).
CASE = Case(
    inputs=(Input("x0", "int16", (2, 3)), Input("x1", "float32", ())),
    values=(
        Value("input", ("x0",)),
        Value("add", ("x0", "x1")),
        Value("abs", ("v1",)),
        Value("neg", ("x1",)),
        Value("none"),
    ),
    output=Container("tuple", (Ref(0), Ref(2), Ref(4))),
)


def test_op_dtype_pairs_are_the_needed_ops_on_their_first_operands_dtype():
    assert op_dtype_pairs(CASE) == {"add@int16", "abs@float32"}
    # One idea in one place: calibration and the run's features count the same pairs.
    assert {f for f in calibration_features(CASE) if "@" in f} == {"op:add@int16", "op:abs@float32",
                                                                    "op:add@integral", "op:abs@floating"}
    assert calibration_features(CASE) >= {"op:add", "op:abs", "op:none", "container:tuple"}
    assert "op:neg" not in calibration_features(CASE)
    assert {f for f in kind_of(CASE).features(CASE) if "@" in f} == {"op:add@int16", "op:abs@float32"}


def test_admitted_pairs_are_what_the_ops_accept():
    admitted = admitted_pairs()
    assert {"add@int16", "clamp@int16", "amax@uint8", "where@bool", "lshift_scalar@int8"} <= admitted
    assert "where@float32" not in admitted  # a condition is a bool
    assert "add@complex64" not in admitted and "add@complex64" in admitted_pairs(include_complex=True)
    names = {p.partition("@")[0] for p in admitted}
    assert "input" not in names and "item" not in names  # every case has input; item takes tuples
    assert not names & {n for n, op in OPS.items() if op.arity == 0}
    assert admitted_pairs() is admitted  # probed once


def test_the_probe_is_kept_in_the_cache_under_the_generators_key(tmp_path):
    """A run's summary reads the probe from its cache: computed once, then read back, and
    what the file under the generator's key holds is what is answered."""
    assert admitted_pairs(cache=tmp_path / "a") == admitted_pairs()
    [kept] = (tmp_path / "a" / "admitted-pairs").glob("*.json")
    assert kept.stem == probe_key() and set(json.loads(kept.read_text())) == admitted_pairs()
    planted = tmp_path / "b" / "admitted-pairs" / kept.name
    planted.parent.mkdir(parents=True)
    planted.write_text(json.dumps(["add@int16"]))
    assert admitted_pairs(cache=tmp_path / "b", exclude=["op:clamp"]) == {"add@int16"}
    assert probe_key(include_complex=True) != probe_key()


def test_exclude_takes_what_cases_takes():
    left = admitted_pairs(exclude=["op:add", "op:clamp@int16", "container:dict"])
    assert not any(p.startswith("add@") for p in left)
    assert "clamp@int16" not in left and "clamp@int8" in left
    assert left == admitted_pairs() - {p for p in admitted_pairs() if p.startswith("add@")} - {"clamp@int16"}
    for bad in (["op:nope"], ["op:input"], ["op:add@int4"], ["dtype:int8"], "op:add"):
        with pytest.raises(InvalidArgument):
            admitted_pairs(exclude=bad)


def _every_value_needed(case: Case) -> Case:
    """The case with every value returned: ``op_dtype_pairs`` of it are all the drawn pairs."""
    return Case(case.inputs, case.values, Container("tuple", tuple(Ref(i) for i in range(len(case.values)))),
                case.seed)


def _drawn_pairs(n: int, **options) -> set[str]:
    met: set[str] = set()

    @settings(max_examples=n, phases=[Phase.generate], database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(cases(**options))
    def draw(case: Case) -> None:
        met.update(op_dtype_pairs(_every_value_needed(case)))

    draw()
    return met


def test_every_pair_drawn_is_admitted():
    """The probe under-approximates nothing the generator draws (in these cases)."""
    met = _drawn_pairs(300)
    assert len(met) > 100
    assert met <= admitted_pairs(), sorted(met - admitted_pairs())


def test_excluded_pairs_are_neither_drawn_nor_admitted():
    exclude = ["op:relu@float32", "op:add"]
    met = _drawn_pairs(150, exclude=exclude)
    assert "relu@float32" not in met and not any(p.startswith("add@") for p in met)
    assert met <= admitted_pairs(exclude=exclude), sorted(met - admitted_pairs(exclude=exclude))


def _recorder(backend: str, outcome: str = "pass", calibration: dict | None = None) -> Recorder:
    recorder = Recorder()
    recorder.record(CASE, Verdict(backend=backend, outcome=outcome), None)
    if calibration is not None:
        recorder.record_calibration(backend, calibration)
    return recorder


def test_summary_reports_op_x_dtype_coverage_per_backend(tmp_path: Path):
    calibrated = {"key": "k", "cases": 100, "cached": True,
                  "features": {"op:sort": {"row": "no-sort", "cases": 5}, "op:relu@int8": {"row": "r", "cases": 2}}}
    recorder = _recorder("harness-a", calibration=calibrated)
    recorder.add(_recorder("harness-b", outcome="crash"))
    write_latest(recorder, tmp_path)
    md = (tmp_path / "summary.md").read_text()
    html = (tmp_path / "summary.html").read_text()
    everything = len(admitted_pairs())
    left = admitted_pairs(exclude=calibrated["features"])
    assert len(left) < everything and not any(p.startswith("sort@") for p in left) and "relu@int8" not in left
    for text in (md, html):
        assert "harness-a: op x dtype coverage" in text and "harness-b: op x dtype coverage" in text
        assert f"op x dtype: 2 of {len(left)} admitted pairs met ({100 * 2 / len(left):.1f}%), after calibration " \
               "left out 2 features" in text
        assert f"op x dtype: 2 of {everything} admitted pairs met ({100 * 2 / everything:.1f}%)." in text
        assert "Admitted, not met" in text
    assert "| add@int16 | 1 | 0 | 0 | 0 | 0 |" in md and "| abs@float32 | 0 | 0 | 1 | 0 | 0 |" in md
    # The per-op table keeps one row per op: the pairs have their own section.
    per_op = md.split("## harness-a: outcomes by op")[1].split("##")[0]
    assert "| add |" in per_op and "@" not in per_op
    findings = json.loads((tmp_path / "findings.json").read_text())
    assert findings["coverage"]["harness-a"] == {"admitted": len(left), "met": 2, "share": round(2 / len(left), 4)}


def test_coverage_survives_a_merge_of_shards(tmp_path: Path):
    for i in (0, 1):
        write_latest(_recorder("harness-a", outcome=("pass", "crash")[i]), tmp_path / f"part{i}",
                     run_versions={"torch": "x"})
    merged, _, _ = merge([tmp_path / "part0", tmp_path / "part1"])
    cov = pair_coverage(merged, "harness-a")
    assert cov["hit"] == 2 and dict(cov["met"]["add@int16"]) == {"pass": 1, "crash": 1}
    assert not cov["outside"]
