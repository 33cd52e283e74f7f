"""A campaign over many machines: shards that split every backend's budget without
drawing the same cases, one report merged from theirs, and one example database through
which a failure one run found is replayed first by the next."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from harness.conformance import Recorder, conformance_property, shard_budget
from harness.registry import load_backend
from harness.verdict import Verdict
from harness.versions import frontend_distributions, versions
from reports.merge import main as merge_main
from strategies import case_to_json, engine
from tests.processes import run_suite


@pytest.fixture
def profile():
    """Load a profile for the test's duration (the shards read their budget from it)."""
    before = settings.get_current_profile_name()

    def load(**chosen):
        settings.register_profile("campaign-test", deadline=None, database=None,
                                  suppress_health_check=list(HealthCheck), **chosen)
        settings.load_profile("campaign-test")

    yield load
    settings.load_profile(before)


def _drawn(index: int, count: int) -> list[str]:
    """The cases part ``index`` of ``count`` draws, in order."""
    backend = load_backend("reference")
    drawn = []

    def run_case(case, options):
        drawn.append(json.dumps(case_to_json(case), sort_keys=True))
        return Verdict(backend=backend.name, outcome="pass")

    conformance_property(backend, "reference", run_case, Recorder(), shard=(index, count))()
    return drawn


@pytest.mark.parametrize("derandomize", [True, False], ids=["derandomised", "seeded"])
def test_shards_draw_different_cases_and_together_run_exactly_the_budget(profile, derandomize):
    profile(max_examples=91, derandomize=derandomize)  # 91: the parts cannot be equal
    with engine.seeded(None if derandomize else 7):
        parts = [_drawn(i, 4) for i in range(4)]
        again = _drawn(2, 4)
    assert [len(p) for p in parts] == [shard_budget(91, i, 4) for i in range(4)] == [23, 23, 23, 22]
    assert again == parts[2]  # a part is the same cases on any machine
    for a, b in combinations(parts, 2):
        # Each part starts from Hypothesis's simplest case; past that, other cases.
        assert a != b and len(set(a) & set(b)) <= 3, len(set(a) & set(b))


def _run(reports: Path, *args: str, profile: str, examples: int) -> subprocess.CompletedProcess:
    env = {"ROUNDTRIP_PROFILE": profile, "ROUNDTRIP_MAX_EXAMPLES": str(examples),
           "ROUNDTRIP_REPORTS": str(reports), "ROUNDTRIP_CORPUS": str(reports / "corpus")}
    return run_suite("-p", "no:xdist", "--no-isolation", "--calibration", "off", *args, env=env)


def _counts(findings: dict) -> dict:
    """Everything a merge must add up exactly (all but the seconds)."""
    return {"run": findings["run"]["cases"], "outcomes": findings["outcomes"], "known": findings["known"],
            "new": {s: e["count"] for s, e in findings["new"].items()}, "features": findings["features"],
            "absorbed": {row: {s: e["count"] for s, e in seen.items()} for row, seen in findings["absorbed"].items()},
            "deviations": findings["deviations"]}


def test_two_machines_merged_count_what_one_run_of_both_parts_counts(tmp_path, capsys):
    backends = [a for b in ("reference", "tests.harness_backends:Int64ToInt32", "tests.harness_backends:ListToTuple")
                for a in ("--backend", b)]
    for i in (0, 1):
        _run(tmp_path / f"machine{i}", *backends, "--keep-going", "--shard-index", str(i), "--shard-count", "2",
             profile="ci", examples=40)
    _run(tmp_path / "one", *backends, "--keep-going", "--shards", "2", profile="ci", examples=40)
    assert merge_main([str(tmp_path / "machine0"), str(tmp_path / "machine1"), "--out", str(tmp_path / "merged")]) == 0
    merged = json.loads((tmp_path / "merged" / "findings.json").read_text())
    one = json.loads((tmp_path / "one" / "findings.json").read_text())
    assert _counts(merged) == _counts(one)
    assert sum(merged["run"]["cases"].values()) == 3 * 40 and merged["new"] and merged["known"]
    halves = [json.loads((tmp_path / f"machine{i}" / "findings.json").read_text()) for i in (0, 1)]
    assert all(sum(h["run"]["cases"].values()) == 3 * 20 for h in halves)
    summary = (tmp_path / "merged" / "summary.md").read_text()
    assert "Merged from 2 runs' reports" in summary and "distort-int64_to_int32" in summary
    assert (tmp_path / "merged" / "summary.html").exists()

    # Runs of other versions do not add up: the merge names the difference and writes nothing.
    halves[1]["versions"]["torch"] = "0.0.0"
    (tmp_path / "machine1" / "findings.json").write_text(json.dumps(halves[1]))
    assert merge_main([str(tmp_path / "machine0"), str(tmp_path / "machine1"), "--out", str(tmp_path / "other")]) == 1
    assert "torch: " in capsys.readouterr().err and not (tmp_path / "other").exists()


def _first_case_and_finding(reports: Path) -> tuple[str, dict]:
    records = [json.loads(line) for line in (reports / "journal-main.jsonl").read_text().splitlines()]
    first = next(r["case"]["outcome"] for r in records if "case" in r)
    (finding,) = json.loads((reports / "findings.json").read_text())["new"].values()
    return first, finding


def test_a_failure_one_shard_saved_is_replayed_first_by_another_shard_next_time(tmp_path):
    backend = ("--backend", "tests.harness_backends:Int64ToInt32")
    last_night = tmp_path / "db-shard0"  # stands in for the uploaded artifact
    found = _run(tmp_path / "night1", *backend, "--shard-index", "0", "--shard-count", "2",
                 "--database", str(last_night), profile="nightly", examples=300)
    assert found.returncode == 1, found.stdout[-3000:]
    assert any(last_night.rglob("*")), "the shrunk failure was not saved"
    _, shrunk = _first_case_and_finding(tmp_path / "night1")

    tonight = tmp_path / "db-shard1"
    replayed = _run(tmp_path / "night2", *backend, "--shard-index", "1", "--shard-count", "2",
                    "--database", str(tonight), "--database-from", str(last_night), profile="nightly", examples=300)
    assert replayed.returncode == 1, replayed.stdout[-3000:]
    first, finding = _first_case_and_finding(tmp_path / "night2")
    assert first == "mismatch" and finding["case"] == shrunk["case"]
    assert any(tonight.rglob("*")), "the replayed failure was not saved for the night after"

    # Without last night's database the same shard starts from Hypothesis's simplest case.
    fresh = _run(tmp_path / "control", *backend, "--shard-index", "1", "--shard-count", "2",
                 "--database", str(tmp_path / "db-fresh"), profile="nightly", examples=300)
    assert fresh.returncode == 1 and _first_case_and_finding(tmp_path / "control")[0] == "pass"


def test_the_ci_profile_replays_no_database(tmp_path):
    refused = _run(tmp_path, "--backend", "reference", "--database", str(tmp_path / "db"), profile="ci", examples=5)
    assert refused.returncode == pytest.ExitCode.USAGE_ERROR and "derandomised" in refused.stderr, refused.stderr


def test_a_run_records_the_version_of_every_installed_frontend():
    # Shards that ran another ONNX Runtime or OpenVINO must not add up (reports.merge).
    found = versions()
    for dist in frontend_distributions():
        try:
            installed = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
        assert found.get(dist) == installed, (dist, found)
    assert {"onnxruntime", "openvino", "apache-tvm", "torch-tensorrt"} <= set(frontend_distributions())


def test_the_budget_variable_holds_under_a_named_profile(tmp_path):
    # The option wins over ROUNDTRIP_PROFILE; ROUNDTRIP_MAX_EXAMPLES goes on top of either.
    run = _run(tmp_path, "--backend", "reference", "--roundtrip-profile", "nightly", profile="dev", examples=7)
    assert run.returncode == 0, run.stdout[-2000:]
    assert json.loads((tmp_path / "findings.json").read_text())["run"]["cases"] == {"reference": 7}
