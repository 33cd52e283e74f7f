"""Calibration: learn once what a frontend rejects cleanly, and spend a long run elsewhere.

A third of a tvm-ep run was clean rejections of the same few features (an unregistered
dict subclass, a Python scalar output, a handful of unsupported ops). A short pass
(``CALIBRATION_CASES`` cases through the real property) learns which features are
always rejected by an ``unsupported`` row of the known table, and the run then draws
cases without them (``strategies.cases(exclude=...)``). Features are container kinds,
ops, and ops on a first operand of one dtype (``calibration_features``).

What is calibrated away:

* only features of which every case in the pass ended ``unsupported`` (a clean rejection
  the table documents): a feature seen once in a pass, a crash, a hang, a mismatch, a
  known bug or a new finding is never excluded;
* and only features that explain rejections themselves: features are chosen greedily,
  the one that explains the most not-yet-explained rejections first (coarser before
  finer: an op before the op on one dtype), each explaining at least two, all by one
  row. An op that only ever appeared beside an unregistered dict subclass is explained
  by the dict subclass, and stays;
* and only features confirmed alone: ``PROBES`` cases drawn around the feature (the
  other learned features left out) must all be rejected by the same row.

The pass is short on purpose: a feature too rare to show in it costs a run little. What
it finds are the frequent clean rejections (container kinds, Python scalars, mutations,
common ops) that would take a large share of a long run.

The result is cached per backend (``--cache`` or ``ROUNDTRIP_CACHE``, default ``.roundtrip/``), keyed by
the frontend's version, the generator's vocabulary and the known table: any of them
changing makes a new pass. The report lists what was calibrated away.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import Phase, given, seed, settings

import strategies as gen
from strategies import Case
from strategies.features import DTYPE_CLASSES, case_features
from strategies.ops import OPS
from strategies.spec import CONTAINER_KINDS, DICT_KINDS

from . import steering
from .backends.base import Backend
from .config import Config
from .conformance import Recorder, StopSearch, conformance_property
from .known import KNOWN, Known, match
from .signature import Outcome
from .verdict import Verdict

__all__ = ["CALIBRATION_CASES", "cache_key", "cache_path", "calibrate", "calibration_features", "learn", "read_cache",
           "worth_it"]

#: Cases in the calibration pass, per backend.
CALIBRATION_CASES = 100
#: A feature is excluded only if it explains at least this many rejections.
MIN_CASES = 2
#: The default cache (``--cache``, ``ROUNDTRIP_CACHE``: ``harness.config``).
CACHE = Config().cache


def calibration_features(case: Case) -> set[str]:
    """The features a calibration pass learns from: ``strategies.features.case_features``."""
    return case_features(case)


def learn(records: list[tuple[frozenset[str], str | None]], min_cases: int = MIN_CASES) -> dict[str, dict[str, Any]]:
    """feature -> {"row", "cases"} from (features of a case, the unsupported row that
    rejected it, or None for any other outcome): ``harness.steering.learn``, the rule of the
    module docstring."""
    return steering.learn(records, min_cases)


#: Cases with the feature a probe must see rejected by the same row.
PROBES = 3


def _probe_strategy(feature: str, others: set[str]) -> Any:
    kind, _, name = feature.partition(":")
    name, _, dtype = name.partition("@")
    if kind == "container":
        return gen.cases(containers=list(DICT_KINDS) if name == "mapping" else [name], exclude=others)
    if kind == "output":
        return gen.cases(exclude=others)
    return gen.cases(ops=[name], dtypes=list(DTYPE_CLASSES.get(dtype, (dtype,))) if dtype else None, exclude=others)


def _confirmed(feature: str, row: str, others: set[str], backend: Backend, backend_spec: str,
               run_case: Callable[[Case, dict[str, Any]], Verdict], known_row: Callable[[Verdict], Known | None]) -> bool:
    """The feature alone (cases drawn around it, the other learned features left out) is
    rejected by ``row`` ``PROBES`` times out of ``PROBES``: it is the cause, not a
    passenger of rejections the pass could not explain otherwise."""
    seen: list[bool] = []

    def probe(case: Case, options: dict[str, Any]) -> None:
        if feature not in calibration_features(case):
            return
        verdict = run_case(case, options)
        known = known_row(verdict)
        seen.append(known is not None and known.kind == "unsupported" and known.id == row)
        if len(seen) == PROBES or not seen[-1]:
            raise StopSearch

    check = seed(0)(settings(max_examples=50, phases=[Phase.generate], database=None, deadline=None)(
        given(case=_probe_strategy(feature, others), options=backend.option_strategy())(probe)))
    try:
        check()
    except StopSearch:
        pass
    return len(seen) == PROBES and all(seen)


def worth_it(budget: int) -> bool:
    """Whether a run of ``budget`` cases per backend calibrates under ``--calibration auto``:
    when the pass is at most a quarter of the run (not the ``ci`` profile's 300)."""
    return budget >= 4 * CALIBRATION_CASES


def cache_path(backend_name: str, cache: Path = CACHE) -> Path:
    """Where the calibration of the backend named ``backend_name`` is cached."""
    return cache / "calibration" / f"{backend_name}.json"


def read_cache(backend_name: str, cache: Path = CACHE) -> dict[str, Any] | None:
    """The cached calibration ({"key", "cases", "features", "unconfirmed"}), whatever its
    key, or None where there is none; ``calibrate`` uses it only if ``cache_key`` matches."""
    path = cache_path(backend_name, cache)
    return json.loads(path.read_text()) if path.exists() else None


def cache_key(backend: Backend) -> str:
    """What a cached calibration is valid for: the frontend's version, the generator's
    vocabulary and the known table."""
    vocabulary = json.dumps([sorted((n, o.family) for n, o in OPS.items()), CONTAINER_KINDS,
                             [(k.id, k.kind, repr(replace(k, reason='', link='', no_entry=''))) for k in KNOWN]])
    return f"{backend.version()} / generator+table {hashlib.sha256(vocabulary.encode()).hexdigest()[:12]}"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One process calibrates a backend; its other shards wait and read the cache."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def calibrate(backend: Backend, backend_spec: str, run_case: Callable[[Case, dict[str, Any]], Verdict], *,
              refresh: bool = False, known_row: Callable[[Verdict], Known | None] | None = None,
              cache: Path = CACHE) -> dict[str, Any]:
    """The calibration of ``backend``: from the cache when its key matches, else from a
    pass of ``CALIBRATION_CASES`` cases (derandomised: the same cases every time).
    Returns {"key", "cases", "features": {feature: {"row", "cases"}}, "cached"}."""
    known_row = known_row or match
    path = cache_path(backend.name, cache)
    key = cache_key(backend)
    with _locked(path):
        stored = None if refresh else read_cache(backend.name, cache)
        if stored is not None and stored.get("key") == key:
            return {**stored, "cached": True}
        records: list[tuple[frozenset[str], str | None]] = []

        class Collect(Recorder):
            def record(self, case: Case, verdict: Verdict, known: Known | None, replay: str = "") -> None:
                clean = verdict.outcome == Outcome.UNSUPPORTED and known is not None
                records.append((frozenset(calibration_features(case)), known.id if clean else None))

        check = seed(0)(settings(max_examples=CALIBRATION_CASES, phases=[Phase.generate], database=None,
                                 derandomize=False, deadline=None)(
            conformance_property(backend, backend_spec, run_case, Collect(), gen.cases(), keep_going=True,
                                 known_row=known_row)))
        check()
        learned = learn(records)
        features = {f: e for f, e in learned.items()
                    if _confirmed(f, e["row"], set(learned) - {f}, backend, backend_spec, run_case, known_row)}
        result = {"key": key, "cases": len(records), "features": features,
                  "unconfirmed": sorted(set(learned) - set(features))}
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(result, indent=1, sort_keys=True))
        os.replace(tmp, path)
        return {**result, "cached": False}
