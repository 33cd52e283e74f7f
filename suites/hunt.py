"""Find and shrink the bug behind one row of the known table, with that row hidden.

A ``bug`` row is only as good as the evidence behind it: this runs the conformance
search on one backend as if the row were not on file, so the row's verdicts are new
findings that Hypothesis shrinks, while every other row (and every other new finding)
counts as known and cannot take the shrink over. ``python -m reports.corpus find ROW``
saves the result as the row's corpus entry.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, seed, settings

from strategies import cases
from strategies.cases import STRUCTURAL_FAMILIES
from strategies.draws import ignore_local_constants
from strategies.ops import OPS

from .conformance import ConformanceFailure, Recorder, conformance_property
from .known import KNOWN, SURVEY, Known, match, root_causes
from .runner import Verdict, load_backend
from .worker import Worker

__all__ = ["focus_ops", "hunt", "row"]

#: Stands in for "known" for every verdict that is not the hunted row's.
_ELSEWHERE = Known("elsewhere", ("*",), "bug", "", "")


def row(row_id: str) -> Known:
    found = next((k for k in KNOWN if k.id == row_id), None)
    if found is None:
        raise KeyError(f"no row {row_id!r} in suites.known.KNOWN")
    return found


def focus_ops(target: Known, backend_spec: str, findings: Path | None = None) -> tuple[str, ...]:
    """The ops ``target`` names in its pattern, those of the verdicts it explained on
    ``backend_spec`` in the last ``ci`` survey (``suites.known.SURVEY``) and, given a
    run's ``findings.json``, those of the example cases of the row there, with every op
    that computes nothing (inputs, views, state, constants); empty when none names an
    op."""
    verdicts = [v for v in json.loads(SURVEY.read_text()) if v["backend"] == backend_spec]
    named = {part for (_, op) in root_causes(target, verdicts) for part in op.split("+") if part in OPS}
    named |= {word for word in re.findall(r"[a-z_]+", target.pattern) if word in OPS}
    if findings is not None and findings.exists():
        examples = json.loads(findings.read_text()).get("absorbed", {}).get(target.id, {}).values()
        named |= {v["op"] for e in examples if e["backend"] == backend_spec and "case" in e
                  for v in json.loads(e["case"])["values"] if v["op"] in OPS}
    if not named - {n for n in OPS if OPS[n].family in STRUCTURAL_FAMILIES}:
        return ()
    return tuple(n for n in OPS if n in named or OPS[n].family in STRUCTURAL_FAMILIES)


def hunt(target: Known, backend_spec: str, *, examples: int = 1000, search_seed: int = 0,
         worker: Worker | None = None, ops: tuple[str, ...] = ()) -> ConformanceFailure | None:
    """The shrunk failure of ``backend_spec`` that ``target`` explains, or None when
    ``examples`` cases did not reach it; ``ops`` narrows the programs to those ops."""
    ignore_local_constants()  # the draws a pytest run makes (conftest.py)
    backend = load_backend(backend_spec)
    own = worker is None
    worker = worker or Worker(timeout=180)

    def run_case(case: Any, options: dict[str, Any]) -> Verdict:
        return worker.run(backend_spec, case, options)

    def known_row(verdict: Verdict) -> Known | None:
        if verdict.outcome == "pass":
            return None
        if target.matches(verdict):
            return None  # hidden: the hunted bug fails the search
        return match(verdict) or _ELSEWHERE

    # No explain phase: it re-runs the shrunk case many times to say which parts matter.
    check = seed(search_seed)(settings(max_examples=examples, deadline=None, database=None,
                                       phases=[Phase.generate, Phase.shrink],
                                       suppress_health_check=list(HealthCheck))(
        conformance_property(backend, backend_spec, run_case, Recorder(), cases(ops=ops) if ops else None,
                             known_row=known_row)))
    try:
        check()
    except ConformanceFailure as failure:
        return failure
    finally:
        if own:
            worker.close()
    return None
