"""How much of the op x dtype space a nightly run's draws meet, per backend.

    python benchmarks/bench_coverage.py [--n 2000] [--backend NAME ...] [--seed-random] [--write-docs]

Draws ``--n`` cases (default 2000, a nightly run's budget per backend) the way the run
draws them: ``strategies.cases(exclude=E)`` inside one ``@given(st.data())`` test,
generate phase only, no example database; E is what the backend's calibration left out,
read from its cache (``.roundtrip/calibration/<NAME>.json``, ``ROUNDTRIP_CACHE`` moves
it; ``harness.calibration``). Without a cache, or without ``--backend``, E is empty and
the output says so. Draws are derandomised (the same cases every time) unless
``--seed-random``; each is a fresh draw, as in a run (``strategies/engine.py``).
Only the drawing runs: no frontend is called.

Prints, per backend: the op x dtype pairs the generator admits after calibration
(``strategies.admitted_pairs``, without the ops only dynamic cases draw), how many the cases' outputs need at least once
(``strategies.op_dtype_pairs``, the pairs a run's summary counts), the share, the time
the draws took, and 20 admitted pairs never met. ``--write-docs`` writes that, stamped,
into its section of ``docs/benchmarks.md`` (``bench_coverage``;
``benchmarks/docs_section.py``).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import hypothesis  # noqa: E402
import torch  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from benchmarks.docs_section import Measurement, capture  # noqa: E402
from harness.calibration import cache_key, cache_path, read_cache  # noqa: E402
from harness.config import Config  # noqa: E402
from harness.registry import load_backend  # noqa: E402
from strategies import admitted_pairs, cases, op_dtype_pairs  # noqa: E402
from strategies.engine import draw_as_the_suite_does  # noqa: E402

draw_as_the_suite_does()  # the draws the suite makes (conftest.py does the same)

__all__ = ["draw_pairs", "main"]

#: How many admitted pairs never met to print.
SHOW = 20


def draw_pairs(n: int, exclude: list[str], *, derandomize: bool) -> tuple[set[str], float, float]:
    """(the pairs ``n`` drawn cases met, seconds drawing, seconds finding their pairs)."""
    strategy = cases(exclude=exclude) if exclude else cases()
    met: set[str] = set()
    seconds = [0.0, 0.0]

    @settings(max_examples=n, phases=[Phase.generate], database=None, deadline=None, derandomize=derandomize,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        start = time.perf_counter()
        case = data.draw(strategy)
        drawn = time.perf_counter()
        met.update(op_dtype_pairs(case))
        seconds[0] += drawn - start
        seconds[1] += time.perf_counter() - drawn

    draw()
    return met, seconds[0], seconds[1]


def _calibrated_away(name: str) -> tuple[list[str], str]:
    """(the features the backend's cached calibration leaves out, where they came from)."""
    cache = Config.from_environment().cache
    stored = read_cache(name, cache)
    if stored is None:
        return [], f"no calibration cache at {cache_path(name, cache)}: nothing left out"
    features = sorted(stored.get("features", {}))
    note = f"calibration cache {cache_path(name, cache)} ({stored.get('cases', '?')} cases): {len(features)} features left out"
    try:
        current = cache_key(load_backend(name))
    except Exception as exc:  # noqa: BLE001 - a frontend not installed here: say so, use the cache
        return features, f"{note}; key not checked ({type(exc).__name__}: {str(exc).splitlines()[0][:80]})"
    if current != stored.get("key"):
        note += f"; STALE (cached for {stored.get('key')!r}, now {current!r}: a run would calibrate again)"
    return features, note


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="cases to draw per backend (default 2000)")
    parser.add_argument("--backend", action="append", default=[], metavar="NAME",
                        help="a backend whose calibration cache to honour (repeatable; default: none)")
    parser.add_argument("--seed-random", action="store_true", help="random draws instead of derandomized ones")
    parser.add_argument("--write-docs", action="store_true",
                        help="also write the results, stamped, into their section of docs/benchmarks.md")
    options = parser.parse_args(argv)
    measurement = Measurement(__file__, sys.argv[1:] if argv is None else argv)
    with capture() as printed:
        _measure(options)
    if options.write_docs:
        measurement.write("bench_coverage", "Op x dtype coverage of a nightly run's draws", printed.getvalue())


def _measure(options: argparse.Namespace) -> None:
    draws = ", as a run draws"
    print(f"versions: Python {platform.python_version()}, torch {torch.__version__}, "
          f"hypothesis {hypothesis.__version__}; {options.n} cases per backend, "
          f"{'random' if options.seed_random else 'derandomized'}{draws}")
    print()
    print("| backend | pairs admitted | met | share | draw (s) | pairs (s) |")
    print("|---|---:|---:|---:|---:|---:|")
    details = []
    for name in options.backend or [None]:
        if name is None:
            exclude, note = [], "no --backend: no calibration, nothing left out"
        else:
            exclude, note = _calibrated_away(name)
        start = time.perf_counter()
        admitted = admitted_pairs(exclude=exclude)
        probe_s = time.perf_counter() - start
        met, draw_s, pairs_s = draw_pairs(options.n, exclude, derandomize=not options.seed_random)
        hit = admitted & met
        share = 100 * len(hit) / len(admitted) if admitted else 0.0
        print(f"| {name or '(generator)'} | {len(admitted)} | {len(hit)} | {share:.1f}% | {draw_s:.1f} | {pairs_s:.1f} |")
        missing = sorted(admitted - met)
        outside = sorted(met - admitted)
        details.append([f"{name or '(generator)'}: {note}; admitted set probed in {probe_s:.1f} s",
                        f"  {len(missing)} admitted pairs never met" + (f", the first {SHOW}: " if missing else "")
                        + ", ".join(missing[:SHOW]),
                        *([f"  met outside the admitted set: {', '.join(outside)}"] if outside else [])])
    print()
    for lines in details:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
