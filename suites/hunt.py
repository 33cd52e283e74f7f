"""Find and shrink the bug behind one row of the known table, with that row hidden.

A ``bug`` row is only as good as the evidence behind it: this runs the conformance
search on one backend as if the row were not on file, so the row's verdicts are new
findings that Hypothesis shrinks, while every other row (and every other new finding)
counts as known and cannot take the shrink over.

    python -m suites.hunt [ROW ...] [--backend B] [--examples N] [--findings F]

finds, shrinks and files each row's bug as the row's corpus entry (default: every row
that has neither an entry nor a reason in ``no_entry``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, seed, settings

from harness.config import Config
from harness.conformance import ConformanceFailure, Recorder, conformance_property
from harness.item_seconds import recorded_seconds
from harness.known import SURVEY, Known, match, root_causes, row
from harness.registry import load_backend
from harness.signature import Outcome
from harness.subjects import kind_of
from harness.verdict import Verdict
from harness.worker import Worker
from reports.entries import Entry, load_entries
from reports.evidence import known_rows, rows_without_entry
from strategies import cases
from strategies.architectures import architectures
from strategies.engine import draw_as_the_suite_does
from strategies.ops import OPS, STRUCTURAL_FAMILIES
from suites.filing import shrink_and_file

__all__ = ["architecture_families", "focus_ops", "hunt", "needs_dynamic"]

#: Seconds each backend's items took in the last ``ci`` survey: the fastest is searched first.

#: Stands in for "known" for every verdict that is not the hunted row's.
_ELSEWHERE = Known(id="elsewhere", backends=("*",), kind="bug", reason="")


def focus_ops(target: Known, backend_spec: str, findings: Path | None = None,
              entries: list[Entry] | None = None) -> tuple[str, ...]:
    """The ops ``target`` names in its fields, those of the verdicts it explained on
    ``backend_spec`` in the last ``ci`` survey (``harness.known.SURVEY``), those its
    corpus entries' cases ran (meta ``ops``) and, given a run's ``findings.json``, those
    of the example cases of the row there, with every op that computes nothing (inputs,
    views, state, constants); empty when none names an op. Where every op named computes
    nothing, programs of those leaves alone."""
    verdicts = [v for v in json.loads(SURVEY.read_text()) if v["backend"] == backend_spec]
    named = {part for (_, op) in root_causes(target, verdicts) for part in op.split("+") if part in OPS}
    named |= {op for op in target.named_ops() if op in OPS}
    named |= {op for e in entries or () if e.meta.get("row") == target.id for op in e.meta.get("ops") or () if op in OPS}
    if findings is not None and findings.exists():
        examples = json.loads(findings.read_text()).get("absorbed", {}).get(target.id, {}).values()
        named |= {v["op"] for e in examples if e["backend"] == backend_spec and "case" in e
                  for v in json.loads(e["case"])["values"] if v["op"] in OPS}
    # A row of leaves alone (a Python constant returned, a view): programs of leaves only,
    # where no crash of a computing op hides it.
    if not named:
        return ()
    return tuple(n for n in OPS if n in named or OPS[n].family in STRUCTURAL_FAMILIES)


def needs_dynamic(target: Known) -> bool:
    """Every form of the row shows only on a dynamic case (``dynamic=True``, or size roles):
    a static search cannot reach it."""
    return all(form.dynamic is True or bool(form.sizes) for form in (target, *target.also))


def architecture_families(target: Known, entries: list[Entry]) -> tuple[str, ...]:
    """The families of the real architectures (``strategies.architectures``) the row's
    corpus entries are: its bug shows on a whole model, which generated programs may
    never draw."""
    return tuple(dict.fromkeys(e.case.family for e in entries
                               if e.meta.get("row") == target.id and kind_of(e.case).tag == "architecture"))


def hunt(target: Known, backend_spec: str, *, examples: int = 1000, search_seed: int = 0,
         worker: Worker | None = None, ops: tuple[str, ...] = (), config: Config | None = None,
         input_trees: bool = False, dynamic: bool | None = None,
         families: tuple[str, ...] = ()) -> ConformanceFailure | None:
    """The shrunk failure of ``backend_spec`` that ``target`` explains, or None when
    ``examples`` cases did not reach it; ``ops`` narrows the programs to those ops;
    ``input_trees`` draws how forward takes its inputs too (``cases(input_trees=True)``);
    ``dynamic`` draws dynamic cases, compiled once and called at many sizes, as the
    dynamic-shapes search does (default: where the row shows only on those);
    ``families`` searches real architectures of those families instead of programs."""
    draw_as_the_suite_does()  # the draws a pytest run makes (conftest.py)
    config = config or Config.from_environment()
    backend = load_backend(backend_spec, config)
    own = worker is None
    worker = worker or Worker(timeout=180, config=config)

    def run_case(case: Any, options: dict[str, Any]) -> Verdict:
        return worker.run(backend_spec, case, options)

    rows = known_rows(config.corpus)

    def known_row(verdict: Verdict) -> Known | None:
        if verdict.outcome == Outcome.PASS:
            return None
        if target.matches(verdict):
            return None  # hidden: the hunted bug fails the search
        return match(verdict, rows) or _ELSEWHERE

    dynamic = needs_dynamic(target) if dynamic is None else dynamic
    if dynamic and not backend.dynamic:
        return None  # a static-only frontend (tvm-fx): its dynamic cases would be static ones
    if families:  # as test_architectures_round_trip draws them
        strategy, dynamic = architectures(families=families), False
    elif dynamic:  # as test_dynamic_shapes_round_trip draws them
        strategy = cases(ops=ops or None, dynamic=True, exportable=True)
    else:
        strategy = cases(ops=ops or None, input_trees=True) if input_trees else cases(ops=ops) if ops else None
    # No explain phase: it re-runs the shrunk case many times to say which parts matter.
    check = seed(search_seed)(settings(max_examples=examples, deadline=None, database=None,
                                       phases=[Phase.generate, Phase.shrink],
                                       suppress_health_check=list(HealthCheck))(
        conformance_property(backend, backend_spec, run_case, Recorder(), strategy, known_row=known_row,
                             dynamic=dynamic)))
    try:
        check()
    except ConformanceFailure as failure:
        return failure
    finally:
        if own:
            worker.close()
    return None


def search_order(target: Known) -> list[str]:
    """The row's backends: those the last ``ci`` survey saw it on first, then the one that
    run covered fastest (its item seconds)."""
    seconds = recorded_seconds()
    surveyed = json.loads(SURVEY.read_text())
    # The row's own matching (stages, notes, wrapped errors), as focus_ops reads the survey.
    seen = {b for b in target.backends if root_causes(target, [v for v in surveyed if v["backend"] == b])}
    # Where the survey saw the row, only there: a search elsewhere costs as much and finds less.
    return sorted((b for b in target.backends if b != "*" and (b in seen or not seen)), key=lambda b: (
        sum(t for item, t in seconds.items() if item.split()[0] == b) or float("inf")))


def find(row_id: str, backend_spec: str | None, examples: int, worker: Worker, findings: Path | None = None,
         config: Config | None = None, input_trees: bool = False) -> bool:
    """Hunt the row's bug on its backends in turn; file the first shrunk failure as its entry."""
    target = row(row_id)
    config = config or Config.from_environment()
    entries = [e for e in load_entries() if isinstance(e, Entry)]  # the tracked corpus: the row's evidence
    families = architecture_families(target, entries)
    for spec in [backend_spec] if backend_spec else search_order(target):
        # First among the architectures of the row's entries, or the ops the last survey
        # saw the row on (far fewer cases to reach it), then among every op.
        ops = focus_ops(target, spec, findings, entries)
        failure = hunt(target, spec, examples=examples, worker=worker, config=config,
                       families=families) if families else None
        if failure is None and ops:
            failure = hunt(target, spec, examples=examples, worker=worker, ops=ops, config=config,
                           input_trees=input_trees)
        failure = failure or hunt(target, spec, examples=examples, worker=worker, config=config, input_trees=input_trees)
        if failure is None:
            print(f"{row_id}: not reached on {spec} in {examples} cases", flush=True)
            continue

        def run_case(case: Any, options: dict[str, Any], spec: str = spec) -> Verdict:
            return worker.run(spec, case, options)

        entry = shrink_and_file(failure, run_case, config.corpus, entry=row_id, row=row_id)[1]
        print(f"{row_id}: {entry}", flush=True)
        return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m suites.hunt",
                                     description="find and shrink known rows' bugs, and file each as the row's entry")
    parser.add_argument("rows", nargs="*", help="row ids of harness.known (default: every row without an entry)")
    parser.add_argument("--backend", help="the backend to search (default: each of the row's, in turn)")
    parser.add_argument("--examples", type=int, default=1000, help="cases to try per backend (default 1000)")
    parser.add_argument("--input-trees", action="store_true", help="draw inputs in trees, beside None and flags "
                        "(the search of test_input_trees_round_trip)")
    parser.add_argument("--findings", type=Path, help="a run's findings.json: the ops of its examples of the row "
                        "narrow the search first")
    parser.add_argument("--tvm-target", default=None, help="TVM's target (alias ROUNDTRIP_TVM_TARGET; default llvm)")
    args = parser.parse_args(argv)
    config = Config.resolve({"tvm_target": args.tvm_target}, os.environ)
    entries = [e for e in load_entries(config.corpus) if isinstance(e, Entry)]
    rows = args.rows or [k.id for k in rows_without_entry(entries=entries)]
    worker = Worker(timeout=300, config=config)
    try:
        found = sum(find(row_id, args.backend, args.examples, worker, args.findings, config, args.input_trees)
                    for row_id in rows)
    finally:
        worker.close()
    print(f"{found} of {len(rows)} rows found and filed")
    return 0 if found == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
