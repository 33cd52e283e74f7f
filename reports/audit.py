"""What an upstream maintainer would check before trusting the corpus, in one command.

    python -m reports.audit            # the table and the reproducers as written
    python -m reports.audit --run      # and run every open reproducer here
    python -m reports.audit --run --record   # and write each result into its entry's meta

It reports, and exits 1 on any of them:

- bug rows with neither a link nor an upstream search record (``searched`` in the
  meta of an entry naming the row: the queries tried and what came of them; for a row
  with no entry, ``reports/upstream-searches.json``);
- open reproducers over ``MAX_REPRODUCER_LINES`` lines of code (comments and blank
  lines aside);
- with ``--run``: open entries whose reproducer does not reproduce here and does not
  declare the CPU it needs (``cpu_flags``, ``cpu_flags_absent``).

and, for the reader, the rows by kind per frontend. ``--record`` keeps, per entry, the
date, the result and this machine's instruction-set features (``verified``), so an
entry says where it was last seen to reproduce. ``tests/test_audit.py`` runs the part
that needs no frontend.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from harness.config import Config
from harness.known import KNOWN, TRT, Known
from harness.versions import cpu_features

from .entries import Entry, load_entries, write_atomic
from .verify import run_reproducer

__all__ = ["MAX_REPRODUCER_LINES", "Audit", "audit", "code_lines", "main"]

MAX_REPRODUCER_LINES = 30
#: What a search record's result may be (see docs/corpus.md).
SEARCH_RESULTS = ("match", "related", "none found")


def code_lines(source: str) -> int:
    """Lines of code: blank lines and comment lines aside."""
    return sum(1 for line in source.splitlines() if line.strip() and not line.strip().startswith("#"))


def frontend_of(row: Known) -> str:
    name = row.backends[0]
    return "tensorrt" if name in TRT else "tvm" if name.startswith("tvm") else name


@dataclass
class Audit:
    kinds: Counter = field(default_factory=Counter)  # (frontend, kind) -> rows
    unsearched: list[str] = field(default_factory=list)  # bug rows with no link and no search record
    searched: Counter = field(default_factory=Counter)  # search result -> bug rows
    linked: int = 0
    long: list[tuple[str, int]] = field(default_factory=list)  # open entries over the line limit
    lengths: list[int] = field(default_factory=list)
    runs: dict[str, tuple[str, str]] = field(default_factory=dict)  # entry -> (verdict, why)

    @property
    def not_reproducing(self) -> list[str]:
        return [e for e, (verdict, _) in self.runs.items() if verdict not in ("reproduces", "skipped")]

    @property
    def problems(self) -> int:
        return len(self.unsearched) + len(self.long) + len(self.not_reproducing)


#: The upstream searches of bug rows that have no entry to hold one (their ``no_entry`` says why).
SEARCHES_WITHOUT_ENTRY = Path(__file__).with_name("upstream-searches.json")


def search_record(row: Known, entries: list[Entry]) -> dict[str, Any] | None:
    """The upstream search recorded for ``row``: in the meta of an entry that names it, or
    for a row without an entry in ``SEARCHES_WITHOUT_ENTRY``."""
    found = next((e.meta["searched"] for e in entries if e.meta.get("row") == row.id and e.meta.get("searched")), None)
    if found is None and row.no_entry:
        found = json.loads(SEARCHES_WITHOUT_ENTRY.read_text()).get(row.id)
    return found


def audit(known: tuple[Known, ...] = KNOWN, entries: list[Entry] | None = None) -> Audit:
    entries = entries if entries is not None else [e for e in load_entries() if isinstance(e, Entry)]
    found = Audit()
    for row in known:
        found.kinds[frontend_of(row), row.kind] += 1
        if row.kind != "bug":
            continue
        record = search_record(row, entries)
        if record is not None:
            found.searched[record["result"]] += 1
        found.linked += bool(row.link)
        if record is None and not row.link:
            found.unsearched.append(row.id)
    for entry in entries:
        if entry.meta["status"] != "open":
            continue
        n = code_lines((entry.path / "repro.py").read_text())
        found.lengths.append(n)
        if n > MAX_REPRODUCER_LINES:
            found.long.append((entry.id, n))
    return found


def run_all(found: Audit, entries: list[Entry], record: bool) -> None:
    features = cpu_features()
    for entry in entries:
        if entry.meta["status"] != "open":
            continue
        run = run_reproducer(entry)
        found.runs[entry.id] = (run.verdict, run.why)
        print(f"  {entry.id:50} {run.verdict:11} {run.why[:80]}", flush=True)
        if record and run.verdict != "skipped":
            meta = dict(entry.meta)
            meta["verified"] = {"date": date.today().isoformat(), "result": run.verdict, "cpu": features}
            write_atomic(entry.path / "meta.json", json.dumps(meta, indent=1, sort_keys=True))


def report(found: Audit) -> str:
    frontends = sorted({f for f, _ in found.kinds})
    kinds = ("bug", "documented", "unsupported")
    lines = ["rows by kind:", f"  {'frontend':12}" + "".join(f"{k:>13}" for k in kinds)]
    lines += [f"  {f:12}" + "".join(f"{found.kinds[f, k]:>13}" for k in kinds) for f in frontends]
    bugs = sum(n for (_, k), n in found.kinds.items() if k == "bug")
    lines.append(f"bug rows: {bugs}; {found.linked} with a link; searched upstream: "
                 + ", ".join(f"{found.searched[r]} {r}" for r in SEARCH_RESULTS)
                 + f"; {len(found.unsearched)} with neither a link nor a search record")
    lines += [f"  unsearched: {r}" for r in found.unsearched]
    median = sorted(found.lengths)[len(found.lengths) // 2] if found.lengths else 0
    lines.append(f"open reproducers: {len(found.lengths)}, median {median} lines of code, "
                 f"{len(found.long)} over {MAX_REPRODUCER_LINES}")
    lines += [f"  too long: {e} ({n} lines)" for e, n in found.long]
    if found.runs:
        counts = Counter(v for v, _ in found.runs.values())
        lines.append("run here: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
                     + f" (this CPU: {' '.join(cpu_features()) or 'unknown'})")
        lines += [f"  does not reproduce: {e}: {found.runs[e][0]}: {found.runs[e][1][:100]}" for e in found.not_reproducing]
    lines.append(f"problems: {found.problems}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports.audit", description=__doc__.splitlines()[0])
    parser.add_argument("--run", action="store_true", help="run every open entry's reproducer here")
    parser.add_argument("--record", action="store_true", help="with --run: write each result into the entry's meta")
    args = parser.parse_args(argv)
    entries = [e for e in load_entries(Config.from_environment().corpus) if isinstance(e, Entry)]
    found = audit(KNOWN, entries)
    if args.run:
        run_all(found, entries, args.record)
    print(report(found))
    return 1 if found.problems else 0


if __name__ == "__main__":
    sys.exit(main())
