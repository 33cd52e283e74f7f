"""The regression corpus's command line: one directory per bug under ``reports/corpus/``.

A run never writes it: a failing run files its shrunk case under its reports
(``harness.config.Config.untriaged``, the same form as an entry), and the case stays a
failure on every run until a person triages it and ``add`` copies it in, naming the row
that explains it (or saying why it has none). Only such an entry counts as a known bug.

The store is ``reports.entries``; the known table's evidence and the door in,
``reports.evidence``; re-running reproducers, ``reports.verify``; the issue,
``reports.issue``.

    python -m reports.corpus list
    python -m reports.corpus add FINDING --row ROW  # triaged: a run's finding joins the corpus (or --triaged WHY)
    python -m reports.corpus verify [ENTRY...]   # re-run the reproducers: reproduces, gone, broken
    python -m reports.corpus render ENTRY        # a GitHub-issue-ready report (runs the reproducer)
    python -m reports.corpus render --all DIR    # one report per open entry, and an index by tracker
    python -m reports.corpus rows                # each bug row: its entry, or why it has none
    python -m reports.corpus file ROW --backend B --case JSON  # file a hand-written case for a row
    python -m reports.corpus refresh [ENTRY...]  # simplify an entry's inputs, rewrite its reproducer
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from harness.config import Config
from harness.conformance import ConformanceFailure
from harness.known import KNOWN, row
from harness.registry import load_backend
from harness.simplify import simplified, simplify
from harness.subjects import Subject, kind_of, subject_from_json, subject_to_json
from harness.worker import Worker

from .entries import CorpusError, Entry, load_entries, load_entry, save_finding, write_atomic
from .evidence import add, known_rows, needs_entry, rows_without_entry
from .flakes import TIMES, counted, is_flaky, replay_times, values_entries
from .issue import render_all, render_report
from .reproducer import reproducer_source, subject_reproducer
from .verify import run_reproducer

__all__ = ["main", "refresh"]


def refresh(entry: Entry, run_case: Any | None = None) -> Entry:
    """Simplify the entry's case (its signature kept, on the installed frontend) and
    write its reproducer anew."""

    meta = dict(entry.meta)
    backend = load_backend(meta["backend"])
    if not kind_of(entry.case).generated:  # nothing to simplify: only the reproducer is rewritten
        write_atomic(entry.path / "repro.py", subject_reproducer(entry.case, backend, meta["options"], meta))
        return load_entry(entry.path)
    case = entry.case.pruned()
    if run_case is not None and not backend.unavailable_reason():
        verdict = run_case(case, meta["options"])
        if verdict.signature() == meta["signature"]:
            case = simplify(case, meta["options"], run_case, meta["signature"])
            verdict = run_case(case, meta["options"])
            meta.update(differences=[d.to_dict() for d in verdict.differences[:5]], headline=verdict.headline(), ops=case.ops(),
                        stage=verdict.staged, message=verdict.message[:2000])
            if verdict.sizes:
                meta["sizes"] = verdict.sizes
    write_atomic(entry.path / "case.json", subject_to_json(case))
    write_atomic(entry.path / "meta.json", json.dumps(meta, indent=1, sort_keys=True))
    write_atomic(entry.path / "repro.py", reproducer_source(case, backend, meta["options"], meta))
    return load_entry(entry.path)


def _selected(names: list[str], corpus: Path) -> list[Entry]:
    entries = [e for e in load_entries(corpus) if isinstance(e, Entry)]
    return [e for e in entries if not names or e.id in names]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports.corpus", description="The regression corpus.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="one line per entry")
    add_ = sub.add_parser("add", help="a run's finding, triaged, joins the corpus: the only door")
    add_.add_argument("finding", type=Path, help="the finding's directory (the run's reports/untriaged/ID)")
    door = add_.add_mutually_exclusive_group(required=True)
    door.add_argument("--row", help="the row of harness.known that explains it (it must)")
    door.add_argument("--triaged", metavar="WHY", help="no row explains it yet: why it is a bug all the same")
    render = sub.add_parser("render", help="a GitHub-issue-ready markdown report for one entry (runs its repro)")
    render.add_argument("entry", nargs="?", help="the entry's id (its directory name)")
    render.add_argument("--all", metavar="DIR", type=Path,
                        help="write one report per open entry into DIR, and DIR/index.md grouped by tracker")
    sub.add_parser("rows", help="each bug row of a CPU frontend: its entry, or why it has none; exit 1 if any has neither")
    verify = sub.add_parser("verify", help="re-run every reproducer against the installed versions")
    verify.add_argument("entries", nargs="*", help="entry ids (default: all)")
    refresh_ = sub.add_parser("refresh", help="simplify entries' inputs and write their reproducers anew")
    refresh_.add_argument("entries", nargs="*", help="entry ids (default: all)")
    flakes = sub.add_parser("flakes", help=f"replay each open values-mismatch entry {TIMES} times on record; mark the "
                            "ones whose replays disagree flaky")
    flakes.add_argument("entries", nargs="*", help="entry ids (default: every open values mismatch)")
    flakes.add_argument("--times", type=int, default=TIMES, help=f"replays per entry (default {TIMES})")
    file_ = sub.add_parser("file", help="file a case written by hand as a row's entry (where find cannot reach it)")
    file_.add_argument("row", help="the row's id in harness.known")
    file_.add_argument("--backend", required=True, help="built-in name or package.module:ClassName")
    file_.add_argument("--case", required=True, help="the case as JSON, or a path to a JSON file")
    file_.add_argument("--options", default="{}", help="frontend options as JSON (default {})")
    args = parser.parse_args(argv)
    config = Config.from_environment()
    corpus = config.corpus
    if args.command == "list":
        for item in load_entries(corpus):
            if isinstance(item, CorpusError):
                print(f"UNREADABLE {item}")
            else:
                m = item.meta
                print(f"{item.id:40} {m['status']:10} {m['count']:>4}x  {m['headline'][:90]}")
        return 0
    if args.command == "add":
        try:
            print(add(args.finding, corpus, row_id=args.row, why=args.triaged))
        except (ValueError, CorpusError) as exc:
            print(f"not added: {exc}", file=sys.stderr)
            return 1
        return 0
    if args.command == "render":
        if args.all:
            print(render_all(args.all, [e for e in load_entries(corpus) if isinstance(e, Entry)]))
            return 0
        if not args.entry:
            parser.error("render needs an entry id or --all DIR")
        print(render_report(load_entry(corpus / args.entry)))
        return 0
    if args.command == "rows":
        return _print_rows(corpus)
    if args.command == "verify":
        counts: dict[str, int] = {}
        for entry in _selected(args.entries, corpus):
            run = run_reproducer(entry)
            lines = len((entry.path / "repro.py").read_text().splitlines())
            counts[run.verdict] = counts.get(run.verdict, 0) + 1
            print(f"{entry.id:45} {entry.meta['status']:10} {run.verdict:11} {lines:>4} lines  {run.why[:90]}",
                  flush=True)
        print(", ".join(f"{n} {v}" for v, n in sorted(counts.items())))
        return 1 if counts.get("broken") else 0
    worker = Worker(timeout=300, config=config)
    try:
        if args.command == "refresh":
            for entry in _selected(args.entries, corpus):
                spec = entry.meta["backend"]
                entry = refresh(entry, lambda case, options, spec=spec: worker.run(spec, case, options))
                print(f"{entry.id}: {len((entry.path / 'repro.py').read_text().splitlines())} lines", flush=True)
            return 0
        if args.command == "flakes":
            return _flakes(values_entries(_selected(args.entries, corpus)), args.times, worker, corpus)
        text = Path(args.case).read_text() if not args.case.lstrip().startswith("{") else args.case
        return _file(args.row, args.backend, subject_from_json(text), json.loads(args.options), worker, config)
    finally:
        worker.close()


def _file(row_id: str, backend_spec: str, case: Subject, options: dict[str, Any], worker: Any, config: Config) -> int:
    """Run a hand-written case; if the row explains its verdict, simplify its inputs and
    file it as the row's entry, marked as written by hand."""

    target = row(row_id)
    verdict = worker.run(backend_spec, case, options)
    if not target.matches(verdict):
        print(f"{row_id} does not explain this case's verdict: {verdict.outcome} {verdict.signature()}")
        return 1
    failure = ConformanceFailure(load_backend(backend_spec, config), backend_spec, case, options, verdict)
    failure = simplified(failure, lambda c, o: worker.run(backend_spec, c, o))
    print(f"{row_id}: {save_finding(failure, config.corpus, entry=row_id, row=row_id, origin='written by hand')}")
    return 0


def _flakes(entries: list[Entry], times: int, worker: Any, corpus: Path) -> int:
    """Replay each entry ``times`` times and write the count into its meta.json."""
    rows = known_rows(corpus)
    for entry in entries:
        spec = entry.meta["backend"]
        replays = replay_times(entry, lambda e, spec=spec: worker.run(spec, e.case, e.meta["options"]), rows, times)
        counted(entry, replays)
        print(f"{entry.id:50} reproduced {replays['reproduced']} of {times}" + ("  FLAKY" if is_flaky(entry.meta) else ""),
              flush=True)
    flaky = sum(is_flaky(e.meta) for e in entries)
    print(f"{len(entries)} entries replayed {times} times each: {flaky} flaky")
    return 0


def _print_rows(corpus: Path) -> int:
    entries = [e for e in load_entries(corpus) if isinstance(e, Entry) and e.meta["status"] == "open"]
    missing = {k.id for k in rows_without_entry(KNOWN, entries)}
    for k in KNOWN:
        if needs_entry(k):
            backing = [e.id for e in entries if e.meta.get("row") == k.id]
            why = ", ".join(backing) or (f"no entry: {k.no_entry}" if k.no_entry else "MISSING")
            print(f"{k.id:45} {why[:120]}")
    print(f"{sum(needs_entry(k) for k in KNOWN)} rows need an entry, {len(missing)} have neither an entry nor a reason")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
