"""How deep the generator's programs go, and how its cost compares with the frontend
work it feeds.

    python benchmarks/bench_generator.py [--n 1000] [--seed-random] [--write-docs]

Draws ``--n`` cases at default settings, as a run draws them (inside a ``@given`` test,
each a fresh draw: ``strategies/engine.py``), and reports how deep their
programs go (``strategies.programs.chain_depth``: the most computing ops on one path from
an input to a result, 0 for a case that computes nothing; and the values the output
needs, ``Case.pruned``), checked against targets: median depth at least 3, at least 60%
of cases two or more ops deep, 10-20% computing nothing, a draw under 10 ms of CPU time
(on a shared machine the wall clock counts the other processes too). Then the median
time to draw one
(``data.draw(cases())`` alone, timed inside a ``@given`` test so Hypothesis's own
per-example bookkeeping is left out, after ``WARM_UP_DRAWS`` random draws that pay the
process's first calls of each kernel), to materialize it (module and inputs), and to
``torch.export.export`` it (exportable cases only, after one warm-up export that pays
the process's one-time import and initialisation cost), with the ratio
(draw + materialize) / export of the medians: how the generator's cost per case
compares with the cheapest frontend step a conformance run makes per case.
``--write-docs`` writes what it printed, stamped, into its section of
``docs/benchmarks.md`` (``benchmarks/docs_section.py``).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import hypothesis  # noqa: E402
import torch  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from benchmarks.docs_section import Measurement, capture  # noqa: E402
from strategies import Case, Input, Ref, Value, cases, materialize  # noqa: E402
from strategies.engine import draw_as_the_suite_does  # noqa: E402
from strategies.programs import chain_depth  # noqa: E402

draw_as_the_suite_does()  # the draws the suite makes (conftest.py does the same)

__all__ = ["main"]


def draw_cases(n: int, *, derandomize: bool) -> tuple[list[Case], list[float], list[float]]:
    """(the cases, seconds each draw took, CPU seconds each took)."""
    strategy = cases()
    drawn: list[Case] = []
    seconds: list[float] = []
    cpu: list[float] = []

    @settings(
        max_examples=n,
        deadline=None,
        database=None,
        derandomize=derandomize,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        start, start_cpu = time.perf_counter(), time.process_time()
        case = data.draw(strategy)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        drawn.append(case)

    draw()
    return drawn, seconds, cpu


def _timed(fn: Any, *args: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


#: Random draws before the measured ones, as a run's first cases are.
WARM_UP_DRAWS = 300


def _warm_up() -> None:
    # The first export imports and initialises dynamo and friends (seconds): a
    # one-time cost of the process, not of a case.
    model, args, kwargs = materialize(Case((Input("x0", "float32", ()),), (Value("input", ("x0",)),), Ref(0)))
    torch.export.export(model, args, kwargs)
    # The first draws of a process load torch's kernels for each op and dtype the type
    # inference runs on (a meta kernel's first call imports its Python); a run pays that
    # once, in its first cases. Random draws, not the measured ones: their own types are
    # not put in the caches beforehand.
    draw_cases(WARM_UP_DRAWS, derandomize=False)


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e3:.2f}"


def print_depths(drawn: list[Case], draw_s: list[float]) -> None:
    depths = [chain_depth(case) for case in drawn]
    counts = Counter(min(d, 8) for d in depths)
    n = len(depths)
    print("| chain depth | " + " | ".join(f"{d}" if d < 8 else "8+" for d in range(9)) + " |")
    print("|---|" + "---:|" * 9)
    print("| cases (%) | " + " | ".join(f"{100 * counts[d] / n:.1f}" for d in range(9)) + " |")
    needed = [len(case.pruned().values) for case in drawn]
    targets = [
        ("median chain depth", statistics.median(depths), ">= 3", statistics.median(depths) >= 3),
        ("cases two or more ops deep", f"{100 * sum(d >= 2 for d in depths) / n:.1f}%", ">= 60%",
         sum(d >= 2 for d in depths) >= 0.6 * n),
        ("cases computing nothing", f"{100 * counts[0] / n:.1f}%", "10-20%", 0.1 * n <= counts[0] <= 0.2 * n),
        # CPU time: on a shared machine the wall clock also counts the other processes.
        ("median draw, CPU (ms)", f"{statistics.median(draw_s) * 1e3:.2f}", "< 10", statistics.median(draw_s) < 0.01),
    ]
    print()
    print(f"values the output needs: median {statistics.median(needed)}, mean {statistics.mean(needed):.2f}")
    print()
    print("| target | measured | wanted | met |")
    print("|---|---:|---|---|")
    for name, measured, wanted, met in targets:
        print(f"| {name} | {measured} | {wanted} | {'yes' if met else 'NO'} |")
    print()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="cases to draw (default 1000)")
    parser.add_argument("--seed-random", action="store_true", help="random draws instead of derandomized ones")
    parser.add_argument("--write-docs", action="store_true",
                        help="also write the results, stamped, into their section of docs/benchmarks.md")
    options = parser.parse_args(argv)
    measurement = Measurement(__file__, sys.argv[1:] if argv is None else argv)
    with capture() as printed:
        _measure(options)
    if options.write_docs:
        measurement.write("bench_generator", "Generator: program depth and cost", printed.getvalue())


def _measure(options: argparse.Namespace) -> None:
    _warm_up()
    drawn, draw_s, draw_cpu_s = draw_cases(options.n, derandomize=not options.seed_random)
    materialize_s: list[float] = []
    export_s: list[float] = []
    export_failures = 0
    for case in drawn:
        (model, args, kwargs), seconds = _timed(materialize, case)
        materialize_s.append(seconds)
        if not case.exportable:
            continue
        try:
            _, seconds = _timed(torch.export.export, model, args, kwargs)
        except Exception:  # noqa: BLE001 - counted and reported, not a benchmark result
            export_failures += 1
            continue
        export_s.append(seconds)

    print_depths(drawn, draw_cpu_s)
    draw_median = statistics.median(draw_s)
    materialize_median = statistics.median(materialize_s)
    export_median = statistics.median(export_s) if export_s else float("nan")
    print(
        f"machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"torch threads {torch.get_num_threads()}"
    )
    print(
        f"versions: Python {platform.python_version()}, torch {torch.__version__}, hypothesis {hypothesis.__version__}"
    )
    print(
        f"cases: {len(drawn)} drawn at default settings ({'random' if options.seed_random else 'derandomized'}), "
        f"{len(export_s)} exported, {len(drawn) - len(export_s) - export_failures} not exportable, "
        f"{export_failures} export failures"
    )
    print()
    print("| step | n | median (ms) | p90 (ms) |")
    print("|---|---:|---:|---:|")
    print(f"| draw (`data.draw(cases())`) | {len(draw_s)} | {draw_median * 1e3:.2f} | {_ms(draw_s, 0.9)} |")
    print(f"| draw, CPU time | {len(draw_cpu_s)} | {statistics.median(draw_cpu_s) * 1e3:.2f} | {_ms(draw_cpu_s, 0.9)} |")
    print(f"| materialize | {len(materialize_s)} | {materialize_median * 1e3:.2f} | {_ms(materialize_s, 0.9)} |")
    print(f"| `torch.export.export` | {len(export_s)} | {export_median * 1e3:.2f} | {_ms(export_s, 0.9)} |")
    print(
        f"| ratio (draw + materialize) / export, of medians | | "
        f"{(draw_median + materialize_median) / export_median:.3f} | |"
    )


if __name__ == "__main__":
    main()
