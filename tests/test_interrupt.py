"""An interrupted parallel run keeps every finding it made: each pytest process journals
every case as it records it, and the reports are built from the journals, whether the
session ended, was stopped by Ctrl-C or SIGTERM, or was killed outright (then
``python -m reports.summary DIR`` rebuilds them)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.conformance import Recorder
from reports.summary import rebuild
from tests.processes import start_run

ROOT = Path(__file__).resolve().parents[1]


def _run(reports: Path, *, examples: int) -> subprocess.Popen:
    """A ``-n 2`` run of the reference backend in a process group of its own (as a
    terminal or a CI runner starts one)."""
    env = {**os.environ, "ROUNDTRIP_PROFILE": "dev", "ROUNDTRIP_MAX_EXAMPLES": str(examples),
           "ROUNDTRIP_REPORTS": str(reports), "ROUNDTRIP_CORPUS": str(reports / "corpus")}
    args = [sys.executable, "-m", "pytest", "suites/test_conformance.py::test_outputs_round_trip", "-q", "-p",
            "no:cacheprovider", "-n", "2", "--shards", "2", "--backend", "reference", "--hypothesis-seed=1"]
    return start_run(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _journaled(reports: Path) -> int:
    return sum(1 for j in reports.glob("journal-gw*.jsonl") for line in j.read_text().splitlines() if '"case"' in line)


def _interrupt_after(reports: Path, process: subprocess.Popen, cases: int, how: signal.Signals, *,
                     group: bool) -> None:
    deadline = time.monotonic() + 240
    while _journaled(reports) < cases:
        assert process.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() < deadline, "no cases journaled in time"
        time.sleep(0.2)
    if group:
        os.killpg(process.pid, how)
    else:
        process.send_signal(how)
    try:
        process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"the run did not stop within 120 s of {how.name}")


def _counts(findings: dict) -> tuple:
    return findings["outcomes"], findings["known"], sorted(findings["new"]), findings["run"]["cases"]


def _journal_counts(reports: Path) -> tuple:
    recorder = Recorder.from_journals(sorted(reports.glob("journal-*.jsonl")))
    data = recorder.to_dict()
    cases = {}
    for (backend, _), n in recorder.outcomes.items():
        cases[backend] = cases.get(backend, 0) + n
    return data["outcomes"], data["known"], sorted(data["new"]), cases


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stopped_run_writes_its_reports_from_what_it_recorded(tmp_path, how):
    # Ctrl-C reaches the whole process group; a CI time limit's SIGTERM may reach only
    # the process it started.
    process = _run(tmp_path, examples=100_000)
    _interrupt_after(tmp_path, process, 12, how, group=how is signal.SIGINT)
    findings = json.loads((tmp_path / "findings.json").read_text())
    assert findings["run"]["status"] == "interrupted", findings["run"]
    assert sum(findings["run"]["cases"].values()) >= 12
    assert _counts(findings) == _journal_counts(tmp_path)
    assert "Run: interrupted" in (tmp_path / "summary.md").read_text()


def test_a_killed_run_is_rebuilt_from_its_journals(tmp_path):
    process = _run(tmp_path, examples=100_000)
    _interrupt_after(tmp_path, process, 12, signal.SIGKILL, group=True)
    assert not (tmp_path / "findings.json").exists()  # nothing ran at the end
    done = subprocess.run([sys.executable, "-m", "reports.summary", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    findings = json.loads((tmp_path / "findings.json").read_text())
    assert findings["run"]["status"] == "killed"
    assert sum(findings["run"]["cases"].values()) >= 12
    assert _counts(findings) == _journal_counts(tmp_path)


def test_the_rebuild_gives_what_the_end_of_the_session_wrote(tmp_path):
    process = _run(tmp_path, examples=16)
    assert process.wait(timeout=600) == 0
    at_the_end = json.loads((tmp_path / "findings.json").read_text())
    assert at_the_end["run"] == {"status": "complete", "cases": {"reference": 16}}
    recorder, status = rebuild(tmp_path)
    assert status == "complete"
    subprocess.run([sys.executable, "-m", "reports.summary", str(tmp_path)], cwd=ROOT, check=True, timeout=120,
                   capture_output=True)
    rebuilt = json.loads((tmp_path / "findings.json").read_text())
    assert rebuilt == at_the_end
