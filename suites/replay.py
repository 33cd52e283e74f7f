"""Replay one case on one backend: ``python -m suites.replay --backend NAME --case JSON``.

Prints the outcome, every difference, and (with ``--source``) the standalone model.
Exits 0 on a pass or a clean rejection (a row of kind ``unsupported``), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import warnings
from pathlib import Path

from harness.config import Config
from harness.conformance import judge
from harness.known import match, passed_or_rejected_cleanly
from harness.registry import load_backend
from harness.runner import execute
from harness.subjects import kind_of, subject_from_json
from harness.worker import Worker
from reports.evidence import known_rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m suites.replay", description=__doc__.splitlines()[0])
    parser.add_argument("--backend", required=True, help="built-in name or package.module:ClassName")
    parser.add_argument("--case", required=True, help="the case as JSON, or a path to a JSON file")
    parser.add_argument("--options", default="{}", help="frontend options as JSON (default {})")
    parser.add_argument("--isolate", action="store_true", help="run in a worker process (survives a segfault)")
    parser.add_argument("--source", action="store_true", help="print the standalone model first")
    parser.add_argument("--tvm-target", default=None, help="TVM's target (alias ROUNDTRIP_TVM_TARGET; default llvm)")
    args = parser.parse_args(argv)
    config = Config.resolve({"tvm_target": args.tvm_target}, os.environ)
    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)

    text = Path(args.case).read_text() if not args.case.lstrip().startswith("{") else args.case
    case = subject_from_json(text)
    options = json.loads(args.options)
    if args.source:
        print(kind_of(case).source(case))
    backend = load_backend(args.backend, config)
    worker = Worker(config=config) if args.isolate else None
    rows = known_rows(config.corpus)
    try:
        judged = judge(backend, args.backend, case, options,
                       (lambda c, o: worker.run(args.backend, c, o)) if worker else (lambda c, o: execute(backend, c, o)),
                       lambda verdict: match(verdict, rows))
    finally:
        if worker is not None:
            worker.close()
    verdict, known = judged.verdict, judged.known
    print(f"backend:  {verdict.backend}")
    for name, value in backend.configured.items():
        print(f"{name}: {value}")
    print(f"outcome:  {verdict.outcome} (stage {verdict.staged or '-'})")
    print(f"signature: {verdict.signature()}")
    if known is not None:
        print(f"known:    {known.id} ({known.kind}) {known.link}\n          {known.reason}")
    for difference in verdict.differences:
        d = difference
        print(f"  {d.where or '<output>'}: {d.kind} expected {d.expected}, got {d.actual} {d.detail}")
    for note in verdict.notes:
        print(f"  note: {note}")
    if verdict.message:
        print(verdict.traceback or verdict.message)
    return 0 if passed_or_rejected_cleanly(verdict, known) else 1


if __name__ == "__main__":
    sys.exit(main())
