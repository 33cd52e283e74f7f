"""The order of the conformance items, so that ``pytest -n W`` keeps every core busy to
the end.

pytest-xdist's ``worksteal`` hands each of the W workers an equal run of consecutive
items, and a worker keeps its last two queued items (one running, one lined up) from
being stolen. Items given in collection order put both halves of the slowest backend
on one worker, one after the other, while the other worker idles. So the items are
laid out as W runs of balanced estimated length (longest first within each): each
worker's own share ends at about the same time. The order never changes which cases a
part draws (its seed is its own), only which process runs it and when.

The estimates are the seconds each part took in a measured run: ``ci-item-seconds.json``
is written by the ``ci`` survey (every run leaves ``item-seconds.json`` in its reports
directory). A part not on record is estimated from its backend's recorded parts; a
backend not on record counts as free.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["RECORDED", "estimates", "layout", "part_key"]

#: Seconds per conformance item, from the last ``ci`` survey of the CPU frontends.
RECORDED = Path(__file__).with_name("ci-item-seconds.json")


def part_key(backend_spec: str, index: int, count: int) -> str:
    return f"{backend_spec} {index}/{count}"


def estimates(keys: list[str], recorded: dict[str, float]) -> list[float]:
    """Estimated seconds for each part ``key`` (see ``part_key``)."""
    per_backend: dict[str, float] = {}
    for key, seconds in recorded.items():  # a backend's whole budget, from its parts
        per_backend[key.rsplit(" ", 1)[0]] = per_backend.get(key.rsplit(" ", 1)[0], 0.0) + seconds
    found = []
    for key in keys:
        backend, part = key.rsplit(" ", 1)
        found.append(recorded[key] if key in recorded else per_backend.get(backend, 0.0) / int(part.split("/")[1]))
    return found


def layout(costs: list[float], workers: int) -> list[int]:
    """A permutation of the items (by index): ``workers`` consecutive runs, of the
    lengths worksteal hands out, balanced by cost (the longest item to the least loaded
    run with room), each run longest first."""
    sizes, left = [], len(costs)
    for i in range(workers):
        sizes.append(left // (workers - i))
        left -= sizes[-1]
    runs: list[list[int]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for item in sorted(range(len(costs)), key=lambda i: -costs[i]):
        room = [w for w in range(workers) if len(runs[w]) < sizes[w]]
        target = min(room, key=lambda w: loads[w])
        runs[target].append(item)
        loads[target] += costs[item]
    return [item for run in runs for item in run]


def recorded_seconds(path: Path = RECORDED) -> dict[str, float]:
    return json.loads(path.read_text()) if path.exists() else {}
