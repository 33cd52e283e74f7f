"""What each frontend does with each family of real architectures: a table.

    python benchmarks/bench_architectures.py [--per-family 3] [--family F ...] [--backend NAME ...] [--out FILE]
                                             [--table-from FILE]

Draws ``--per-family`` architectures of each family (``strategies.architectures``,
derandomised: the same ones every time), runs each on every CPU frontend (or the
``--backend`` ones) in the suite's worker process, and matches each verdict against the
known table and the open corpus entries. Writes one JSON line per run to ``--out`` and
prints a markdown table, family x frontend: the outcomes, with the rows that explain
what did not pass. ``--table-from FILE`` prints the table of an earlier ``--out``,
matched against today's table (no frontend runs).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from harness.known import recorded  # noqa: E402
from harness.registry import CPU_BACKENDS  # noqa: E402
from harness.worker import Worker  # noqa: E402
from reports.evidence import known_rows  # noqa: E402
from strategies.architectures import FAMILIES, architectures  # noqa: E402


def drawn(family: str, count: int) -> list:
    found = []

    @settings(max_examples=count, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(architectures(families=[family]))
    def draw(arch):
        found.append(arch)

    draw()
    return found


def survey(per_family: int, families: list[str], backends: list[str], out: Path) -> None:
    worker = Worker(timeout=300)
    try:
        with out.open("a") as lines:
            for family in families:
                for arch in drawn(family, per_family):
                    for backend in backends:
                        v = worker.run(backend, arch, {})
                        lines.write(json.dumps({"backend": backend, "family": family, "dtype": arch.dtype,
                                                "outcome": v.outcome, "stage": v.stage, "notes": v.notes,
                                                "signature": v.signature(), "seconds": round(v.seconds, 1),
                                                "case": arch.to_json()}) + "\n")
                        lines.flush()
    finally:
        worker.close()


def table(records: list[dict]) -> str:
    rows = known_rows()
    cells: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for r in records:
        what = "pass"
        if r["outcome"] != "pass":
            row = next((k for k in rows if k.matches(recorded(r))), None)
            what = f"`{row.id}`" if row else f"NEW {r['outcome']}"
        cells[(r["family"], r["backend"])][what] += 1
    backends = [b for b in dict.fromkeys(r["backend"] for r in records)]
    lines = ["| family | " + " | ".join(backends) + " |", "|---|" + "---|" * len(backends)]
    for family in dict.fromkeys(r["family"] for r in records):
        row = [", ".join(f"{w} {n}" if w != "pass" else f"pass {n}" for w, n in cells[(family, b)].most_common()) or "-"
               for b in backends]
        lines.append(f"| {family} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-family", type=int, default=3)
    parser.add_argument("--family", action="append", default=[], help="a family to draw (default: all); repeatable")
    parser.add_argument("--backend", action="append", default=[])
    parser.add_argument("--out", type=Path, default=Path("reports/latest/architectures.jsonl"))
    parser.add_argument("--table-from", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.table_from is None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        survey(args.per_family, args.family or list(FAMILIES), args.backend or list(CPU_BACKENDS), args.out)
    source = args.table_from or args.out
    print(table([json.loads(line) for line in source.read_text().splitlines() if line.strip()]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
