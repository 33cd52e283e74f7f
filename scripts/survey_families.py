"""Survey op families on the CPU frontends, as the ``ci`` profile would once it draws them.

    python scripts/survey_families.py [--examples N] [--backend B ...] [--op NAME ...] [FAMILY ...]

Draws ``N`` derandomised programs per backend whose computing ops come from the named
families (default: those the ``ci`` profile leaves out, ``harness.config.CI_UNSURVEYED_FAMILIES``),
runs each in a worker process (a segfault is a verdict), and prints, per backend, the
outcomes and every verdict no row of ``harness/known/`` or open corpus entry explains,
with its smallest case's replay command. A family leaves ``CI_UNSURVEYED_FAMILIES``
once this prints no new verdict on any frontend.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.config import CI_UNSURVEYED_FAMILIES, Config  # noqa: E402
from harness.conformance import Recorder, conformance_property  # noqa: E402
from harness.known import match  # noqa: E402
from harness.registry import load_backend  # noqa: E402
from harness.worker import Worker  # noqa: E402
from reports.evidence import known_rows  # noqa: E402
from strategies import cases  # noqa: E402
from strategies.engine import draw_as_the_suite_does  # noqa: E402
from strategies.ops import OPS, STRUCTURAL_FAMILIES  # noqa: E402

CPU_FRONTENDS = ("tvm-ep", "tvm-fx", "tvm-dynamo", "inductor", "onnx", "openvino")


def survey(spec: str, families: tuple[str, ...], examples: int, worker: Worker, config: Config,
           ops: tuple[str, ...] = ()) -> Recorder:
    backend = load_backend(spec, config)
    rows = known_rows(config.corpus)
    recorder = Recorder()
    structural = tuple(n for n, op in OPS.items() if op.family in STRUCTURAL_FAMILIES)
    strategy = cases(op_families=[*STRUCTURAL_FAMILIES, *families], ops=(*ops, *structural) if ops else None)
    check = seed(0)(settings(max_examples=examples, deadline=None, database=None, derandomize=False,
                             phases=[Phase.generate], suppress_health_check=list(HealthCheck))(
        conformance_property(backend, spec, lambda case, options: worker.run(spec, case, options), recorder,
                             strategy, keep_going=True, known_row=lambda v: None if v.outcome == "pass"
                             else match(v, rows))))
    check()
    return recorder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("families", nargs="*", default=list(CI_UNSURVEYED_FAMILIES))
    parser.add_argument("--examples", type=int, default=100)
    parser.add_argument("--backend", action="append", default=[])
    parser.add_argument("--op", action="append", default=[], help="only these ops of the families (and the leaves)")
    parser.add_argument("--json", type=Path, help="also write the new verdicts here")
    options = parser.parse_args(argv)
    draw_as_the_suite_does()
    config = Config.from_environment()
    worker = Worker(timeout=180, config=config)
    found: dict[str, Any] = {}
    try:
        for spec in options.backend or CPU_FRONTENDS:
            recorder = survey(spec, tuple(options.families), options.examples, worker, config, tuple(options.op))
            outcomes = Counter({o: n for (b, o), n in recorder.outcomes.items() if b == spec})
            print(f"## {spec}: {dict(outcomes)}; known {sum(recorder.known.values())}; new {len(recorder.new)}",
                  flush=True)
            for signature, new in sorted(recorder.new.items()):
                print(f"- {signature}\n    {new['replay']}", flush=True)
                found[f"{spec} {signature}"] = new
    finally:
        worker.close()
    if options.json:
        options.json.write_text(json.dumps(found, indent=1, default=str))


if __name__ == "__main__":
    main()
