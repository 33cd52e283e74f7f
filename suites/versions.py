"""What a run ran on: Python, the machine, and the installed versions of torch,
Hypothesis and every built-in frontend's distributions. Runs that differ in one do not
add up (``reports.merge``); a corpus entry records them (``reports.corpus``)."""

from __future__ import annotations

import importlib
import os
import platform
from importlib.metadata import PackageNotFoundError, version

from .runner import BUILTIN_BACKENDS

__all__ = ["frontend_distributions", "versions"]


def frontend_distributions() -> tuple[str, ...]:
    """The distributions that make up the built-in frontends, as their adapters declare
    them (``distribution``, ``packages``)."""
    found: dict[str, None] = {}
    for target in BUILTIN_BACKENDS.values():
        module, _, name = target.partition(":")
        cls = getattr(importlib.import_module(module), name)
        found.update(dict.fromkeys((cls.distribution, *cls.packages)))
    return tuple(found)


def versions() -> dict[str, str]:
    found = {"python": platform.python_version(), "machine": f"{platform.machine()}, {os.cpu_count()} cpus"}
    for dist in dict.fromkeys(("torch", *frontend_distributions(), "hypothesis")):
        try:
            found[dist] = version(dist)
        except PackageNotFoundError:
            pass
    return found
