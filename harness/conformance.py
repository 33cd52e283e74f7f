"""The property every backend must satisfy, shared by the suite and its self-tests.

For every drawn case and drawn frontend options: the backend returns what eager
PyTorch returns, or fails in a way already on file (``harness.known``). Anything else
fails the property, and Hypothesis shrinks it to a minimal case.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import given, seed, settings
from hypothesis import strategies as st

import strategies as gen
from strategies import Case, engine
from strategies.programs import chain_depth

from .backends.base import Backend
from .database import database_key
from .known import Known, counted_outcome, match, passed_or_rejected_cleanly
from .steering import Learner
from .subjects import Subject, kind_of, subject_to_json
from .verdict import Verdict

__all__ = ["ConformanceFailure", "Judged", "Recorder", "StopSearch", "conformance_property", "judge", "replay_command"]

RunCase = Callable[[Case, dict[str, Any]], Verdict]


def replay_command(backend: Backend, backend_spec: str, case: Subject, options: dict[str, Any]) -> str:
    """The command that runs ``case`` again as it ran: every setting the adapter was
    configured with (``Backend.settings``, the TVM target) is on the line, so that the
    replayer's own environment does not change the verdict."""
    settings = "".join(f" --{name.replace('_', '-')} {shlex.quote(str(value))}"
                       for name, value in sorted(backend.configured.items()))
    if kind_of(case).tag == "own_model":  # a model named by its factory: checked by name again
        return f"python -m suites check {shlex.quote(case.factory)} --backend {shlex.quote(backend_spec)}{settings}"
    return (
        f"python -m suites.replay --backend {shlex.quote(backend_spec)}{settings} "
        f"--options {shlex.quote(json.dumps(options, sort_keys=True))} --case {shlex.quote(subject_to_json(case))}"
    )


class StopSearch(BaseException):
    """Raised from inside a case to end a Hypothesis run at once (a time budget spent,
    enough probes seen): not an Exception, so Hypothesis neither shrinks nor records it."""


class ConformanceFailure(AssertionError):
    """A new finding: carries the (shrunk, when Hypothesis re-raises it) case."""

    def __init__(self, backend: Backend, backend_spec: str, case: Subject, options: dict[str, Any], verdict: Verdict):
        self.backend, self.backend_spec = backend, backend_spec
        case = kind_of(case).pruned(case)
        self.case = case
        self.options = options
        self.verdict = verdict
        lines = [
            f"{backend.name} ({backend.version()}): new {verdict.outcome} at stage {verdict.staged!r}",
            f"  {verdict.headline()}",
        ]
        lines += [f"  also {d.where or '<output>'}: {d.kind}" for d in verdict.differences[1:4]]
        if verdict.notes:
            lines.append(f"  notes: {'; '.join(verdict.notes)}")
        lines += [
            f"  ops: {', '.join(case.ops())}; options: {json.dumps(options, sort_keys=True)}",
            f"  signature: {verdict.signature()}",
            f"  replay: {replay_command(backend, backend_spec, case, options)}",
        ]
        if verdict.traceback:
            lines += ["  backend traceback (last lines):", *("    " + t for t in verdict.traceback.splitlines()[-8:])]
        super().__init__("\n".join(lines))


@dataclass
class Judged:
    """One case judged: its verdict (counted as the row says), the row that explains it,
    and, where none does and it did not pass, the new finding."""

    verdict: Verdict
    known: Known | None
    failure: ConformanceFailure | None


def judge(backend: Backend, backend_spec: str, case: Subject, options: dict[str, Any], run_case: RunCase,
          known_row: Callable[[Verdict], Known | None] = match, recorder: Recorder | None = None) -> Judged:
    """A case's life from the run to its finding, the same for the suite, ``check``,
    ``replay`` and the hunt: run it (``run_case``: in the worker, or in process), match a
    row, count it as the row says (a clean rejection is ``unsupported``), record it, and
    name a verdict no row explains a new finding. Shrinking it and filing it are the
    callers' (``suites.findings.shrink_and_file``)."""
    verdict = run_case(case, options)
    known = known_row(verdict)
    verdict.outcome = counted_outcome(verdict, known)
    if recorder is not None:
        recorder.record(case, verdict, known, replay_command(backend, backend_spec, case, options) if known else "")
    new = known is None and not passed_or_rejected_cleanly(verdict, known)
    return Judged(verdict, known, ConformanceFailure(backend, backend_spec, case, options, verdict) if new else None)


@dataclass
class Recorder:
    """Counts outcomes per backend, and known and new findings by signature.

    With a ``journal`` (a path), every record is also appended to it as a JSON line,
    flushed as it is written: a process that is interrupted or killed loses at most the
    case in flight, and ``from_journals`` rebuilds the counts from what the processes of
    a run wrote (``reports.summary`` builds every report that way).
    """

    outcomes: Counter = field(default_factory=Counter)
    known: Counter = field(default_factory=Counter)
    new: dict[str, dict[str, Any]] = field(default_factory=dict)
    deviations: Counter = field(default_factory=Counter)
    #: backend -> seconds spent in the pipeline (materialize to judge), for throughput
    seconds: Counter = field(default_factory=Counter)
    #: backend -> feature -> outcome -> count (features: container kinds, dtypes, special
    #: leaves, ops, ops on a first operand of one dtype: ``SubjectKind.features``)
    features: dict[str, dict[str, Counter]] = field(default_factory=dict)
    #: backend -> what calibration left out of its run (``harness.calibration``)
    calibration: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: backend -> feature -> {"row", "cases"}: what the run's steer drew in its free share
    #: only (``harness.steering``), over all its searches and shards (cases added up)
    steered: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    #: row id -> signature -> {backend, count, case, replay}: every distinct verdict a
    #: known row explained, with one example, so that a row hiding two bugs shows
    absorbed: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    #: (backend, outcome, chain depth) -> generated cases (``strategies.programs.chain_depth``
    #: of the pruned case): how deep the judged programs go
    depths: Counter = field(default_factory=Counter)
    #: (backend, size role, outcome) -> calls of dynamic cases (``strategies.dynamic.ROLES``);
    #: (backend, "cases", outcome) counts the dynamic cases themselves
    dynamic: Counter = field(default_factory=Counter)
    journal: str | None = None

    def record(self, case: Subject, verdict: Verdict, known: Known | None, replay: str = "") -> None:
        record = {"backend": verdict.backend, "outcome": verdict.outcome, "seconds": verdict.seconds,
                  "known": [known.id, known.kind] if known is not None else None, "notes": list(verdict.notes),
                  "features": sorted(kind_of(case).features(case))}
        if kind_of(case).generated:
            record["depth"] = chain_depth(case.pruned())
        if verdict.sizes:  # a dynamic case: the outcome at each size it ran at
            record["sizes"] = [[s["role"], s["outcome"]] for s in verdict.sizes]
        if known is not None:
            record["signature"] = verdict.signature()
            if record["signature"] not in self.absorbed.get(known.id, {}):  # one example is enough
                record["example"] = {"case": subject_to_json(case), "replay": replay}
        self._case(record)

    def record_new(self, failure: ConformanceFailure) -> None:
        self._new(failure.verdict.signature(), {
            "backend": failure.verdict.backend, "outcome": failure.verdict.outcome,
            "headline": failure.verdict.headline(), "case": subject_to_json(failure.case),
            "options": failure.options, "replay": replay_command(failure.backend, failure.backend_spec, failure.case, failure.options),
        })

    def record_calibration(self, backend: str, calibrated: dict[str, Any]) -> None:
        self.calibration[backend] = calibrated
        self._write({"calibration": {"backend": backend, **calibrated}})

    def budget(self) -> dict[str, dict[str, Any]]:
        """Where each backend's cases went: the shares judged (outputs compared: ``pass`` or
        ``mismatch``), rejected cleanly (``unsupported``), explained by a known bug, and new
        (no row), of all its cases; and how deep the judged programs go (their median chain
        depth, the share two or more ops deep), over the generated cases that record one."""
        found: dict[str, dict[str, Any]] = {}
        for b in sorted({b for b, _ in self.outcomes}):
            total = sum(n for (kb, _), n in self.outcomes.items() if kb == b)
            judged = self.outcomes.get((b, "pass"), 0) + self.outcomes.get((b, "mismatch"), 0)
            bugs = sum(n for (kb, _, kind), n in self.known.items() if kb == b and kind == "bug")
            explained = sum(n for (kb, _, _), n in self.known.items() if kb == b)
            unexplained = total - explained - self.outcomes.get((b, "pass"), 0)
            depths = sorted(d for (kb, o, d), n in self.depths.items() if kb == b and o in ("pass", "mismatch")
                            for _ in range(n))
            found[b] = {"cases": total, "judged": judged / total, "unsupported": self.outcomes.get((b, "unsupported"), 0) / total,
                        "known bug": bugs / total, "new": max(0, unexplained) / total,
                        "median depth": depths[len(depths) // 2] if depths else None,
                        "two or more deep": sum(d >= 2 for d in depths) / len(depths) if depths else None}
        return found

    def record_steering(self, backend: str, demoted: dict[str, dict[str, Any]]) -> None:
        self._steered(backend, demoted)
        self._write({"steered": {"backend": backend, "features": demoted}})

    def _steered(self, backend: str, demoted: dict[str, dict[str, Any]]) -> None:
        mine = self.steered.setdefault(backend, {})
        for feature, why in demoted.items():
            mine.setdefault(feature, {"row": why["row"], "cases": 0})["cases"] += why["cases"]

    def _case(self, r: dict[str, Any]) -> None:
        backend, outcome = r["backend"], r["outcome"]
        self.outcomes[(backend, outcome)] += 1
        self.seconds[backend] += r["seconds"]
        if r["known"] is not None:
            self.known[(backend, *r["known"])] += 1
            if "signature" in r:
                seen = self.absorbed.setdefault(r["known"][0], {}).setdefault(
                    r["signature"], {"backend": backend, "count": 0, "notes": r["notes"], **r.get("example", {})})
                seen["count"] += 1
        if "depth" in r:
            self.depths[(backend, outcome, r["depth"])] += 1
        for note in r["notes"]:
            self.deviations[(backend, note)] += 1
        if "sizes" in r:
            self.dynamic[(backend, "cases", outcome)] += 1
            for role, at in r["sizes"]:
                self.dynamic[(backend, role, at)] += 1
        per_backend = self.features.setdefault(backend, {})
        for feature in r["features"]:
            per_backend.setdefault(feature, Counter())[outcome] += 1
        self._write({"case": r})

    def _new(self, signature: str, entry: dict[str, Any]) -> None:
        self.new.setdefault(signature, {**entry, "count": 0})["count"] += 1
        self._write({"new": {"signature": signature, **entry}})

    def _write(self, record: dict[str, Any]) -> None:
        if self.journal is not None:
            # Opened per record: a line is whole on disk once this returns, and the
            # file survives a fork; appends of one line from one process never interleave.
            with open(self.journal, "a") as out:
                out.write(json.dumps(record, sort_keys=True) + "\n")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Recorder:
        """The inverse of ``to_dict`` (what a findings.json holds)."""
        return cls(
            outcomes=Counter({(b, o): n for b, o, n in data["outcomes"]}),
            known=Counter({(b, i, k): n for b, i, k, n in data["known"]}),
            new={s: dict(e) for s, e in data["new"].items()},
            deviations=Counter({(b, d): n for b, d, n in data["deviations"]}),
            features={b: {f: Counter(c) for f, c in fs.items()} for b, fs in data["features"].items()},
            seconds=Counter(data["seconds"]),
            calibration=dict(data["calibration"]),
            steered={b: {f: dict(e) for f, e in fs.items()} for b, fs in data.get("steered", {}).items()},
            absorbed={row: {s: dict(e) for s, e in seen.items()} for row, seen in data["absorbed"].items()},
            dynamic=Counter({(b, r, o): n for b, r, o, n in data.get("dynamic", [])}),
            depths=Counter({(b, o, d): n for b, o, d, n in data.get("depths", [])}),
        )

    def add(self, other: Recorder) -> None:
        """Add another part of the same campaign (a shard): counts add; a signature both
        saw is one entry, its count the sum, its example the first part's."""
        for mine, theirs in ((self.outcomes, other.outcomes), (self.known, other.known),
                             (self.deviations, other.deviations), (self.seconds, other.seconds),
                             (self.dynamic, other.dynamic), (self.depths, other.depths)):
            mine.update(theirs)
        for backend, features in other.features.items():
            for feature, counts in features.items():
                self.features.setdefault(backend, {}).setdefault(feature, Counter()).update(counts)
        for signature, entry in other.new.items():
            self.new.setdefault(signature, {**entry, "count": 0})["count"] += entry["count"]
        for row, seen in other.absorbed.items():
            for signature, entry in seen.items():
                self.absorbed.setdefault(row, {}).setdefault(signature, {**entry, "count": 0})["count"] += entry["count"]
        for backend, calibrated in other.calibration.items():  # one pass per backend, on its first part
            self.calibration.setdefault(backend, calibrated)
        for backend, demoted in other.steered.items():
            self._steered(backend, demoted)

    @classmethod
    def from_journals(cls, paths: list[Path]) -> Recorder:
        """The counts the journals add up to. A last line cut short by a kill is skipped."""
        rebuilt = cls()
        for path in sorted(paths):
            for line in path.read_text().splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if "case" in record:
                    rebuilt._case(record["case"])
                elif "new" in record:
                    entry = dict(record["new"])
                    rebuilt._new(entry.pop("signature"), entry)
                elif "calibration" in record:
                    entry = dict(record["calibration"])
                    rebuilt.calibration[entry.pop("backend")] = entry
                elif "steered" in record:
                    rebuilt._steered(record["steered"]["backend"], record["steered"]["features"])
        return rebuilt

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcomes": [[b, o, n] for (b, o), n in sorted(self.outcomes.items())],
            "known": [[b, i, k, n] for (b, i, k), n in sorted(self.known.items())],
            "new": self.new,
            "deviations": [[b, d, n] for (b, d), n in sorted(self.deviations.items())],
            "features": {b: {f: dict(c) for f, c in fs.items()} for b, fs in self.features.items()},
            "seconds": dict(self.seconds),
            "calibration": self.calibration,
            "steered": self.steered,
            "absorbed": self.absorbed,
            "dynamic": [[b, r, o, n] for (b, r, o), n in sorted(self.dynamic.items())],
            "depths": [[b, o, d, n] for (b, o, d), n in sorted(self.depths.items())],
        }


def conformance_property(
    backend: Backend,
    backend_spec: str,
    run_case: RunCase,
    recorder: Recorder,
    case_strategy: st.SearchStrategy[Case] | None = None,
    *,
    keep_going: bool = False,
    known_row: Callable[[Verdict], Known | None] = match,
    shard: tuple[int, int] = (0, 1),
    examples: int | None = None,
    database_name: str = "",
    dynamic: bool = False,
    learner: Learner | None = None,
) -> Callable[[], None]:
    """The Hypothesis test for one backend; settings come from the active profile.

    ``keep_going`` records new findings (unshrunk) instead of failing on the first,
    to survey a frontend; the caller fails afterwards if any were recorded.
    ``known_row`` looks a verdict up in the known table (benchmarks hide a row from it
    to time the search for, and the shrinking of, a real bug).
    ``shard`` = (index, count) runs one of ``count`` equal parts of the profile's budget
    (or of ``examples``), so that ``pytest -n`` can spread one backend over several
    processes. ``database_name`` keys the example database (default: the backend's name).
    ``dynamic`` draws the backend's dynamic options too (``Backend.dynamic_option_strategy``).
    ``learner`` is told every judged case (``harness.steering``): the steer of the
    ``case_strategy`` it feeds is frozen before a failing case is shrunk.
    """
    options_strategy = backend.option_strategy()
    if dynamic:
        options_strategy = st.tuples(options_strategy, backend.dynamic_option_strategy()).map(
            lambda both: {**both[0], **both[1]})

    @given(case=case_strategy if case_strategy is not None else gen.cases(), options=options_strategy)
    def check(case: Case, options: dict[str, Any]) -> None:
        judged = judge(backend, backend_spec, case, options, run_case, known_row, recorder)
        failure = judged.failure
        if failure is not None and not keep_going:
            if learner is not None:  # the shrinker's replays must draw as this case was drawn
                learner.steer.freeze()
            raise failure
        if learner is not None:
            learner.observe(case, judged.known, judged.verdict)
        if failure is not None:
            recorder.record_new(failure)

    # Hypothesis would key the example database by check's source, the same for every
    # backend: key it by backend, shared by the backend's shards. (A --hypothesis-seed
    # run replays no database, as Hypothesis has it.)
    if engine.forced_seed() is None:
        engine.key_database(check, database_key(database_name or backend.name))
    return _sharded(check, *shard, examples)


def shard_budget(examples: int, index: int, count: int) -> int:
    """Part ``index`` of ``count``'s share of ``examples``: the parts add up to it exactly."""
    share, left_over = divmod(examples, count)
    return share + (index < left_over)


def _sharded(check: Callable[[], None], index: int, count: int, budget: int | None = None) -> Callable[[], None]:
    if count == 1:
        return check if budget is None else settings(settings(), max_examples=budget)(check)
    examples = shard_budget(settings().max_examples if budget is None else budget, index, count)
    if examples == 0:  # more parts than examples
        return lambda: None
    check = settings(settings(), max_examples=examples)(check)
    # Parts must draw different cases: each gets its own seed where the run is seeded
    # (derandomised, or --hypothesis-seed); unseeded runs differ anyway.
    base = engine.forced_seed() if engine.forced_seed() is not None else 0 if settings().derandomize else None
    return check if base is None else seed(f"{base}/shard {index} of {count}")(check)
