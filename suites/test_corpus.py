"""Replay the regression corpus: ``pytest suites/test_corpus.py``.

An entry still open upstream is a strict expected failure, so an upstream fix shows
up as an unexpected pass; a fixed one must pass; an entry for a frontend that is not
installed here is skipped with the reason. An unreadable entry fails alone, naming
the file and the field, and the rest still replays.
"""

from __future__ import annotations

import pytest

from reports.corpus import CorpusError, cpu_reason, known_rows, load_entries
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
        marks = []
        if item.meta["status"] == "open":
            marks.append(pytest.mark.xfail(strict=True, reason=f"open upstream: {item.meta['headline']}"))
        yield pytest.param(item, id=item.id, marks=marks)


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
    verdict = run_case_for(meta["backend"])(entry.case, meta["options"])
    assert passed_or_rejected_cleanly(verdict, match(verdict, rows)), (
        f"{entry.id}: {verdict.outcome}: {verdict.headline()}\n  signature {verdict.signature()}"
        f"\n  (recorded as {meta['signature']})")
