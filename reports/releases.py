"""Which releases each corpus entry reproduces on: the replay's answers under several
version sets, merged into one table kept beside the corpus (``reports/releases.json``).

The corpus replay (``pytest suites/test_corpus.py``) answers for every entry it runs:

- ``reproduces``: it fails as recorded (its own row explains the verdict);
- ``fixed``: it passes (an entry of status ``fixed``: passes, or is rejected cleanly);
- ``otherwise``: it fails, and another row explains how;
- ``new``: it fails in a way no row explains.

Each pytest process appends its answers, with the installed versions, to
``replay-<process>.jsonl`` in the run's reports; ``record`` merges them into the table
as one column per version set (a column recorded again is replaced entry by entry).
``docs/findings.md`` and ``python -m reports.corpus render`` say from it "reproduces on
torch 2.13.0 and 2.14.1" or "fixed in torch 2.14.1".

    python -m reports.releases replay [--reports DIR] [PYTEST ARGS]  # replay here (-n auto), record the column
    python -m reports.releases record DIR [DIR...]   # merge runs' replay-*.jsonl (e.g. a nightly's artifact)
    python -m reports.releases show [ENTRY...]       # the table, one line per entry
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from packaging.version import Version

from harness.config import Config
from harness.known import passed_or_rejected_cleanly
from harness.signature import Outcome
from harness.versions import versions

__all__ = ["ANSWERS", "RELEASES", "answer", "column_key", "log_answer", "merge", "read_answers", "summary", "torch_order"]

#: The table, tracked beside the corpus.
RELEASES = Path(__file__).resolve().parent / "releases.json"
ANSWERS = ("reproduces", "fixed", "otherwise", "new")
#: Versions that say nothing about a frontend's behaviour: kept, never part of a column's key.
_NOT_RELEASES = ("python", "machine")


def answer(meta: dict[str, Any], verdict: Any, explained: Any) -> str:
    """One of ``ANSWERS`` for an entry's replayed ``verdict``, ``explained`` being the row
    that matched it (``harness.known.match``) or None."""
    if verdict.outcome == Outcome.PASS or (meta["status"] == "fixed" and passed_or_rejected_cleanly(verdict, explained)):
        return "fixed"
    if explained is None:
        return "new"
    return "reproduces" if explained.id in (meta.get("row"), meta["id"]) else "otherwise"


def log_answer(reports: Path, process: str, meta: dict[str, Any], said: str, verdict: Any, explained: Any,
               cpu: list[str]) -> None:
    """Append one entry's answer, with what it ran under, to this process's replay log."""
    reports.mkdir(parents=True, exist_ok=True)
    line = {"entry": meta["id"], "backend": meta["backend"], "answer": said, "row": explained.id if explained else "",
            "signature": verdict.signature() if verdict.outcome != Outcome.PASS else "", "versions": versions(), "cpu": cpu}
    with open(reports / f"replay-{process}.jsonl", "a") as out:
        out.write(json.dumps(line, sort_keys=True) + "\n")


def read_answers(directory: Path) -> list[dict[str, Any]]:
    """Every answer a run logged (its ``replay-*.jsonl``), in entry order."""
    lines = [json.loads(line) for path in sorted(directory.glob("replay-*.jsonl"))
             for line in path.read_text().splitlines() if line.strip()]
    return sorted(lines, key=lambda a: a["entry"])


def column_key(found: dict[str, str], cpu: list[str]) -> str:
    """A version set's name in the table: torch's version, then a short hash of the rest
    and of the CPU's kernel features (Inductor's and OpenVINO's kernels follow them, so an
    answer holds for the CPUs it was given on)."""
    releases = {k: v for k, v in sorted(found.items()) if k not in _NOT_RELEASES}
    digest = hashlib.sha1(json.dumps([releases, sorted(cpu)], sort_keys=True).encode()).hexdigest()[:8]
    return f"torch {releases.get('torch', '?')} ({digest})"


def load(path: Path = RELEASES) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.exists() else {"columns": {}, "entries": {}}


def merge(table: dict[str, Any], answers: list[dict[str, Any]], date: str) -> list[str]:
    """Add each answer to its version set's column (replacing what that column said of the
    entry before). Returns the keys of the columns it touched."""
    touched: dict[str, None] = {}
    for a in answers:
        key = column_key(a["versions"], a["cpu"])
        column = table["columns"].setdefault(key, {"versions": a["versions"], "cpu": a["cpu"]})
        column["date"] = date
        table["entries"].setdefault(a["entry"], {})[key] = {k: a[k] for k in ("answer", "row", "signature")}
        touched[key] = None
    table["entries"] = dict(sorted(table["entries"].items()))
    return list(touched)


def summary(entry_id: str, table: dict[str, Any] | None = None, frontend: str | None = None) -> str:
    """What the table says of one entry, in words: "reproduces on torch 2.13.0 and
    2.14.1", "reproduces on torch 2.13.0; fixed in torch 2.14.1"; empty if it has no answer.
    ``frontend``: the entry's frontend distribution, named beside torch where the columns
    differ in its version."""
    table = load() if table is None else table
    results = sorted(table["entries"].get(entry_id, {}).items(), key=lambda kv: torch_order(table["columns"][kv[0]]))
    columns = [table["columns"][key]["versions"] for key, _ in results]
    named = frontend not in (None, "torch") and len({c.get(frontend) for c in columns}) > 1
    said: dict[tuple[int, str], list[str]] = {}  # (answer's place, the row another failure names) -> version sets
    for (_, result), found in zip(results, columns):
        label = f"torch {Version(found.get('torch', '0')).public}" + (f" with {frontend} {found.get(frontend)}" if named else "")
        row = f" (as row `{result['row']}`)" if result["answer"] == "otherwise" else ""
        labels = said.setdefault((ANSWERS.index(result["answer"]), row), [])
        if label not in labels:
            labels.append(label)
    words = ("reproduces on", "fixed in", "fails otherwise on", "fails in a way no row explains on")
    return "; ".join(f"{words[place]} {_joined(labels)}{row}" for (place, row), labels in sorted(said.items()))


def torch_order(column: dict[str, Any]) -> Version:
    return Version(column["versions"].get("torch", "0"))


def _joined(labels: list[str]) -> str:
    """"torch 2.13.0 and torch 2.14.1" said once: "torch 2.13.0 and 2.14.1"."""
    if all(label.startswith("torch ") and " " not in label[6:] for label in labels) and len(labels) > 1:
        labels = [labels[0], *(label[6:] for label in labels[1:])]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def _record(directories: list[Path], path: Path) -> int:
    answers = [a for d in directories for a in read_answers(d)]
    if not answers:
        print(f"no replay-*.jsonl under {', '.join(map(str, directories))}: nothing to record", file=sys.stderr)
        return 1
    table = load(path)
    touched = merge(table, answers, datetime.date.today().isoformat())
    path.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    for key in touched:
        counts = {a: sum(1 for r in table["entries"].values() if r.get(key, {}).get("answer") == a) for a in ANSWERS}
        print(f"{key}: " + ", ".join(f"{n} {a}" for a, n in counts.items()))
    print(f"{path} written")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports.releases", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="replay the corpus here (pytest -n auto), then record this version set")
    replay.add_argument("--reports", type=Path, default=None,
                        help="the replay's reports directory (default the run's: --reports, ROUNDTRIP_REPORTS)")
    record = sub.add_parser("record", help="merge the answers runs logged (their reports directories)")
    record.add_argument("directories", nargs="+", type=Path)
    show = sub.add_parser("show", help="what the table says of each entry")
    show.add_argument("entries", nargs="*")
    parser.add_argument("--table", type=Path, default=RELEASES, help=f"the table (default {RELEASES.name} of reports/)")
    args, pytest_args = parser.parse_known_args(argv)  # the replay passes what it does not know to pytest
    if pytest_args and args.command != "replay":
        parser.error(f"unrecognized arguments: {' '.join(pytest_args)}")
    if args.command == "record":
        return _record(args.directories, args.table)
    if args.command == "replay":
        reports = (args.reports or Config.from_environment().reports).resolve()
        run = subprocess.run([sys.executable, "-m", "pytest", "suites/test_corpus.py", "-n", "auto", "-q", "-rfE",
                              "--reports", str(reports), *pytest_args],
                             cwd=Path(__file__).resolve().parents[1], env=os.environ)
        recorded = _record([reports], args.table)
        return run.returncode or recorded
    table = load(args.table)
    for entry_id in table["entries"]:
        if not args.entries or entry_id in args.entries:
            print(f"{entry_id:50} {summary(entry_id, table)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
