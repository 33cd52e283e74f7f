"""A run's configuration, resolved once and passed to what needs it.

Every setting is a command-line option; an environment variable, where it has one, is
an alias of that option (the option wins). pytest resolves it in ``pytest_configure``
(``suites/plugin.py``, stored in ``config.stash[CONFIG]``); a tool run as ``python -m ...``
resolves it from its environment with ``Config.from_environment()``. Nothing reads the
environment at import time and nothing writes it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import pytest

__all__ = ["ALIASES", "CASE_TIMEOUT", "CONFIG", "PROFILES", "REPLAY_MODES", "ROOT", "SEARCH_SHARES", "Config"]

ROOT = Path(__file__).resolve().parents[1]


def _workdir() -> Path:
    """Where a run writes by default: the checkout it runs from, or, where the package is
    installed (no checkout around it), the current directory, never site-packages."""
    return ROOT if (ROOT / "pyproject.toml").is_file() else Path.cwd()

#: Seconds a case (a frontend's compile and run of one model) has before it is a ``hang``:
#: the suite's ``--case-timeout``, ``check``'s and ``assert_roundtrips``'s default alike.
CASE_TIMEOUT = 180.0

#: Each conformance search's cases per backend, as a share of the run's budget: the
#: budget divided by this (at least one case). The main search has it whole (its
#: derandomised draws are what the ci survey has seen); input trees a quarter; dynamic
#: shapes a third; real architectures, each worth tens of generated cases (a whole
#: transformers model to compile), one in 75.
SEARCH_SHARES = {"main": 1, "input-trees": 4, "dynamic-shapes": 3, "architectures": 75}

#: Setting -> the environment variable that is its alias.
ALIASES = {
    "profile": "ROUNDTRIP_PROFILE",
    "max_examples": "ROUNDTRIP_MAX_EXAMPLES",
    "reports": "ROUNDTRIP_REPORTS",
    "corpus": "ROUNDTRIP_CORPUS",
    "cache": "ROUNDTRIP_CACHE",
    "tvm_target": "ROUNDTRIP_TVM_TARGET",
    "replay": "ROUNDTRIP_REPLAY",
}

#: Roundtrip's Hypothesis profiles (``--roundtrip-profile``), registered as ``roundtrip-<name>``
#: (``suites.plugin``): dev (25 cases per backend), ci (300, derandomised), nightly (2000).
PROFILES = ("dev", "ci", "nightly")
#: Op families the ``ci`` profile does not draw yet: OpInfo's functions
#: (``strategies/ops/opinfo.py``, ``samples.py``), the attention masks (``masks.py``) and
#: the edge values made in ``forward`` (``edges.py``) joined the vocabulary after the last
#: ``ci`` survey. The
#: dev and nightly profiles draw them; the rows of what they meet are filed from those
#: runs, and a family leaves this list once a ``ci`` survey drawing it meets no new
#: verdict. Left out, the ``ci`` draws are the ones that survey saw.
CI_UNSURVEYED_FAMILIES = ("opinfo", "opinfo_shape", "opinfo_torch", "opinfo_functional", "opinfo_module", "opinfo_math",
                          "mask", "nonfinite", "wide_int")


#: Families the ``ci`` profile draws in dynamic cases only: the ops that read sizes were
#: surveyed under dynamic dims before static programs drew them too.
CI_STATIC_UNSURVEYED_FAMILIES = ("size",)


def ci_op_families(*, dynamic: bool = False) -> list[str]:
    """The op families the ``ci`` profile draws: every one but ``CI_UNSURVEYED_FAMILIES``
    (and, in a static case, ``CI_STATIC_UNSURVEYED_FAMILIES``)."""
    from strategies.ops import FAMILIES

    left_out = CI_UNSURVEYED_FAMILIES + (() if dynamic else CI_STATIC_UNSURVEYED_FAMILIES)
    return [f for f in FAMILIES if f not in left_out]

#: How the corpus replay judges (``--replay``): ``strict`` fails on anything but the
#: recorded answer (an unexpected pass is how a fix is noticed); ``inform`` records every
#: answer (``reports.releases``) and fails only on a verdict no row explains; ``auto`` is
#: strict on the project's pinned versions and informs under any other version set.
REPLAY_MODES = ("auto", "strict", "inform")


@dataclass(frozen=True)
class Config:
    """The settings of one run (``CONFIG`` holds it in pytest's ``config.stash``)."""

    #: Roundtrip's Hypothesis profile (``--roundtrip-profile``): one of ``PROFILES``.
    profile: str = "dev"
    #: Cases per backend (``--max-examples``); None = the profile's, which pytest_configure
    #: writes here once it has loaded the profile (``examples`` reads it).
    max_examples: int | None = None
    #: Where a run leaves its reports (``--reports``).
    reports: Path = field(default_factory=lambda: _workdir() / "reports" / "latest")
    #: The regression corpus a run reads its known bugs from (``--corpus``): the checkout's,
    #: or where the package is installed, the current project's. A run never writes it:
    #: its findings go to ``untriaged``, and join the corpus once triaged.
    corpus: Path = field(default_factory=lambda: _workdir() / "reports" / "corpus")
    #: Calibration caches (``--cache``).
    cache: Path = field(default_factory=lambda: _workdir() / ".roundtrip")
    #: TVM's target for the tvm-* backends (``--tvm-target``).
    tvm_target: str = "llvm"
    #: How the corpus replay judges (``--replay``): one of ``REPLAY_MODES``.
    replay: str = "auto"

    @classmethod
    def resolve(cls, options: Mapping[str, Any], environ: Mapping[str, str]) -> Config:
        """Each setting from its option when given (not None), else from its variable when
        set (not empty), else the default."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            given = options.get(f.name)
            if given is None and environ.get(ALIASES[f.name]):
                given = environ[ALIASES[f.name]]
            if given is not None:
                values[f.name] = _typed(f.name, given)
        return cls(**values)

    @property
    def untriaged(self) -> Path:
        """Where a run files what it found (one corpus-style entry per signature): under its
        reports, never in the tracked corpus; ``python -m reports.corpus add`` is the door."""
        return self.reports / "untriaged"

    def examples(self, search: str = "main") -> int:
        """Cases per backend for ``search`` (a key of ``SEARCH_SHARES``)."""
        if self.max_examples is None:
            raise ValueError("the budget is the profile's: resolve it first (pytest_configure does)")
        return max(1, self.max_examples // SEARCH_SHARES[search])

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Config:
        """For a tool run outside pytest: the variables alone."""
        return cls.resolve({}, os.environ if environ is None else environ)


def _typed(name: str, value: Any) -> Any:
    if name == "max_examples":
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"{ALIASES[name]} / --max-examples: {value!r} is not a whole number") from None
        if number < 1:
            raise ValueError(f"{ALIASES[name]} / --max-examples: {value!r} is not at least 1")
        return number
    if name in ("reports", "corpus", "cache"):
        return Path(value).resolve()
    if name == "profile" and value not in PROFILES:
        raise ValueError(f"{ALIASES[name]} / --roundtrip-profile: {value!r} is not one of {', '.join(PROFILES)}")
    if name == "replay" and value not in REPLAY_MODES:
        raise ValueError(f"{ALIASES[name]} / --replay: {value!r} is not one of {', '.join(REPLAY_MODES)}")
    return str(value)


#: Where pytest keeps the run's ``Config``: ``request.config.stash[CONFIG]``.
CONFIG = pytest.StashKey[Config]()
