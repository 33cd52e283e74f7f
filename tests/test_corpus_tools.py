"""The corpus end to end: a failure found by the real suite lands as one entry with a
standalone reproducer that exits 1; replay, the report and bad files behave."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reports.corpus import CorpusError, load_entries, render_all, render_report

ROOT = Path(__file__).parent.parent
BACKEND = "tests.harness_backends:Int64ToInt32"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Run the real suite against a distorting backend, twice, into a temp corpus."""
    directory = tmp_path_factory.mktemp("corpus")
    # nightly: up to 2000 examples, stopping at the first failure (found within ~100).
    env = {**os.environ, "ROUNDTRIP_CORPUS": str(directory), "ROUNDTRIP_PROFILE": "nightly",
           "ROUNDTRIP_REPORTS": str(tmp_path_factory.mktemp("reports"))}
    examples = tmp_path_factory.mktemp("examples")
    for _ in range(2):
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "suites/test_conformance.py::test_outputs_round_trip", "-p", "no:xdist", "-q",
             "--backend", BACKEND, "-p", "no:cacheprovider",
             # Its own example database, which the second run replays first: the same shrunk
             # failure, so the same entry. (A seeded run would replay none, and two searches
             # need not stop at the same case under load.)
             "--database", str(examples)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 1, run.stdout[-3000:]
        assert "corpus entry:" in run.stdout
    return directory


def _first(corpus):
    """The entry the first run filed (its case.json is written once)."""
    return min(load_entries(corpus), key=lambda e: (e.path / "case.json").stat().st_mtime)


def test_one_entry_per_bug_and_an_open_entry_is_known_to_the_next_run(corpus):
    """Each run files one entry per signature; the second run counts the first run's
    (an open entry is a known bug) and goes on to file another signature of the bug."""
    entries = load_entries(corpus)
    assert len(entries) == 2 and len({e.meta["signature"] for e in entries}) == 2
    for entry in entries:
        assert entry.meta["outcome"] == "mismatch" and entry.meta["status"] == "open"
        assert "dtype: torch.int64 -> torch.int32" in entry.meta["signature"]


def test_reproducer_runs_standalone_and_exits_1(corpus, tmp_path):
    entry = _first(corpus)
    script = tmp_path / "repro.py"
    script.write_text((entry.path / "repro.py").read_text())
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": ""})
    assert run.returncode == 1, run.stdout + run.stderr
    assert "AssertionError" in run.stderr and "torch.int32 != torch.int64" in run.stderr, run.stderr
    # Minimal: the values only, spelled out; the frontend call; the eager and actual leaf.
    source = script.read_text()
    # A case that updates state keeps eager on a copy and asserts the state too: two lines more.
    assert len(source.splitlines()) <= (32 if "eager_model" in source else 30), source
    assert "random_tensor" not in source, source  # inputs, if any, as literals
    assert "torch.tensor(" in source or "torch.full(" in source or "def forward(self):" in source, source
    assert "eager:" in run.stdout and "torch.int32" in run.stdout


def test_report_renders_markdown(corpus):
    entry = _first(corpus)
    report = render_report(entry)
    title = report.splitlines()[0]
    assert title.startswith("# ") and "torch.int64 -> torch.int32" in title and entry.meta["ops"][0] in title
    for section in ("## Environment", "## Reproducer", "## Output", "## Expected vs actual", "## Already reported?",
                    "torch: 2.13", "reproduces (exit code 1", "repo:pytorch/pytorch is:issue"):
        assert section in report, section
    assert "apache-tvm" not in report  # only the frontend under test and its own dependencies


def test_corrupt_entries_name_file_and_field_and_the_rest_loads(corpus, tmp_path):
    good = next(p for p in corpus.iterdir() if p.is_dir())
    for name, edit in [("no-status", lambda m: m.pop("status")), ("bad-count", lambda m: m.update(count="2"))]:
        bad = tmp_path / name
        bad.mkdir()
        meta = json.loads((good / "meta.json").read_text())
        edit(meta)
        (bad / "meta.json").write_text(json.dumps(meta))
        (bad / "case.json").write_text((good / "case.json").read_text())
    (tmp_path / "truncated").mkdir()
    (tmp_path / "truncated" / "meta.json").write_text("{")
    copy = tmp_path / "good"
    copy.mkdir()
    for f in ("meta.json", "case.json", "repro.py"):
        (copy / f).write_text((good / f).read_text())
    found = {str(x).split(":")[0].split("/")[-2] if isinstance(x, CorpusError) else x.path.name: x
             for x in load_entries(tmp_path)}
    assert not isinstance(found["good"], CorpusError)
    assert "field 'status'" in str(found["no-status"])
    assert "field 'count'" in str(found["bad-count"])
    assert "cannot be read as JSON" in str(found["truncated"])


def test_render_all_writes_one_report_per_open_entry_and_an_index(corpus, tmp_path):
    entry = _first(corpus)
    index = render_all(tmp_path / "out", [entry])
    report = (tmp_path / "out" / f"{entry.id}.md").read_text()
    assert report.startswith("# ") and "## Reproducer" in report and "reproduces (exit code 1" in report
    text = index.read_text()
    # Grouped by tracker, then frontend; each entry links its report and says if it reproduces.
    assert "## pytorch/pytorch (1)" in text and f"### {BACKEND}" in text, text
    assert f"]({entry.id}.md): reproduces here and now" in text, text


def test_replay_of_an_open_entry_fails_when_it_fails_otherwise_or_passes(corpus, tmp_path):
    """An open entry is an expected failure only while it fails as recorded: a different
    failure, or a pass (fixed upstream), fails the replay and says which."""
    good = next(p for p in corpus.iterdir() if p.is_dir())
    edits = {"as-recorded": lambda m: m,
             "other-failure": lambda m: m.update(signature=m["signature"].replace("int32", "int16")),
             "now-passes": lambda m: m.update(backend="reference")}
    for name, edit in edits.items():
        (tmp_path / name).mkdir()
        meta = json.loads((good / "meta.json").read_text())
        edit(meta)
        meta["id"] = name
        (tmp_path / name / "meta.json").write_text(json.dumps(meta))
        for f in ("case.json", "repro.py"):
            (tmp_path / name / f).write_text((good / f).read_text())
    run = subprocess.run([sys.executable, "-m", "pytest", "suites/test_corpus.py", "-p", "no:xdist", "-p", "no:cacheprovider",
                          "-rA", "-q"], cwd=ROOT, env={**os.environ, "ROUNDTRIP_CORPUS": str(tmp_path)},
                         capture_output=True, text=True, timeout=600)
    outcomes = {line.split("[", 1)[1].split("]", 1)[0]: line.split()[0] for line in run.stdout.splitlines()
                if line.startswith(("PASSED", "FAILED", "XFAIL", "XPASS", "ERROR"))}
    assert outcomes == {"as-recorded": "XFAIL", "other-failure": "FAILED", "now-passes": "FAILED"}, run.stdout[-3000:]
    assert "fails otherwise than recorded" in run.stdout and "unexpected pass" in run.stdout
