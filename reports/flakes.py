"""Flakes counted: every open value-mismatch entry replayed several times on record.

A values difference can depend on what the run cannot hold fixed (uninitialised memory a
kernel reads, a thread count, a reduction's order): an entry whose replays disagree is not
yet a bug. ``python -m reports.corpus flakes`` replays each open entry whose recorded
difference is of values ``TIMES`` times in the suite's worker, as the corpus replay does,
and writes what it saw into the entry's ``meta.json``:

    "replays": {"times": 5, "reproduced": 5, "date": "2026-12-07", "torch": "2.13.0+cpu"}

An entry that reproduced on some replays and not on others is ``flaky``: the replay
(``suites/test_corpus.py``) never calls its pass a fix nor its failure a bug, and the
findings page counts it apart until a person explains it (and clears the mark).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

from harness.known import Known, match
from harness.verdict import Verdict
from harness.versions import versions

from .entries import Entry, write_atomic
from .releases import answer

__all__ = ["TIMES", "counted", "is_flaky", "replay_times", "values_entries"]

#: Replays per entry on record.
TIMES = 5


def values_entries(entries: list[Entry]) -> list[Entry]:
    """The open entries whose recorded difference is of values (what a run may vary)."""
    return [e for e in entries if e.meta["status"] == "open" and e.meta["outcome"] == "mismatch"
            and any(d.get("kind") == "values" for d in e.meta.get("differences") or [])]


def replay_times(entry: Entry, run_case: Callable[[Entry], Verdict], rows: tuple[Known, ...],
                 times: int = TIMES) -> dict[str, Any]:
    """Replay ``entry`` ``times`` times; how many reproduced as recorded (its own row)."""
    said = [answer(entry.meta, verdict, match(verdict, rows)) for verdict in (run_case(entry) for _ in range(times))]
    return {"times": times, "reproduced": said.count("reproduces"), "date": datetime.date.today().isoformat(),
            "torch": versions().get("torch", "?")}


def is_flaky(meta: dict[str, Any]) -> bool:
    """Its replays on record disagree: some reproduced, some did not."""
    replays = meta.get("replays") or {}
    return 0 < replays.get("reproduced", 0) < replays.get("times", 0)


def counted(entry: Entry, replays: dict[str, Any]) -> None:
    """Write the replays, and the ``flaky`` mark they imply, into the entry's meta.json."""
    meta = {**entry.meta, "replays": replays}
    if is_flaky(meta):
        meta["flaky"] = True
    else:
        meta.pop("flaky", None)
    write_atomic(entry.path / "meta.json", json.dumps(meta, indent=1, sort_keys=True) + "\n")
    entry.meta.clear()
    entry.meta.update(meta)
