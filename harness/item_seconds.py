"""The seconds each conformance item took: every run writes them (``item-seconds.json``
beside its reports), and ``ci-item-seconds.json`` keeps those of the last ``ci`` survey
of the CPU frontends, which the hunt reads to search a row's fastest backend first.

An item is a part of a backend's budget (``part_key``). pytest-xdist's ``worksteal``
orders nothing here: with the items in collection order, the test command's wall time
was the same as with a layout balanced by these seconds (docs/benchmarks.md)."""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["RECORDED", "part_key", "recorded_seconds"]

#: Seconds per conformance item, from the last ``ci`` survey of the CPU frontends.
RECORDED = Path(__file__).with_name("ci-item-seconds.json")


def part_key(backend_spec: str, index: int, count: int) -> str:
    return f"{backend_spec} {index}/{count}"


def recorded_seconds(path: Path = RECORDED) -> dict[str, float]:
    return json.loads(path.read_text()) if path.exists() else {}
