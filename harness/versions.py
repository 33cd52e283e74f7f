"""What a run ran on: Python, the machine, and the installed versions of torch,
Hypothesis and every built-in frontend's distributions. Runs that differ in one do not
add up (``reports.merge``); a corpus entry records them (``reports.corpus``).

The pinned set is the project's own: every ``==`` requirement of its metadata, the
``cpu`` extra's torch included. The corpus replay is strict exactly where the installed
versions are those pins (``off_pins``), and informs elsewhere (``reports.releases``)."""

from __future__ import annotations

import functools
import importlib
import os
import platform
from importlib.metadata import PackageNotFoundError, requires, version

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from .runner import BUILTIN_BACKENDS

__all__ = ["PROJECT", "frontend_distributions", "off_pins", "pins", "versions"]

#: The distribution this project installs as (pyproject.toml).
PROJECT = "roundtrip"


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


@functools.cache  # the installed metadata, read once a process (the replay asks per entry)
def pins(project: str = PROJECT) -> dict[str, Requirement]:
    """Each distribution the project pins exactly (``==``, in any extra), by canonical
    name; empty where the project is not installed (run from a plain checkout)."""
    try:
        lines = requires(project) or []
    except PackageNotFoundError:
        return {}
    found: dict[str, Requirement] = {}
    for line in lines:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        if any(s.operator == "==" for s in requirement.specifier):
            found[canonicalize_name(requirement.name)] = requirement
    return found


def off_pins(distributions: tuple[str, ...] | list[str], pinned: dict[str, Requirement] | None = None) -> list[str]:
    """The installed ``distributions`` whose version their pin does not admit, as
    ``"torch 2.14.1 (pinned ==2.13.0)"``; empty on the pinned set. A distribution with no
    pin, or not installed, is never off its pin."""
    pinned = pins() if pinned is None else pinned
    off = []
    for dist in dict.fromkeys(distributions):
        requirement = pinned.get(canonicalize_name(dist))
        try:
            installed = version(dist)
        except PackageNotFoundError:
            continue
        # prereleases=True: a pin names one release exactly; a local build (2.13.0+cpu) is that release.
        if requirement is not None and not requirement.specifier.contains(installed, prereleases=True):
            off.append(f"{dist} {installed} (pinned {requirement.specifier})")
    return off
