"""A user's own model through the suite: ``python -m suites check pkg.module:factory``.

``factory()`` returns ``(model, args, kwargs)``, ``(model, args)`` or ``(model, inputs)``
with ``inputs()`` returning ``(args, kwargs)`` (see ``harness.own``). Every frontend
compiles the model in the suite's worker process and is judged as a generated case is:
the same oracle (structure, dtypes, shapes, values at each dtype's precision, buffers
and inputs after the call), the same contracts and known table. A new finding writes a
corpus-style entry (``meta.json``, ``model.json``, a ``repro.py`` that imports the
factory) under the reports directory, and the run leaves the same ``summary.md`` and
``summary.html`` as the suite.

    python -m suites check my_pkg.models:make [--backend NAME ...] [--keep-going]

In a user's own pytest, ``assert_roundtrips`` does the same, in the same worker process.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from harness.config import CASE_TIMEOUT, Config
from harness.conformance import Recorder, judge
from harness.known import Known, match, passed_or_rejected_cleanly
from harness.own import OwnModel
from harness.registry import CPU_BACKENDS, DEFAULT_BACKENDS, load_backend
from harness.runner import execute
from harness.signature import Outcome
from harness.verdict import Verdict
from harness.worker import Worker
from reports.evidence import known_rows
from reports.summary import write_latest
from suites.filing import shrink_and_file

__all__ = ["Checked", "assert_roundtrips", "check", "main"]


#: Characters of a verdict's headline a line shows: enough for the op or parameter a
#: frontend names ("Unsupported function types ['_add_batch_dim', '_entry', ...]").
_SHOWN = 400


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
        if v.outcome == Outcome.PASS:
            notes = f" ({'; '.join(v.notes)})" if v.notes else ""
            return f"{self.backend_spec:22} pass{notes}"
        if self.known is not None:
            kind = "unsupported" if self.known.kind == "unsupported" else f"known bug ({v.outcome})"
            return f"{self.backend_spec:22} {kind}: {self.known.id}  {v.headline()[:_SHOWN]}"
        return (f"{self.backend_spec:22} NEW {v.outcome} at {v.stage}: {v.headline()[:_SHOWN]}\n"
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
        def run_on_backend(subject: Any, options: dict[str, Any], spec: str = spec) -> Verdict:
            return run_case(spec, subject)

        judged = judge(backend, spec, model, {}, run_on_backend, lambda verdict: match(verdict, rows), recorder)
        checked = Checked(spec, judged.verdict, judged.known)
        if judged.failure is not None and entries is not None:
            checked.entry = shrink_and_file(judged.failure, run_on_backend, entries, recorder=recorder)[1]
        elif judged.failure is not None and recorder is not None:
            recorder.record_new(judged.failure)
        found.append(checked)
        if checked.new and not keep_going:
            break
    return found


def assert_roundtrips(factory: str | Callable[[], Any], backends: Iterable[str] = CPU_BACKENDS, *,
                      config: Config | None = None, timeout: float = CASE_TIMEOUT, require_all: bool = False
                      ) -> list[Checked]:
    """For a user's own pytest: every backend returns what eager PyTorch returns for the
    model ``factory`` builds, or fails as a row of the known table says it does; raises
    an ``AssertionError`` with one line per backend otherwise.

    ``factory`` is a ``package.module:callable`` path or the callable itself. Each backend
    runs in the suite's worker process, as ``check`` runs it: a segfault or an abort is a
    ``crash`` verdict and no answer within ``timeout`` seconds a ``hang``, never the end of
    the caller's test session. (A callable that cannot be imported by its name, a lambda or
    a function defined inside another, runs in this process.) A backend that is not
    installed skips the test, saying which, once the others have passed; with
    ``require_all`` it is an error."""
    config = config or Config.from_environment()
    if isinstance(factory, str):
        model = OwnModel(factory, path=os.getcwd())
    else:
        model = OwnModel(f"{factory.__module__}:{factory.__qualname__}", path=_import_root(factory.__module__),
                         call=factory)
    name = model.factory
    worker = Worker(timeout=timeout, config=config) if _importable(factory) else None
    try:
        found = check(model, backends, config=config, run_case=(
            (lambda spec, subject: worker.run(spec, subject, {})) if worker is not None
            else (lambda spec, subject: execute(load_backend(spec, config), subject, {}))))
    finally:
        if worker is not None:
            worker.close()
    if any(c.new for c in found):
        raise AssertionError(f"{name} does not round-trip:\n" + "\n".join(c.line() for c in found))
    missing = [c for c in found if c.skipped]
    if missing:
        said = "; ".join(c.skipped for c in missing)
        if require_all:
            raise RuntimeError(f"{name}: backends asked for are not installed: {said}")
        checked = ", ".join(c.backend_spec for c in found if not c.skipped) or "none"
        pytest.skip(f"{name}: checked {checked}; not installed: {said}")
    return found


def _importable(factory: str | Callable[[], Any]) -> bool:
    """Whether the worker process can import the factory by its name."""
    return isinstance(factory, str) or ("<" not in factory.__qualname__ and factory.__module__ != "__main__")


def _import_root(module: str) -> str:
    """The ``sys.path`` entry ``module`` was imported from (pytest puts a test file's
    directory there), for the worker process to import it too."""
    found = sys.modules.get(module)
    if found is None or not getattr(found, "__file__", None):
        return os.getcwd()
    file = Path(found.__file__).resolve()
    return str(file.parents[module.count(".") + (file.stem == "__init__")])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m suites check", description=__doc__.splitlines()[0])
    parser.add_argument("factory", help="package.module:callable returning (model, args, kwargs)")
    parser.add_argument("--backend", action="append", default=[], metavar="NAME",
                        help="a backend to check (built-in name or package.module:Class); repeatable; default all")
    parser.add_argument("--keep-going", action="store_true", help="check every backend, past a new finding")
    parser.add_argument("--case-timeout", type=float, default=CASE_TIMEOUT, help="seconds before a backend is a hang")
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
    write_latest(recorder, config.reports, corpus=config.reports / "check", cache=config.cache)
    print(f"reports: {config.reports}/summary.md, summary.html")
    return 1 if any(c.new for c in found) else 0


if __name__ == "__main__":
    sys.exit(main())
