"""Does ``check`` tell a known cause from a new bug on users' own models?

    python benchmarks/bench_check.py [--models known|real] [--only FACTORY ...] [--write-docs]

Runs ``python -m suites check``'s ``check`` on every model of a set against every CPU
frontend installed: ``known`` (``tests/known_causes.py``, users' models in the forms of
upstream threads) or ``real`` (``tests/real_models.py``, transformers architectures the
suite does not draw and hand-written heads),
each in the suite's worker, and matches each verdict against the known table (the rows
alone, no corpus entry: an entry's exact signature is a generated case's). Per model and
frontend it prints the verdict, the row that named it, and the row ``EXPECTED`` says
names its cause; then the count of expected causes named by their row, the verdicts a
row named that ``EXPECTED`` does not list (a row taking another cause's verdict would
show here), and the new findings.

``--write-docs`` writes the table, stamped, into the ``bench_check`` section of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.docs_section import Measurement, capture  # noqa: E402
from harness.config import CASE_TIMEOUT, Config  # noqa: E402
from harness.known import KNOWN  # noqa: E402
from harness.own import OwnModel  # noqa: E402
from harness.registry import CPU_BACKENDS  # noqa: E402
from harness.worker import Worker  # noqa: E402
from suites.check import check  # noqa: E402
from tests import known_causes, real_models  # noqa: E402

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]
#: The model sets, and the docs section each writes.
SETS = {"known": (known_causes, "bench_check"), "real": (real_models, "bench_check_real")}


def measure(models: Any, factories: list[str]) -> Counter[str]:
    """Check each model on every CPU frontend; print a line per verdict; count the outcomes."""
    counts: Counter[str] = Counter()
    worker = Worker(timeout=CASE_TIMEOUT, config=Config())
    try:
        print("| model | frontend | verdict | named by | expected row | |\n|---|---|---|---|---|---|")
        for factory in factories:
            expected = models.EXPECTED[factory]
            model = OwnModel(f"{models.__name__}:{factory}", path=str(ROOT))
            start = time.perf_counter()
            found = check(model, CPU_BACKENDS, rows=KNOWN, config=Config(),
                          run_case=lambda spec, subject: worker.run(spec, subject, {}))
            for checked in found:
                want = expected.get(checked.backend_spec)  # "": no row names the cause; None: not listed
                if checked.skipped:
                    counts["listed, frontend not installed" if want is not None else "skipped"] += 1
                    continue
                verdict = checked.verdict
                assert verdict is not None
                got = checked.known.id if checked.known else ""
                if want:
                    mark = "named" if got == want else "MISSED"
                elif want == "":
                    mark = "new, as listed" if checked.new else "ROW OF ANOTHER CAUSE" if got else "pass, listed new"
                elif got:
                    mark = "other row"
                else:
                    mark = "new" if checked.new else "pass"
                counts[mark] += 1
                if mark == "pass":
                    continue
                shown = f"{verdict.outcome} {verdict.signature().split('/', 3)[3][:90]}".replace("|", "\\|")
                print(f"| {factory} | {checked.backend_spec} | {shown} | {got or '-'} | {want or '-'} | {mark} |")
            print(f"<!-- {factory}: {time.perf_counter() - start:.0f} s -->", file=sys.stderr)
    finally:
        worker.close()
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", choices=sorted(SETS), default="known", help="the set of models (default known)")
    parser.add_argument("--only", action="append", default=[], metavar="FACTORY", help="check these models only")
    parser.add_argument("--write-docs", action="store_true",
                        help="also write the results, stamped, into their section of docs/benchmarks.md")
    options = parser.parse_args(argv)
    measurement = Measurement(__file__, sys.argv[1:] if argv is None else argv)
    warnings.filterwarnings("ignore")
    logging.getLogger("torch").setLevel(logging.ERROR)
    models, section = SETS[options.models]
    factories = options.only or list(models.EXPECTED)
    with capture() as printed:
        counts = measure(models, factories)
        wanted = sum(1 for f in factories for row in models.EXPECTED[f].values() if row)
        print(f"\n{len(factories)} models. Of {wanted} verdicts whose cause a row names: {counts['named']} named by "
              f"that row, {counts['MISSED']} not ({counts['listed, frontend not installed']} listed verdicts on a "
              f"frontend not installed). Of the verdicts of a cause no row names: {counts['new, as listed']} new, "
              f"{counts['ROW OF ANOTHER CAUSE']} taken by a row of another cause. Unlisted: {counts['other row']} "
              f"named by a row, {counts['new']} new, {counts['pass']} passes.")
    if options.write_docs:
        title = {"known": "check on users' own models: known causes named by their row",
                 "real": "check on real models the suite does not draw: every NEW a cause no row states"}[options.models]
        measurement.write(section, title, printed.getvalue())


if __name__ == "__main__":
    main()
