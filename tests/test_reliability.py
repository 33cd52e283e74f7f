"""Reliability: a run keeps going through crashes, hangs and kills and records them;
an interrupted run leaves the corpus consistent; ci-profile runs repeat exactly."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from harness.conformance import ConformanceFailure
from harness.registry import load_backend
from harness.runner import execute
from harness.worker import Worker
from reports import entries as corpus_module
from reports.entries import load_entries, save_finding
from strategies import Case, Container, Input, Ref, Value
from tests.processes import run_suite, start_run

ROOT = Path(__file__).parent.parent
SCALAR = (Input("x0", "float32", ()),), (Value("input", ("x0",)),)
DICT_CASE = Case(*SCALAR, Container("dict", (Ref(0),), ("a",)))
BARE_CASE = Case(*SCALAR, Ref(0))
HARNESS = ("tests.harness_backends:Segfault", "tests.harness_backends:Hang", "tests.harness_backends:Killed")


def test_worker_killed_mid_case_is_a_crash_and_the_worker_restarts():
    worker = Worker(timeout=60)
    worker.run("tests.harness_backends:Hang", BARE_CASE, {})  # started and warm
    victim = worker.pid
    threading.Timer(2.0, os.kill, (victim, signal.SIGKILL)).start()
    verdict = worker.run("tests.harness_backends:Hang", DICT_CASE, {})  # sleeps: killed mid-case
    assert verdict.outcome == "crash" and "SIGKILL" in verdict.message, verdict
    assert worker.run("tests.harness_backends:Hang", BARE_CASE, {}).outcome == "pass"
    assert worker.pid != victim and worker.restarts == 1
    worker.close()


def test_session_survives_segfault_hang_and_kill_and_records_them(tmp_path):
    """The real suite, in --keep-going survey mode, through three backends that die."""
    env = {"ROUNDTRIP_PROFILE": "ci", "ROUNDTRIP_MAX_EXAMPLES": "15", "ROUNDTRIP_CORPUS": str(tmp_path / "corpus"),
           "ROUNDTRIP_REPORTS": str(tmp_path)}
    run = run_suite(*(a for b in HARNESS for a in ("--backend", b)), "--keep-going", "--case-timeout", "5",
                 "-p", "no:xdist", env=env)
    assert run.returncode == 1 and "3 failed" in run.stdout, run.stdout[-3000:]
    findings = json.loads((tmp_path / "findings.json").read_text())
    headlines = " | ".join(f"{f['backend']}: {f['headline']}" for f in findings["findings"] if f["kind"] == "new")
    assert "segfault: WorkerDied: the worker process died: signal SIGSEGV" in headlines, headlines
    assert "hang: Timeout: no answer within 5 s" in headlines, headlines
    assert "killed: WorkerDied: the worker process died: signal SIGKILL" in headlines, headlines
    outcomes = {(b, o) for b, o, _ in findings["outcomes"]}
    assert {("segfault", "pass"), ("hang", "pass"), ("killed", "pass")} <= outcomes  # it went on


def _failure(backend_spec: str, case: Case) -> ConformanceFailure:
    backend = load_backend(backend_spec)
    return ConformanceFailure(backend, backend_spec, case, {}, execute(backend, case, {}))


def test_interrupted_corpus_write_leaves_nothing_half_written(tmp_path, monkeypatch):
    failure = _failure("tests.harness_backends:Int64ToInt32",
                       Case((Input("x0", "int64", ()),), (Value("input", ("x0",)),), Ref(0)))
    assert failure.verdict.outcome == "mismatch"

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(corpus_module, "subject_reproducer", interrupted)  # Ctrl-C mid-write
        with pytest.raises(KeyboardInterrupt):
            save_finding(failure, tmp_path)
    assert load_entries(tmp_path) == [] and sorted(p.name for p in tmp_path.iterdir()) == [".lock"]
    entry = save_finding(failure, tmp_path)
    (loaded,) = load_entries(tmp_path)
    assert loaded.path == entry and loaded.meta["count"] == 1


def test_ctrl_c_at_any_moment_leaves_the_corpus_consistent(tmp_path):
    """SIGINT to a real run that is finding and saving bugs, at several moments."""
    args = [sys.executable, "-m", "pytest", "suites/test_conformance.py::test_outputs_round_trip", "-q", "-p", "no:cacheprovider",
            "-p", "no:xdist", "--hypothesis-seed=3", "--calibration", "off",  # (tests/test_calibration.py has its own)
            "--database", str(tmp_path / ".examples")]  # not the project's, shared with other tests
    args += [a for name in ("Int64ToInt32", "DropDictKey", "LoseNone", "ListToTuple")
             for a in ("--backend", f"tests.harness_backends:{name}")]
    env = {**os.environ, "ROUNDTRIP_PROFILE": "nightly", "ROUNDTRIP_CORPUS": str(tmp_path / "corpus"),
           "ROUNDTRIP_REPORTS": str(tmp_path / "reports")}
    untriaged = tmp_path / "reports" / "untriaged"  # where a run files its findings (each run's own)
    # Three blind moments, then one right after the first entry lands (mid-way through
    # the next search, or the next write).
    for delay in (2.0, 5.0, 9.0, None):
        log = tmp_path / f"run-{delay}.log"
        shutil.rmtree(untriaged, ignore_errors=True)  # the run clears it too: not before this one is watched
        with log.open("w") as out:
            process = start_run(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        if delay is None:
            deadline = time.monotonic() + 300
            while not (untriaged.exists() and load_entries(untriaged)) and process.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.05)
        else:
            time.sleep(delay)
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail(f"the run did not stop within 60 s of Ctrl-C (sent after {delay} s); "
                        f"its output ends:\n{log.read_text()[-4000:]}")
        entries = load_entries(untriaged)
        assert all(not isinstance(e, Exception) for e in entries), entries
        assert not [p for p in untriaged.glob("*") if p.name.endswith((".new", ".tmp"))]
    assert not (tmp_path / "corpus").exists(), "a run wrote into the corpus"
    assert entries, "no run got as far as saving a finding"


# A process that swallows KeyboardInterrupt (as some library did, now and then) with the
# conftest's handler, its repeats shortened: "once" then blocks in a call, "always" never stops.
_SWALLOWER = """
import signal, sys, time
from suites import plugin
plugin.INTERRUPT_AGAIN_SECONDS, plugin.INTERRUPT_GIVE_UP_SECONDS = 1.0, 3.0
signal.signal(signal.SIGINT, plugin._interrupt)
swallowed = 0
while True:
    try:
        print("ready", flush=True)
        time.sleep(1000)
    except KeyboardInterrupt:
        swallowed += 1
        if sys.argv[1] == "once" and swallowed > 1:
            raise
"""


@pytest.mark.parametrize("swallows", ["once", "always"])
def test_an_interrupt_something_swallowed_still_ends_the_run(swallows):
    process = start_run([sys.executable, "-c", _SWALLOWER, swallows], cwd=ROOT, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "ready\n"
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    took = time.monotonic() - started
    if swallows == "once":  # the repeat lands in the blocking call: an ordinary KeyboardInterrupt
        # Ended by the repeat (after 1 s), not by the hard end at 3 s: the hard end exits
        # 128 + SIGINT and prints its stacks. Told apart by that, not by the wall clock,
        # which on a loaded machine also counts the child's exit.
        assert process.returncode == -signal.SIGINT and "KeyboardInterrupt" in err and 0.9 < took, (took, err)
        assert "still running" not in err, err
    else:  # ended hard at the last, with the stack of what would not stop (line 10: the sleep)
        assert process.returncode == 128 + signal.SIGINT, err
        assert "still running 3 s after SIGINT" in err and '"<string>", line 10 in <module>' in err and 2.9 < took < 5, (took, err)


def test_two_ci_runs_give_identical_findings(tmp_path):
    """The ci profile is derandomised: the same cases, so the same outcomes, every run."""
    pytest.importorskip("tvm")
    env = {"ROUNDTRIP_PROFILE": "ci", "ROUNDTRIP_MAX_EXAMPLES": "25", "ROUNDTRIP_CORPUS": str(tmp_path / "corpus"),
           "ROUNDTRIP_REPORTS": str(tmp_path)}
    # A frontend that compiles beside the reference: determinism is the draws', not a frontend's.
    backends = [a for b in ("reference", "tvm-ep") for a in ("--backend", b)]
    seen = []
    for _ in range(2):
        run_suite(*backends, "--keep-going", "-n", "2", env=env)
        findings = json.loads((tmp_path / "findings.json").read_text())
        seen.append((findings["outcomes"], findings["known"], sorted(findings["new"])))
    assert seen[0] == seen[1], seen
    assert sum(n for _, _, n in seen[0][0]) == 2 * 25


def test_a_worker_that_grew_too_much_is_replaced_before_the_next_case():
    worker = Worker(timeout=60, max_rss_growth=0)  # any growth at all
    worker.run("eager", BARE_CASE, {})
    first = worker.pid
    for _ in range(20):  # some case grows the heap a little; then a fresh worker runs the next
        assert worker.run("eager", DICT_CASE, {}).outcome == "pass"
        if worker.recycled:
            break
    assert worker.recycled >= 1 and worker.pid != first
    assert worker.run("eager", BARE_CASE, {}).outcome == "pass"
    worker.close()
