"""What a run ran on: Python, the machine, its CPU's kernel features and the installed
versions of torch, Hypothesis and every built-in frontend's distributions. Runs that
differ in one do not add up (``reports.merge``); a corpus entry records them
(``reports.entries``), an issue shows one frontend's share (``frontend_versions``).

The pinned set is the project's own: every ``==`` requirement of its metadata, the
``cpu`` extra's torch included. The corpus replay is strict exactly where the installed
versions are those pins (``off_pins``), and informs elsewhere (``reports.releases``)."""

from __future__ import annotations

import functools
import importlib
import os
import platform
import re
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, requires, version
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from .registry import BUILTIN_BACKENDS

__all__ = ["KERNEL_FEATURES", "PROJECT", "below_pins", "cpu_features", "cpu_flags", "frontend_distributions",
           "frontend_versions", "installed", "machine", "off_pins", "pins", "versions"]

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


def machine() -> dict[str, str]:
    """Python and the machine, which every version set names first."""
    return {"python": platform.python_version(), "machine": f"{platform.machine()}, {os.cpu_count()} cpus"}


def installed(distributions: Iterable[str]) -> dict[str, str]:
    """The version of each of ``distributions`` that is installed, in their order."""
    found = {}
    for dist in dict.fromkeys(distributions):
        try:
            found[dist] = version(dist)
        except PackageNotFoundError:
            pass
    return found


def versions() -> dict[str, str]:
    """The machine and every distribution a run's result depends on: torch, each built-in
    frontend's, Hypothesis."""
    return dict(_versions())  # a copy: callers add to it


@functools.cache  # the installed metadata, read once a process (the replay logs it per entry)
def _versions() -> dict[str, str]:
    return {**machine(), **installed(("torch", *frontend_distributions(), "hypothesis"))}


def frontend_versions(backend: Any) -> dict[str, str]:
    """The machine, torch, one frontend's distributions and their direct dependencies:
    what its maintainers ask for in an issue, nothing of the other frontends."""
    frontend = (backend.distribution, *backend.packages)
    found = {**machine(), **installed(("torch", *frontend))}
    needs = []
    for dist in frontend:
        try:
            needs += [line for line in requires(dist) or [] if "extra ==" not in line]
        except PackageNotFoundError:
            continue
    names = [re.split(r"[ ;<>=!~\[(]", line.strip(), maxsplit=1)[0] for line in needs]
    found.update(installed(names))  # one named already keeps its place: the same distribution, the same version
    return found


#: The instruction-set features Inductor's and OpenVINO's CPU kernels choose by.
KERNEL_FEATURES = ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_bf16", "amx_int8")


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str] | None:
    """The CPU's feature flags, or ``None`` where they cannot be read."""
    try:
        return set(next(line for line in cpuinfo.read_text().splitlines() if line.startswith("flags")).split())
    except (OSError, StopIteration):
        return None


def cpu_features(cpuinfo: Path = Path("/proc/cpuinfo")) -> list[str]:
    """Which of ``KERNEL_FEATURES`` this CPU has (empty where it cannot be read)."""
    flags = cpu_flags(cpuinfo) or set()
    return [f for f in KERNEL_FEATURES if f in flags]


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


def _off(distributions: Iterable[str], pinned: dict[str, Requirement] | None) -> list[tuple[str, str, Requirement]]:
    """(distribution, installed version, pin) of each installed one its pin does not admit."""
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
            off.append((dist, installed, requirement))
    return off


def off_pins(distributions: tuple[str, ...] | list[str], pinned: dict[str, Requirement] | None = None) -> list[str]:
    """The installed ``distributions`` whose version their pin does not admit, as
    ``"torch 2.14.1 (pinned ==2.13.0)"``; empty on the pinned set. A distribution with no
    pin, or not installed, is never off its pin."""
    return [f"{dist} {installed} (pinned {requirement.specifier})" for dist, installed, requirement in _off(distributions, pinned)]


def below_pins(distributions: tuple[str, ...] | list[str], pinned: dict[str, Requirement] | None = None) -> bool:
    """Every installed distribution off its pin is older than the release it pins
    (apache-tvm 0.26.0 beside ==0.27.0.post1), and one is: an entry filed on the pins may
    fail there in another way, from before the code it was filed against."""
    off = _off(distributions, pinned)
    return bool(off) and all(Version(installed) < Version(spec.version) for _, installed, requirement in off
                             for spec in requirement.specifier)
