"""Whether two derandomised runs of the suite met the same verdicts: a harness change
that claims to change no case and no verdict (a faster harness) is held to it.

    python benchmarks/same_verdicts.py REPORTS_BEFORE REPORTS_AFTER

Each argument is a run's reports directory (``scripts/test.sh --reports DIR``); the
runs' ``findings.json`` are compared part by part: outcomes per backend, known rows
met, each row's distinct signatures with their counts, dynamic cases by size role, and
the features of the cases drawn (which cases ran). Exit 0 when every part is the same.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: The parts of findings.json that say what ran and what came of it (not how long it took).
PARTS = ("outcomes", "known", "absorbed", "new", "dynamic", "features")


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def _what_ran(findings: dict, part: str) -> object:
    """A part as far as it says what ran: ``absorbed`` keeps, per row, each signature's
    count, not the example case (the first process to meet a signature records it, and
    which process that is depends on the schedule, not on the cases)."""
    value = findings.get(part)
    if part == "absorbed" and isinstance(value, dict):
        return {row: {signature: seen["count"] for signature, seen in signatures.items()}
                for row, signatures in value.items()}
    return value


def differing_parts(before: dict, after: dict) -> list[str]:
    return [part for part in PARTS if _canonical(_what_ran(before, part)) != _canonical(_what_ran(after, part))]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    before, after = (json.loads((Path(d) / "findings.json").read_text()) for d in argv)
    differing = differing_parts(before, after)
    for part in PARTS:
        print(f"{part:9} {'differs' if part in differing else 'same'}")
    cases = [sum(n for *_, n in run["outcomes"]) for run in (before, after)]
    print(f"cases: {cases[0]} before, {cases[1]} after")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
