"""A user's own model through the suite: ``python -m suites check pkg.module:factory``.

``factory()`` returns ``(model, args, kwargs)``, ``(model, args)`` or ``(model, inputs)``
with ``inputs()`` returning ``(args, kwargs)`` (see ``suites.own``). Every frontend
compiles the model in the suite's worker process and is judged as a generated case is:
the same oracle (structure, dtypes, shapes, values at each dtype's precision, buffers
and inputs after the call), the same contracts and known table. A new finding writes a
corpus-style entry (``meta.json``, ``model.json``, a ``repro.py`` that imports the
factory) under the reports directory, and the run leaves the same ``summary.md`` and
``summary.html`` as the suite.

    python -m suites check my_pkg.models:make [--backend NAME ...] [--keep-going]

In a user's own pytest, ``assert_roundtrips`` does the same in-process.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from reports.corpus import known_rows, save_finding
from reports.summary import write_latest

from .config import Config
from .conformance import ConformanceFailure, Recorder, replay_command
from .known import Known, counted_outcome, match, passed_or_rejected_cleanly
from .own import OwnModel
from .runner import CPU_BACKENDS, DEFAULT_BACKENDS, Verdict, execute, load_backend
from .worker import Worker

__all__ = ["Checked", "assert_roundtrips", "check", "main"]


class Checked:
    """One backend's verdict on the model, and what the known table says of it."""

    def __init__(self, backend_spec: str, verdict: Verdict | None, known: Known | None, skipped: str = "",
                 entry: Path | None = None) -> None:
        self.backend_spec, self.verdict, self.known, self.skipped, self.entry = backend_spec, verdict, known, skipped, entry

    @property
    def new(self) -> bool:
        return self.verdict is not None and not self.skipped and self.known is None and not passed_or_rejected_cleanly(
            self.verdict, None)

    def line(self) -> str:
        if self.skipped:
            return f"{self.backend_spec:22} skipped      {self.skipped}"
        v = self.verdict
        assert v is not None
        if v.outcome == "pass":
            notes = f" ({'; '.join(v.notes)})" if v.notes else ""
            return f"{self.backend_spec:22} pass{notes}"
        if self.known is not None:
            kind = "unsupported" if self.known.kind == "unsupported" else f"known bug ({v.outcome})"
            return f"{self.backend_spec:22} {kind}: {self.known.id}  {v.headline()[:100]}"
        return (f"{self.backend_spec:22} NEW {v.outcome} at {v.stage}: {v.headline()[:120]}\n"
                f"{'':23}signature {v.signature()}" + (f"\n{'':23}entry {self.entry}" if self.entry else ""))


def check(model: OwnModel, backends: Iterable[str] = DEFAULT_BACKENDS, *, run_case: Callable[[str, OwnModel], Verdict],
          config: Config | None = None, keep_going: bool = True, recorder: Recorder | None = None,
          entries: Path | None = None, rows: tuple[Known, ...] | None = None) -> list[Checked]:
    """Each backend's verdict on ``model``, matched against ``rows`` (default: the known
    table and the open corpus entries); a new finding is filed under ``entries`` (if
    given). Without ``keep_going`` it stops at the first new finding."""
    config = config or Config()
    rows = known_rows(config.corpus) if rows is None else rows
    found: list[Checked] = []
    for spec in backends:
        backend = load_backend(spec, config)
        reason = backend.unavailable_reason()
        if reason:
            found.append(Checked(spec, None, None, reason))
            continue
        verdict = run_case(spec, model)
        known = match(verdict, rows)
        verdict.outcome = counted_outcome(verdict, known)
        checked = Checked(spec, verdict, known)
        if recorder is not None:
            recorder.record(model, verdict, known, replay_command(backend, spec, model, {}) if known else "")
        if checked.new:
            failure = ConformanceFailure(backend, spec, model, {}, verdict)
            if recorder is not None:
                recorder.record_new(failure)
            if entries is not None:
                checked.entry = save_finding(failure, entries)
        found.append(checked)
        if checked.new and not keep_going:
            break
    return found


def assert_roundtrips(factory: str | Callable[[], Any], backends: Iterable[str] = CPU_BACKENDS, *,
                      config: Config | None = None) -> list[Checked]:
    """For a user's own pytest: every backend returns what eager PyTorch returns for the
    model ``factory`` builds, or fails as a row of the known table says it does; raises
    an ``AssertionError`` with one line per backend otherwise. ``factory`` is a
    ``package.module:callable`` path or the callable itself; it runs in this process."""
    name = factory if isinstance(factory, str) else f"{factory.__module__}.{factory.__qualname__}"
    model = OwnModel(name, call=None if isinstance(factory, str) else factory)
    config = config or Config.from_environment()
    found = check(model, backends, config=config,
                  run_case=lambda spec, subject: execute(load_backend(spec, config), subject, {}))
    if any(c.new for c in found):
        raise AssertionError(f"{name} does not round-trip:\n" + "\n".join(c.line() for c in found))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m suites check", description=__doc__.splitlines()[0])
    parser.add_argument("factory", help="package.module:callable returning (model, args, kwargs)")
    parser.add_argument("--backend", action="append", default=[], metavar="NAME",
                        help="a backend to check (built-in name or package.module:Class); repeatable; default all")
    parser.add_argument("--keep-going", action="store_true", help="check every backend, past a new finding")
    parser.add_argument("--case-timeout", type=float, default=180.0, help="seconds before a backend is a hang")
    parser.add_argument("--tvm-target", default=None, help="TVM's target (alias ROUNDTRIP_TVM_TARGET; default llvm)")
    parser.add_argument("--reports", default=None, help="where to write the reports and new entries "
                        "(alias ROUNDTRIP_REPORTS; default reports/latest)")
    args = parser.parse_args(argv)
    config = Config.resolve({"tvm_target": args.tvm_target, "reports": args.reports}, os.environ)
    # The factory's module imports from where the command runs, in the worker too.
    model = OwnModel(args.factory, path=os.getcwd())
    config.reports.mkdir(parents=True, exist_ok=True)
    recorder = Recorder()
    worker = Worker(timeout=args.case_timeout, log_path=str(config.reports / "worker-check.log"), config=config)
    try:
        found = check(model, args.backend or DEFAULT_BACKENDS, config=config, keep_going=args.keep_going, recorder=recorder,
                      entries=config.reports / "check", run_case=lambda spec, subject: worker.run(spec, subject, {}))
    finally:
        worker.close()
    for checked in found:
        print(checked.line(), flush=True)
    write_latest(recorder, config.reports, corpus=config.reports / "check")
    print(f"reports: {config.reports}/summary.md, summary.html")
    return 1 if any(c.new for c in found) else 0


if __name__ == "__main__":
    sys.exit(main())
