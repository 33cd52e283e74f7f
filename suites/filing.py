"""The end of a new finding's life: shrunk to the smallest numbers that still break
(``harness.simplify``), counted, and filed as an entry a person triages; the same for
the conformance suite, the hunt and ``check``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from harness.conformance import ConformanceFailure, Recorder, RunCase
from harness.simplify import simplified
from reports.entries import save_finding
from reports.evidence import triage_hint

__all__ = ["run_search", "shrink_and_file"]


def shrink_and_file(failure: ConformanceFailure, run_case: RunCase, directory: Path, *,
                    recorder: Recorder | None = None, **entry: Any) -> tuple[ConformanceFailure, Path]:
    """``failure`` with its numbers simplified (a generated case's; another subject is
    kept as it is), recorded as new, and filed under ``directory`` (``entry``: the entry's
    id and row, where a hunt files a row's evidence)."""
    failure = simplified(failure, run_case)
    if recorder is not None:
        recorder.record_new(failure)
    return failure, save_finding(failure, directory, **entry)


def run_search(check: Callable[[], None], backend_name: str, recorder: Recorder, run_case: RunCase,
               untriaged: Path) -> None:
    """Run one conformance search (``harness.conformance.conformance_property``): a new
    finding Hypothesis shrank is simplified and filed, and fails the test with its
    triage hint; findings a ``--keep-going`` run recorded unshrunk fail it afterwards."""
    seen_before = set(recorder.new)  # another part of this backend may have run in this process
    try:
        check()
    except ConformanceFailure as failure:  # Hypothesis re-raises the shrunk example's
        failure, entry = shrink_and_file(failure, run_case, untriaged, recorder=recorder)
        raise AssertionError(f"{failure}\n{triage_hint(entry)}") from None
    new = {sig: e for sig, e in recorder.new.items() if e["backend"] == backend_name and sig not in seen_before}
    if new:
        pytest.fail(f"{len(new)} new findings (not shrunk: --keep-going):\n" + "\n".join(
            f"  {e['count']}x {sig}\n    replay: {e['replay']}" for sig, e in new.items()))
