"""Replay the regression corpus: ``pytest suites/test_corpus.py``.

Strict, on the project's pinned versions (``--replay``, ``harness.versions.off_pins``):
an entry still open upstream must still fail as it was recorded: its verdict must be
explained by the entry's own row (the table's row it names, or else its recorded
signature), and then it is an expected failure. A pass is reported as an unexpected
one (fixed upstream: set the entry's status to ``fixed``); another failure, or an error
of the harness, fails the test and says what changed. A fixed entry must pass.

Under any other version set (a newer torch, the GPU job's) the replay informs: a fix
passes, a failure some row explains is an expected failure, and only a verdict no row
explains (or an error of the harness) fails; under releases older than the pins (every
one off its pin below it) that too is the entry's answer there, an expected failure. Either way each entry's answer is logged
for the table of releases (``reports.releases``).

An entry marked flaky (``reports.flakes``: its replays on record disagree) that passes or
reproduces is an expected failure either way, until a person explains it.

An entry for a frontend that is not installed here, or whose CPU it needs this one is
not, is skipped with the reason. An unreadable entry fails alone, naming the file and
the field, and the rest still replays.
"""

from __future__ import annotations

import pytest

from harness.config import CONFIG
from harness.known import match
from harness.registry import load_backend
from harness.versions import below_pins, cpu_features, off_pins
from reports.entries import CorpusError, load_entries
from reports.evidence import known_rows
from reports.flakes import is_flaky
from reports.releases import answer, log_answer
from reports.verify import HANG_REPLAY_SECONDS, cpu_reason


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "entry" in metafunc.fixturenames:  # the run's corpus (--corpus, ROUNDTRIP_CORPUS)
        metafunc.parametrize("entry", list(_params(metafunc.config.stash[CONFIG].corpus)))


@pytest.fixture(scope="module")
def rows(run_config):
    return known_rows(run_config.corpus)


def _params(corpus):
    for item in load_entries(corpus):
        if isinstance(item, CorpusError):
            yield pytest.param(item, id=f"unreadable:{str(item).split(':')[0].split('/')[-2]}")
            continue
        yield pytest.param(item, id=item.id)


def test_corpus_entry(entry, run_case_for, rows, run_config, request):
    if isinstance(entry, CorpusError):
        pytest.fail(str(entry))
    meta = entry.meta
    backend = load_backend(meta["backend"], run_config)
    reason = backend.unavailable_reason() or cpu_reason(meta)
    if reason:
        pytest.skip(reason)
    if meta["status"] == "unverified":
        pytest.skip("never checked on this frontend's hardware; the GPU job sets its status")
    verdict = run_case_for(meta["backend"])(entry.case, meta["options"],
                                            timeout=HANG_REPLAY_SECONDS if meta["outcome"] == "hang" else None)
    explained = match(verdict, rows)
    said = answer(meta, verdict, explained)
    process = getattr(request.config, "workerinput", {}).get("workerid", "main")
    log_answer(run_config.reports, process, meta, said, verdict, explained, cpu_features())
    off = off_pins(("torch", backend.distribution, *backend.packages))
    strict = run_config.replay == "strict" or (run_config.replay == "auto" and not off)
    now = f"{verdict.outcome} {verdict.signature()}\n  explained by {explained.id if explained else 'no row'}: " \
          f"{verdict.headline()}\n  recorded {meta['signature']} (row {meta.get('row') or entry.id})"
    if is_flaky(meta) and said in ("reproduces", "fixed"):  # replays disagree: neither a bug nor a fix yet
        replays = meta["replays"]
        pytest.xfail(f"flaky: reproduced {replays['reproduced']} of {replays['times']} replays on record; now {said}")
    if not strict:  # another version set: only what no row explains is news
        under = "; ".join(off) or "--replay inform"
        if said == "new" and below_pins(("torch", backend.distribution, *backend.packages)):
            # An older release than the entry was filed on: failing another way is its answer there.
            pytest.xfail(f"under the older {under}: fails in a way no row explains: {verdict.signature()}")
        assert said != "new", f"{entry.id}: under {under}, fails in a way no row explains: {now}"
        if said == "fixed":
            return
        pytest.xfail(f"under {under}: {said}" + (f" (as row {explained.id})" if said == "otherwise" else "")
                     + f": {meta['headline']}")
    if meta["status"] == "open":
        assert said != "fixed", (
            f"{entry.id}: unexpected pass: the bug no longer reproduces (fixed upstream? set its status to fixed)")
        assert said == "reproduces", f"{entry.id}: fails otherwise than recorded: {now}"
        pytest.xfail(f"open upstream, still reproduces: {meta['headline']}")
    assert said == "fixed", f"{entry.id}: {now}"
