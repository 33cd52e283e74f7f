"""Replay the regression corpus: ``pytest suites/test_corpus.py``.

An entry still open upstream must still fail as it was recorded: its verdict must be
explained by the entry's own row (the table's row it names, or else its recorded
signature), and then it is an expected failure. A pass is reported as an unexpected
one (fixed upstream: set the entry's status to ``fixed``); another failure, or an error
of the harness, fails the test and says what changed. A fixed entry must pass; an
entry for a frontend that is not installed here, or whose CPU it needs this one is
not, is skipped with the reason. An unreadable entry fails alone, naming the file and
the field, and the rest still replays.
"""

from __future__ import annotations

import pytest

from reports.corpus import HANG_REPLAY_SECONDS, CorpusError, cpu_reason, known_rows, load_entries
from suites.config import CONFIG
from suites.known import match, passed_or_rejected_cleanly
from suites.runner import load_backend


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


def test_corpus_entry(entry, run_case_for, rows, run_config):
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
    if meta["status"] == "open":
        explained = match(verdict, rows)
        assert verdict.outcome != "pass", (
            f"{entry.id}: unexpected pass: the bug no longer reproduces (fixed upstream? set its status to fixed)")
        assert explained is not None and explained.id in (meta.get("row"), entry.id), (
            f"{entry.id}: fails otherwise than recorded: {verdict.outcome} {verdict.signature()}\n"
            f"  recorded {meta['signature']} (row {meta.get('row') or entry.id})\n"
            f"  explained by {explained.id if explained else 'no row'}: {verdict.headline()}")
        pytest.xfail(f"open upstream, still reproduces: {meta['headline']}")
    assert passed_or_rejected_cleanly(verdict, match(verdict, rows)), (
        f"{entry.id}: {verdict.outcome}: {verdict.headline()}\n  signature {verdict.signature()}"
        f"\n  (recorded as {meta['signature']})")
