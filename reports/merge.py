"""One report for a campaign that ran as several runs (shards on many machines):

    python -m reports.merge [--out reports/merged] DIR [DIR ...]

Each DIR is a run's reports directory (its findings.json). Outcome counts add exactly;
a new finding's signature, a known row hit and a signature a row absorbed count once,
with the counts added. The runs must have tested the same versions (torch, the
frontends, Hypothesis; the machines may differ): otherwise nothing is written and the
merge says which versions differ. Writes findings.json, summary.md and summary.html.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from harness.config import Config
from harness.conformance import Recorder

from .summary import STATUS, outcome_table, write_latest

__all__ = ["MergeError", "merge"]

#: How the merged campaign ended: as its worst part did.
_WORST_FIRST = ("killed", "interrupted", "complete")
#: Versions that may differ between the runs of one campaign.
_MAY_DIFFER = ("machine",)


class MergeError(Exception):
    pass


def merge(directories: list[Path]) -> tuple[Any, str, dict[str, str]]:
    """(the added-up counts, how the campaign ended, the versions it tested)."""
    parts = []
    for directory in directories:
        path = directory / "findings.json"
        if not path.exists():
            raise MergeError(f"{directory}: no findings.json (a run killed outright: rebuild it first with "
                             f"python -m reports.summary {directory})")
        parts.append((directory, json.loads(path.read_text())))
    if not parts:
        raise MergeError("nothing to merge")
    differ = []
    for name in sorted({k for _, data in parts for k in data["versions"]} - set(_MAY_DIFFER)):
        seen = {str(d): data["versions"].get(name, "(absent)") for d, data in parts}
        if len(set(seen.values())) > 1:
            differ.append(f"{name}: " + ", ".join(f"{v} in {d}" for d, v in seen.items()))
    if differ:
        raise MergeError("the runs tested different versions, so their counts do not add up:\n  "
                         + "\n  ".join(differ))
    merged = Recorder()
    for _, data in parts:
        merged.add(Recorder.from_dict(data))
    status = next(s for s in _WORST_FIRST if any(data["run"]["status"] == s for _, data in parts))
    found = dict(parts[0][1]["versions"])
    for name in _MAY_DIFFER:
        values = sorted({data["versions"][name] for _, data in parts if name in data["versions"]})
        if values:
            found[name] = "; ".join(values)
    return merged, status, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports.merge", description=__doc__.split("\n\n")[0])
    parser.add_argument("directories", nargs="+", type=Path, help="the runs' reports directories")
    parser.add_argument("--out", type=Path, default=Path("reports/merged"), help="where to write (default reports/merged)")
    args = parser.parse_args(argv)
    try:
        recorder, status, found = merge(args.directories)
    except MergeError as error:
        print(f"reports.merge: {error}", file=sys.stderr)
        return 1
    config = Config.from_environment()
    write_latest(recorder, args.out, status, corpus=config.corpus, run_versions=found,
                 merged_from=[str(d) for d in args.directories], cache=config.cache)
    print(f"merged {len(args.directories)} runs: {STATUS[status]}\n{outcome_table(recorder)}\nreports: {args.out}/")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
