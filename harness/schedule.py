"""The order of the conformance items, so that ``pytest -n W`` keeps every core busy to
the end.

pytest-xdist's ``worksteal`` hands each of the W workers an equal run of consecutive
items, and a worker keeps its last two queued items (one running, one lined up) from
being stolen. Items given in collection order put both halves of the slowest backend
on one worker, one after the other, while the other worker idles (and in the full test
run, every conformance item on the first worker). So the conformance items are laid
out as W runs of balanced estimated length, longest first, one at the head of each
worker's block: each worker's share ends at about the same time. The order never
changes which cases a part draws (its seed is its own), only which process runs it and
when.

The estimates are the seconds each part took in a measured run: ``ci-item-seconds.json``
is written by the ``ci`` survey (every run leaves ``item-seconds.json`` in its reports
directory). A part not on record is estimated from its backend's recorded parts; a
backend not on record counts as free.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["RECORDED", "arrange", "estimates", "part_key", "recorded_seconds"]

#: Seconds per conformance item, from the last ``ci`` survey of the CPU frontends.
RECORDED = Path(__file__).with_name("ci-item-seconds.json")


def part_key(backend_spec: str, index: int, count: int) -> str:
    return f"{backend_spec} {index}/{count}"


def estimates(keys: list[str], recorded: dict[str, float]) -> list[float]:
    """Estimated seconds for each part ``key`` (see ``part_key``)."""
    whole: dict[str, float] = {}  # a backend's whole budget, from its recorded parts
    for key, seconds in recorded.items():
        backend = key.rsplit(" ", 1)[0]
        whole[backend] = whole.get(backend, 0.0) + seconds
    found = []
    for key in keys:
        backend, part = key.rsplit(" ", 1)
        found.append(recorded[key] if key in recorded else whole.get(backend, 0.0) / int(part.split("/")[1]))
    return found


def arrange(costs: list[float | None], workers: int) -> list[int]:
    """A permutation of the items (by index) for ``workers`` workers. Conformance items
    (those with a cost) go into balanced runs (the longest to the least loaded run with
    room), each run longest first; worker w's block, of the length worksteal hands it, is
    its run and then the other items, in their order, to fill it. An idle worker steals
    from the end of another's queue: the other items, short and many."""
    timed = [i for i, cost in enumerate(costs) if cost is not None]
    blocks, runs_sized = _worksteal_sizes(len(costs), workers), _worksteal_sizes(len(timed), workers)
    if any(run > block for run, block in zip(runs_sized, blocks)):  # too few others to fill: one run
        runs_sized = [len(timed)] + [0] * (workers - 1)
    runs: list[list[int]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for item in sorted(timed, key=lambda i: -costs[i]):
        target = min((w for w in range(workers) if len(runs[w]) < runs_sized[w]), key=lambda w: loads[w])
        runs[target].append(item)
        loads[target] += costs[item]
    others = iter(i for i, cost in enumerate(costs) if cost is None)
    return [i for run, block in zip(runs, blocks) for i in run + [next(others) for _ in range(block - len(run))]] \
        + list(others)


def _worksteal_sizes(n: int, workers: int) -> list[int]:
    """How many consecutive items worksteal hands each worker at the start."""
    sizes = []
    for w in range(workers):
        sizes.append((n - sum(sizes)) // (workers - w))
    return sizes


def recorded_seconds(path: Path = RECORDED) -> dict[str, float]:
    return json.loads(path.read_text()) if path.exists() else {}
