"""The corpus end to end: a failure found by the real suite is filed under the run's
reports as one finding with a standalone reproducer that exits 1, fails every run until
triaged, and joins the corpus only through ``add``; replay, the report and bad files behave."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.known import match
from reports.entries import CORPUS, CorpusError, load_entries
from reports.evidence import add, open_rows
from reports.issue import render_all, render_report
from reports.releases import load, merge, read_answers, summary

ROOT = Path(__file__).parent.parent
BACKEND = "tests.harness_backends:Int64ToInt32"


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The real suite against a distorting backend, twice, as a user runs it (the tracked
    corpus is the known bugs): each run's findings, copied as it left them."""
    reports = tmp_path_factory.mktemp("reports")
    env = {k: v for k, v in os.environ.items() if k != "ROUNDTRIP_CORPUS"}
    # nightly: up to 2000 examples, stopping at the first failure (found within ~100).
    env.update(ROUNDTRIP_PROFILE="nightly", ROUNDTRIP_REPORTS=str(reports))
    examples = tmp_path_factory.mktemp("examples")
    tracked = _tree(CORPUS)
    found = []
    for i in range(2):
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "suites/test_conformance.py::test_outputs_round_trip", "-p", "no:xdist", "-q",
             "--backend", BACKEND, "-p", "no:cacheprovider",
             # Its own example database, which the second run replays first: the same shrunk
             # failure, so the same finding. (A seeded run would replay none, and two searches
             # need not stop at the same case under load.)
             "--database", str(examples)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 1, run.stdout[-3000:]
        assert "finding:" in run.stdout and "python -m reports.corpus add" in run.stdout, run.stdout[-3000:]
        found.append(shutil.copytree(reports / "untriaged", tmp_path_factory.mktemp(f"findings-{i}"), dirs_exist_ok=True))
    assert _tree(CORPUS) == tracked, "a run wrote into the tracked corpus"
    return found


@pytest.fixture(scope="module")
def corpus(runs, tmp_path_factory):
    """The first run's finding, triaged, added to a temp corpus through the one door."""
    directory = tmp_path_factory.mktemp("corpus")
    for entry in load_entries(runs[0]):
        add(entry.path, directory, why="planted: the backend narrows int64 outputs to int32")
    return directory


def _first(corpus):
    """The entry the first run filed (its case.json is written once)."""
    return min(load_entries(corpus), key=lambda e: (e.path / "case.json").stat().st_mtime)


def test_a_new_finding_fails_every_run_until_triaged_and_never_writes_the_corpus(runs, corpus, tmp_path):
    """Both runs fail on the same shrunk bug and file it under their reports (the fixture
    checks the tracked corpus is untouched): an untriaged finding is known to nobody. In
    the corpus it counts once it names a row or is marked triaged, and ``add`` is the door."""
    first, second = ([e.meta for e in load_entries(r)] for r in runs)
    assert len(first) == 1 and [m["signature"] for m in second] == [first[0]["signature"]]
    assert first[0]["outcome"] == "mismatch" and "dtype: torch.int64 -> torch.int32" in first[0]["signature"]
    assert "row" not in first[0] and "triaged" not in first[0]
    assert [k.id for k in open_rows(load_entries(runs[0]))] == []  # copied in by hand: still not known
    assert [k.id for k in open_rows(load_entries(corpus))] == [first[0]["id"]]
    finding = runs[1] / first[0]["id"]
    with pytest.raises(ValueError, match="name the row"):
        add(finding, tmp_path)
    with pytest.raises(ValueError, match="does not explain"):
        add(finding, tmp_path, row_id="tvm-any-not-bool")
    with pytest.raises(ValueError, match="in the corpus already"):
        add(finding, corpus, why="twice")


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


def _replay(corpus: Path, mode: str, reports: Path) -> tuple[dict[str, str], str]:
    """Replay ``corpus`` with ``--replay mode``: each entry's pytest outcome, and the output."""
    run = subprocess.run([sys.executable, "-m", "pytest", "suites/test_corpus.py", "-p", "no:xdist", "-p", "no:cacheprovider",
                          "-rA", "-q", "--replay", mode, "--reports", str(reports)],
                         cwd=ROOT, env={**os.environ, "ROUNDTRIP_CORPUS": str(corpus)},
                         capture_output=True, text=True, timeout=600)
    outcomes = {line.split("[", 1)[1].split("]", 1)[0]: line.split()[0] for line in run.stdout.splitlines()
                if line.startswith(("PASSED", "FAILED", "XFAIL", "XPASS", "ERROR"))}
    return outcomes, run.stdout[-3000:]


def test_replay_strict_on_the_pins_and_informing_under_other_versions(corpus, tmp_path):
    """Strict (the pinned versions): an open entry is an expected failure only while it
    fails as recorded; a different failure, or a pass (fixed upstream), fails the replay
    and says which. Inform (another version set): a fix passes, a failure another row
    explains is expected, and only a verdict no row explains fails. Both log each entry's
    answer, which ``reports.releases`` merges into its table and says in words."""
    good = next(p for p in corpus.iterdir() if p.is_dir())
    edits = {"as-recorded": lambda m: m,
             "other-failure": lambda m: m.update(signature=m["signature"].replace("int32", "int16")),
             "now-passes": lambda m: m.update(backend="reference"),
             "new-verdict": lambda m: m.update(backend="tests.harness_backends:NewCrash")}
    entries = tmp_path / "corpus"
    for name, edit in edits.items():
        (entries / name).mkdir(parents=True)
        meta = json.loads((good / "meta.json").read_text())
        edit(meta)
        meta["id"] = name
        (entries / name / "meta.json").write_text(json.dumps(meta))
        for f in ("case.json", "repro.py"):
            (entries / name / f).write_text((good / f).read_text())
    outcomes, output = _replay(entries, "strict", tmp_path / "strict")
    assert outcomes == {"as-recorded": "XFAIL", "other-failure": "FAILED", "now-passes": "FAILED",
                        "new-verdict": "FAILED"}, output
    assert "fails otherwise than recorded" in output and "unexpected pass" in output
    outcomes, output = _replay(entries, "inform", tmp_path / "inform")
    assert outcomes == {"as-recorded": "XFAIL", "other-failure": "XFAIL", "now-passes": "PASSED",
                        "new-verdict": "FAILED"}, output
    assert "new-verdict: under --replay inform, fails in a way no row explains" in output, output

    said = {a["entry"]: (a["answer"], a["row"]) for a in read_answers(tmp_path / "inform")}
    assert said == {"as-recorded": ("reproduces", "as-recorded"), "other-failure": ("otherwise", "as-recorded"),
                    "now-passes": ("fixed", ""), "new-verdict": ("new", "")}
    table = load(tmp_path / "none.json")
    merge(table, read_answers(tmp_path / "strict"), "2026-01-01")
    assert len(table["columns"]) == 1  # the same versions: one column, each entry answered once
    newer = [{**a, "versions": {**a["versions"], "torch": "9.9.9"}} for a in read_answers(tmp_path / "inform")]
    merge(table, newer, "2026-01-02")
    torch = read_answers(tmp_path / "strict")[0]["versions"]["torch"].split("+")[0]
    assert summary("as-recorded", table) == f"reproduces on torch {torch} and 9.9.9"
    assert summary("now-passes", table) == f"fixed in torch {torch} and 9.9.9"
    assert summary("other-failure", table) == f"fails otherwise on torch {torch} and 9.9.9 (as row `as-recorded`)"
    assert summary("new-verdict", table) == f"fails in a way no row explains on torch {torch} and 9.9.9"
    fixed_later = [{**a, "answer": "fixed", "row": ""} for a in newer if a["entry"] == "as-recorded"]
    merge(table, fixed_later, "2026-01-03")  # the same version set again: its answer replaced
    assert summary("as-recorded", table) == f"reproduces on torch {torch}; fixed in torch 9.9.9"


def test_off_pins_names_each_installed_distribution_its_pin_does_not_admit():
    """The replay is strict exactly on the pinned set: a pin of another version is named,
    a local build of the pinned release (2.13.0+cpu for ==2.13.0) is that release, and a
    distribution with no pin, or not installed, is never off."""
    from importlib.metadata import version

    from packaging.requirements import Requirement

    from harness.versions import off_pins, pins

    pytest_version = version("pytest")
    pinned = {"pytest": Requirement(f"pytest=={pytest_version}"), "packaging": Requirement("packaging==0.0.1"),
              "not-installed-anywhere": Requirement("not-installed-anywhere==1.0")}
    assert off_pins(["pytest", "not-installed-anywhere", "hypothesis"], pinned) == []
    assert off_pins(["packaging", "pytest"], pinned) == [f"packaging {version('packaging')} (pinned ==0.0.1)"]
    assert Requirement("torch==2.13.0").specifier.contains("2.13.0+cpu", prereleases=True)
    assert "torch" in pins() and str(pins()["torch"].specifier).startswith("==")  # the cpu extra's


def test_below_pins_tells_an_older_release_from_a_newer_one():
    """Under releases older than the pins an entry may fail another way: its answer there,
    never a red replay; a newer one, or one older beside one newer, stays news."""
    from importlib.metadata import version

    from packaging.requirements import Requirement

    from harness.versions import below_pins

    pytest_version = version("pytest")
    newer, older = Requirement("packaging==999.0"), Requirement("packaging==0.0.1")
    assert below_pins(["packaging"], {"packaging": newer})  # installed below the pin
    assert not below_pins(["packaging"], {"packaging": older})  # installed above it
    assert not below_pins(["pytest"], {"pytest": Requirement(f"pytest=={pytest_version}")})  # on the pins
    assert not below_pins(["packaging", "pytest"], {"packaging": newer, "pytest": Requirement("pytest==0.0.1")})


def test_flakes_are_counted_and_marked(tmp_path):
    """A values-mismatch entry replayed on record: replays that disagree mark it flaky
    (the replay never calls its pass a fix then), replays that agree clear the mark."""
    from itertools import cycle

    from harness.known import KNOWN
    from harness.known import recorded as harness_recorded
    from harness.verdict import Verdict
    from reports.entries import load_entry
    from reports.evidence import known_rows
    from reports.flakes import counted, is_flaky, replay_times, values_entries

    entry = next(e for e in values_entries([e for e in load_entries() if not isinstance(e, CorpusError)]))
    shutil.copytree(entry.path, tmp_path / entry.id)
    copy = load_entry(tmp_path / entry.id)
    rows = (*KNOWN, *known_rows())
    recorded = harness_recorded({"signature": copy.meta["signature"], "backend": copy.meta["backend"],
                                 "notes": copy.meta.get("notes", [])})  # its failure as on record
    assert match(recorded, rows) is not None, "the planted reproduction is not the entry's own failure"
    passed = Verdict(copy.meta["backend"], "pass", "judge")
    turns = cycle([recorded, passed])
    replays = replay_times(copy, lambda e: next(turns), rows, times=5)
    assert (replays["times"], replays["reproduced"]) == (5, 3)
    counted(copy, replays)
    assert is_flaky(load_entry(copy.path).meta) and load_entry(copy.path).meta["flaky"]
    counted(copy, replay_times(copy, lambda e: recorded, rows, times=5))
    assert not is_flaky(load_entry(copy.path).meta) and "flaky" not in load_entry(copy.path).meta
