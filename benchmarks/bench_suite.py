"""What the suite costs and what it finds per minute, measured on this machine.

    python benchmarks/bench_suite.py [--only throughput,restart,dynamic,shrink,detection,precision,parallel,repeat,campaign,
                                             test-command]
                                     [--n 300] [--backend NAME ...] [--seeds 3] [--minutes 15] [--write-docs]

Sections (all by default):

- ``throughput``: per backend, ``--n`` drawn cases through the real property (Hypothesis,
  the worker process, the known table), timed end to end: cases per minute. The worker
  times each part of a case (``Verdict.timings``): the overhead is the suite's time over
  the frontend's own stages plus eager's, and a second table says where the rest goes.
  The worker's resident memory is sampled as the cases go by (flat means compiled
  modules are freed), and its restarts (a crash or hang kills it) are counted.
- ``restart``: per backend, a warm worker killed three times: seconds from the death to
  the next verdict (what each crash or hang costs the search and each shrink attempt).
- ``dynamic``: per backend, ``--n`` drawn dynamic cases, each run as declared (compiled
  once, called at every size) and statically: the ratio of the two (aim: at most 1.5),
  over all cases and apart for those that passed at every size and those that failed.
- ``shrink``: a real frontend bug, hidden from the known table, is searched for and
  shrunk by the real property: cases and seconds until found, seconds to shrink.
- ``detection``: each planted distortion of ``tests/harness_backends.py`` over
  ``--seeds`` seeds: cases and seconds until caught, seconds to shrink. A change that
  weakens the search shows up here.
- ``precision``: per backend, ``--n`` programs over float64 inputs only (every value
  domain), in this process: how many float64 values miss the format's tolerance (8 units
  of roundoff plus each op's error bound), and which known row explains each. The false
  alarm rate of the float64 tolerance, and the float64-in-float32 bugs.
- ``parallel``: the ``ci`` profile of the conformance suite with ``-n 1`` and ``-n 2``
  (both ``--shards 2``, as ``scripts/test.sh`` runs it: the same cases).
- ``repeat``: the ``ci`` profile three times: the outcome counts must be identical.
- ``test-command``: the README's test command (``scripts/test.sh``, as ``.ci/run`` runs
  it, from an empty Inductor cache): its wall time, pytest's outcome line and the 15
  slowest items. What every submission's CI costs.
- ``campaign``: per backend, the property for a fixed wall-clock budget (``--minutes``,
  default 15; pin it to one core with ``taskset -c 0``) with the known table hidden, as a
  fuzzing campaign meets a frontend: distinct signatures found (and which of them the
  table knows as a bug, knows as unsupported, or does not know), outcome counts and cases
  per minute. The search power of a generator change, measured. Calibration
  (``harness.calibration``) runs first, inside the budget (``--no-calibration``: off).

``--write-docs`` writes each part it ran, stamped, into that part's own section of
``docs/benchmarks.md`` (``bench_suite-<part>``; ``benchmarks/docs_section.py``): the
other parts' sections are left as they are.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import hypothesis  # noqa: E402
import torch  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from benchmarks.docs_section import Measurement, capture  # noqa: E402
from harness.conformance import ConformanceFailure, Recorder, StopSearch, conformance_property  # noqa: E402
from harness.known import KNOWN, Known, match  # noqa: E402
from harness.registry import (
    CPU_BACKENDS,
    load_backend,  # noqa: E402
)
from harness.runner import execute  # noqa: E402
from harness.worker import Worker  # noqa: E402
from reports.evidence import known_rows  # noqa: E402
from strategies import Case, Input, Ref, Value  # noqa: E402
from strategies import cases as gen_cases  # noqa: E402
from strategies.engine import draw_as_the_suite_does  # noqa: E402

draw_as_the_suite_does()  # the draws the suite makes (conftest.py does the same)
#: What a verdict is matched against, as the suite does: the table and the open corpus entries.
ROWS = known_rows()

SECTIONS = ("throughput", "restart", "dynamic", "shrink", "detection", "precision", "parallel", "repeat", "campaign",
            "test-command")
TRIVIAL = Case((Input("x0", "float32", ()),), (Value("input", ("x0",)),), Ref(0))
#: Real bugs to time the search for: (backend, the known row hidden from the table).
SHRINK_TARGETS = (("tvm-ep", "tvm-int-reduction-not-promoted"), ("tvm-fx", "tvm-fx-dict-output"),
                  ("tvm-dynamo", "tvm-float64-narrowed"))
SUITE = ["suites/test_conformance.py::test_outputs_round_trip", "-q", "-p", "no:cacheprovider"]


def search_settings(n: int, **more: Any) -> settings:
    return settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck), **more)


def started_worker(spec: str) -> Worker:
    """A worker process that has run one trivial case: its start-up (imports) is paid
    once, not by the first case timed."""
    worker = Worker(timeout=180)
    worker.run(spec, TRIVIAL, {})
    return worker


def _mib(n: float) -> str:
    return f"{n / 2**20:.0f}"


#: Parts of ``Verdict.timings`` that are the harness's, not the frontend's.
HARNESS_PARTS = ("materialize", "eager", "judge", "root-cause")


class _TimedRecorder(Recorder):
    """The suite's recorder, journal included, with the seconds its ``record`` takes."""

    record_s: float = 0.0

    def record(self, *args: Any, **kwargs: Any) -> None:
        start = time.perf_counter()
        super().record(*args, **kwargs)
        self.record_s += time.perf_counter() - start


def throughput(backends: list[str], n: int) -> None:
    """Per backend: ``n`` cases through the real property, timed end to end and part by
    part (``Verdict.timings`` in the worker; the round trip, the table lookup and the
    recorder here; the draw and Hypothesis's engine what is left). Nothing runs in this
    process but the search: a case that kills a frontend kills only the worker."""
    print(f"\n### Throughput, overhead and worker memory ({n} cases per backend, one core)\n")
    header = ("| backend | cases/min | suite s/case | frontend s/case | eager s/case | overhead: suite / "
              "(frontend + eager) | worker RSS MiB: after 1st case / middle / end | worker restarts |\n"
              "|---|---:|---:|---:|---:|---:|---|---:|")
    rows, parts = [], []
    for spec in backends:
        backend = load_backend(spec)
        if backend.unavailable_reason():
            rows.append(f"| {spec} | skipped: {backend.unavailable_reason()} | | | | | | |")
            continue
        worker = started_worker(spec)
        ran: list[tuple[Case, dict[str, Any]]] = []
        rss: list[int] = [worker.rss_bytes()]
        spent: Counter = Counter()

        def run_case(case: Case, options: dict[str, Any], worker: Worker = worker, ran: list = ran,
                     rss: list = rss, spec: str = spec, spent: Counter = spent) -> Any:
            ran.append((case, options))
            start = time.perf_counter()
            verdict = worker.run(spec, case, options)
            spent["round trip"] += time.perf_counter() - start
            spent["in the worker"] += verdict.seconds
            for part, seconds in verdict.timings.items():
                spent[part if part in HARNESS_PARTS else "frontend"] += seconds
                if part not in HARNESS_PARTS:
                    spent[f"frontend:{part}"] += seconds
            if len(ran) == n // 2:
                rss.append(worker.rss_bytes())
            return verdict

        def known_row(verdict: Any, spent: Counter = spent) -> Any:
            start = time.perf_counter()
            row = match(verdict, ROWS)
            spent["match"] += time.perf_counter() - start
            return row

        with tempfile.TemporaryDirectory() as journal:
            recorder = _TimedRecorder(journal=str(Path(journal) / "journal.jsonl"))
            check = search_settings(n, derandomize=True, phases=[Phase.generate])(
                conformance_property(backend, spec, run_case, recorder, keep_going=True, known_row=known_row))
            start = time.perf_counter()
            check()
            suite_s = time.perf_counter() - start
        rss.append(worker.rss_bytes())
        worker.close()
        # The frontend's own work as the worker timed it (its stages: export, import,
        # build, run), and eager's: the work that is not the harness's.
        frontend_s, eager_s = spent["frontend"], spent["eager"]
        rows.append(f"| {spec} | {len(ran) * 60 / suite_s:.0f} | {suite_s / len(ran):.3f} | {frontend_s / len(ran):.3f} "
                    f"| {eager_s / len(ran):.3f} | {suite_s / (frontend_s + eager_s):.2f} "
                    f"| {' / '.join(_mib(r) for r in rss)} | {worker.restarts} |")
        spent["record"] = recorder.record_s
        parts.append((spec, len(ran), suite_s, spent))
        print(rows[-1], file=sys.stderr, flush=True)  # progress; the table below is the section's
    print("\n" + header + "\n" + "\n".join(rows))
    _parts_table(parts)


def _parts_table(parts: list[tuple[str, int, float, Counter]]) -> None:
    """Where a case's time goes, in ms per case (means): the worker's parts, the round trip
    to it less the worker's own time (a fresh worker's start after a death included, and a
    case run again after a memory fault), the lookup and the recorder here, and the draw with
    Hypothesis's engine (what is left of the wall time). The harness's share is what is
    neither the frontend's nor eager's."""
    print("\n#### Where a case's time goes (ms per case, mean)\n")
    print("| backend | draw + engine | to and from the worker | materialize | eager | frontend | judge | "
          "root-cause probes | match | record | other in the worker | suite | harness share | frontend's stages |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for spec, cases, suite_s, spent in parts:
        ms = {k: 1000 * v / cases for k, v in spent.items()}
        transfer = ms["round trip"] - ms["in the worker"]
        draw = 1000 * suite_s / cases - ms["round trip"] - ms["match"] - ms["record"]
        other = ms["in the worker"] - sum(ms.get(p, 0.0) for p in (*HARNESS_PARTS, "frontend"))
        stages = ", ".join(f"{k.partition(':')[2]} {v:.1f}" for k, v in sorted(ms.items(), key=lambda kv: -kv[1])
                           if k.startswith("frontend:") and v >= 0.05)
        suite = 1000 * suite_s / cases
        print(f"| {spec} | {draw:.1f} | {transfer:.1f} | {ms.get('materialize', 0):.1f} | {ms.get('eager', 0):.1f} "
              f"| {ms.get('frontend', 0):.1f} | {ms.get('judge', 0):.1f} | {ms.get('root-cause', 0):.1f} "
              f"| {ms['match']:.1f} | {ms['record']:.1f} "
              f"| {other:.1f} | {suite:.1f} | {1 - (ms.get('frontend', 0) + ms.get('eager', 0)) / suite:.0%} | {stages} |", flush=True)


def restart(backends: list[str], kills: int = 3) -> None:
    """Per backend: a warm worker killed ``kills`` times; each time, the seconds from the
    call that meets the dead worker to the verdict of one trivial case in the fresh one.
    What every crash or hang costs on top of the case itself (a shrink pays it per attempt)."""
    print(f"\n### A worker's death: seconds to the next verdict ({kills} kills per backend)\n")
    print("| backend | median s | each kill s |\n|---|---:|---|")
    for spec in backends:
        worker = started_worker(spec)
        seconds = []
        for _ in range(kills):
            os.kill(worker.pid, signal.SIGKILL)
            start = time.perf_counter()
            assert worker.run(spec, TRIVIAL, {}).outcome == "crash"  # the call that meets the death
            assert worker.run(spec, TRIVIAL, {}).outcome == "pass"  # the fresh worker's first case
            seconds.append(time.perf_counter() - start)
        worker.close()
        print(f"| {spec} | {statistics.median(seconds):.2f} | {' '.join(f'{s:.2f}' for s in seconds)} |", flush=True)


def dynamic_cost(backends: list[str], n: int) -> None:
    """Per backend: ``n`` drawn dynamic cases (those that declare a dim), each run in the
    worker twice, as declared (compiled once, called at every size) and statically (the
    same program at its example only); the ratio of their times, over all cases and split
    by how the dynamic case ended: passed at every size (the price of compiling once for
    many sizes: the frontend's dynamic compile against its static one, and the calls), or
    failed (the price above plus the static case's compile, which tells a static bug from
    a dynamic one, ``harness.runner._unless_static``)."""
    from strategies.dynamic import statically

    print(f"\n### Dynamic shapes: what a dynamic case costs ({n} declared cases per backend, one core)\n")
    print("Seconds a case in the worker, the median; ratios are the dynamic case's over the static case's "
          "(of medians, and of totals). *Compile*: the frontend's own stages but its calls (all but "
          f"{', '.join(HARNESS_PARTS)} and run). *Harness a size*: the calls' share of a passing dynamic case per size "
          "(inputs, eager, the backend's call, the judge).\n")
    print("| backend | static s | dynamic s | ratio of medians | ratio of totals | passed: cases | passed: ratio of "
          "totals | passed: compile ratio | harness a size, ms | failed: cases | failed: ratio of totals |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    drawn: list[Case] = []

    @search_settings(4 * n, derandomize=True, phases=[Phase.generate])
    @given(case=gen_cases(dynamic=True, exportable=True))
    def collect(case: Case) -> None:
        if case.dynamic is not None and len(drawn) < n:
            drawn.append(case)

    collect()
    for spec in backends:
        backend = load_backend(spec)
        if backend.unavailable_reason() or not backend.dynamic:
            print(f"| {spec} | skipped: {backend.unavailable_reason() or 'static only'} |" + " |" * 9)
            continue
        worker = started_worker(spec)
        pairs: list[tuple[tuple[float, Any], tuple[float, Any]]] = []
        for k, case in enumerate(drawn):  # in turn first, so that neither pays a cache the other warmed
            timed: dict[str, tuple[float, Any]] = {}
            runs = (("static", statically(case)), ("dynamic", case))
            for key, case_ in runs if k % 2 else runs[::-1]:
                start = time.perf_counter()
                verdict = worker.run(spec, case_, {})
                timed[key] = (time.perf_counter() - start, verdict)
            pairs.append((timed["static"], timed["dynamic"]))
        worker.close()
        print(_dynamic_row(spec, pairs), flush=True)
    static_ms, dynamic_ms = _export_alone()
    print(f"\ntorch.export alone, of a one-op program (`x + 1` of a (4, 5) input; dim 0 declared dynamic, `Dim` with a "
          f"range): {static_ms:.1f} ms static, {dynamic_ms:.1f} ms dynamic ({dynamic_ms / static_ms:.2f} times), "
          "the median of 20 exports each.")


def _export_alone(repeats: int = 20) -> tuple[float, float]:
    """Milliseconds torch.export takes for ``x + 1``, static and with its first dim dynamic:
    the frontend's own price for symbolic shapes, with no program to speak of."""
    class AddOne(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x + 1

    args = (torch.randn(4, 5),)
    declared = ({0: torch.export.Dim("s0", min=1, max=64)},)
    found = []
    for shapes in (None, declared):
        torch.export.export(AddOne(), args, dynamic_shapes=shapes, strict=False)  # warm
        seconds = []
        for _ in range(repeats):
            start = time.perf_counter()
            torch.export.export(AddOne(), args, dynamic_shapes=shapes, strict=False)
            seconds.append(time.perf_counter() - start)
        found.append(1000 * statistics.median(seconds))
    return found[0], found[1]


def _dynamic_row(spec: str, pairs: list[tuple[tuple[float, Any], tuple[float, Any]]]) -> str:
    def ratio(chosen: list[tuple[tuple[float, Any], tuple[float, Any]]]) -> str:
        return f"{sum(d for _, (d, _) in chosen) / sum(s for (s, _), _ in chosen):.2f}" if chosen else ""

    calls = (*HARNESS_PARTS, "run")  # what a dynamic case pays at each size; the rest is its compile

    def compile_s(verdict: Any) -> float:
        return sum(v for part, v in verdict.timings.items() if part not in calls)

    static = [s for (s, _), _ in pairs]
    dynamic = [d for _, (d, _) in pairs]
    # A dynamic case passed when it ran at some size and never failed; a discarded
    # declaration runs the static case only, and is neither.
    passed = [p for p in pairs if p[1][1].outcome == "pass" and p[1][1].sizes]
    failed = [p for p in pairs if p[1][1].outcome != "pass"]
    compiled = [(s, d) for s, d in ((compile_s(sv), compile_s(dv)) for (_, sv), (_, dv) in passed) if s > 0]
    harness = [sum(dv.timings.get(part, 0.0) for part in calls) / len(dv.sizes) for _, (_, dv) in passed]
    compile_ratio = f"{sum(d for _, d in compiled) / sum(s for s, _ in compiled):.2f}" if compiled else ""
    harness_ms = f"{1000 * statistics.median(harness):.1f}" if harness else ""
    return (f"| {spec} | {statistics.median(static):.3f} | {statistics.median(dynamic):.3f} | "
            f"{statistics.median(dynamic) / statistics.median(static):.2f} | {sum(dynamic) / sum(static):.2f} | "
            f"{len(passed)} | {ratio(passed)} | {compile_ratio} | {harness_ms} | {len(failed)} | {ratio(failed)} |")


class _Clock:
    """Counts cases until the first failing one, then times the shrink."""

    def __init__(self, run_case: Any, is_failure: Any) -> None:
        self.run_case, self.is_failure = run_case, is_failure
        self.start = time.perf_counter()
        self.cases = 0
        self.found_at: float | None = None
        self.found_after = 0

    def __call__(self, case: Case, options: dict[str, Any]) -> Any:
        verdict = self.run_case(case, options)
        self.cases += 1
        if self.found_at is None and self.is_failure(verdict):
            self.found_at, self.found_after = time.perf_counter(), self.cases
        return verdict

    def result(self) -> tuple[int, float, float]:
        end = time.perf_counter()
        assert self.found_at is not None
        return self.found_after, self.found_at - self.start, end - self.found_at


def shrink(seeds: int) -> None:
    print(f"\n### Finding and shrinking real bugs (hidden from the known table; {seeds} seeds, worker process)\n")
    print("| backend | hidden row | found after (cases, median) | seconds to find | seconds to shrink | "
          "shrunk case (ops) |")
    print("|---|---|---:|---:|---:|---|")
    for spec, row in SHRINK_TARGETS:
        backend = load_backend(spec)
        if backend.unavailable_reason():
            continue
        worker = started_worker(spec)

        hidden = next(k for k in KNOWN if k.id == row)
        others: set[str] = set()

        def known_row(verdict: Any, hidden: Any = hidden, others: set = others) -> Any:
            if verdict.outcome == "pass" or hidden.matches(verdict):
                return None
            # Only the hidden bug may fail the search: a finding new to the table is
            # set down (and reported below) but does not take over the shrink.
            found = match(verdict, ROWS)
            if found is None:
                others.add(verdict.signature())
            return found or Known(id="new", backends=("*",), kind="bug", reason="")

        results, ops = [], ""
        for s in range(seeds):
            clock = _Clock(lambda case, options, w=worker, b=spec: w.run(b, case, options),
                           lambda v: v.outcome != "pass" and known_row(v) is None)
            check = seed(s)(search_settings(2000)(conformance_property(backend, spec, clock, Recorder(),
                                                                       known_row=known_row)))
            try:
                check()
            except ConformanceFailure as failure:
                results.append(clock.result())
                ops = ", ".join(failure.case.ops())
        worker.close()
        print(_row([spec, row], results, ops), flush=True)
        for signature in sorted(others):
            print(f"|  | also seen, new to the table: `{signature}` | | | | |")


def _row(names: list[str], results: list[tuple[int, float, float]], shrunk: str) -> str:
    if not results:
        return f"| {' | '.join(names)} | not found | | | |"
    cases, find_s, shrink_s = (statistics.median(r[i] for r in results) for i in range(3))
    return f"| {' | '.join(names)} | {cases:.0f} | {find_s:.1f} | {shrink_s:.1f} | {shrunk} |"


def detection(seeds: int) -> None:
    from tests.harness_backends import DISTORTIONS, STATE_DISTORTIONS, distorting_backend

    print(f"\n### Detection power: planted distortions ({seeds} seeds, in-process)\n")
    print("| distortion | found after (cases, median) | seconds to find | seconds to shrink | shrunk case (ops) |")
    print("|---|---:|---:|---:|---|")
    backends = {**{name: distorting_backend(name) for name in DISTORTIONS},
                **{name: cls() for name, cls in STATE_DISTORTIONS.items()}}
    for name, backend in backends.items():
        results, ops = [], ""
        for s in range(seeds):
            clock = _Clock(lambda case, options, b=backend: execute(b, case, options), lambda v: v.outcome != "pass")
            check = seed(s)(search_settings(2000)(conformance_property(backend, "harness", clock, Recorder())))
            try:
                check()
            except ConformanceFailure as failure:
                results.append(clock.result())
                ops = ", ".join(failure.case.ops())
        print(_row([name], results, ops), flush=True)


def _float64_counts(backend: Any, n: int) -> tuple[dict[str, int], set[str]]:
    from hypothesis import given

    from strategies import cases

    counts, rows = {"pass": 0, "float64": 0, "other": 0}, set()

    @seed(0)
    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.generate])
    @given(cases(dtypes=["float64"]))
    def run(case: Case) -> None:
        verdict = execute(backend, case, {})
        if verdict.outcome == "pass":
            counts["pass"] += 1
        elif "/mismatch/values: float64" in verdict.signature():
            counts["float64"] += 1
            known = match(verdict, ROWS)
            rows.add(known.id if known else "NEW")
        else:
            counts["other"] += 1

    run()
    return counts, rows


def precision(backends: list[str], n: int) -> None:
    print(f"\n### float64 at the format's tolerance ({n} float64-only programs per backend, in-process)\n")
    print("| backend | pass | float64 value mismatches | explained by | other outcomes |\n|---|---:|---:|---|---|")
    for name in backends:
        counts, rows = _float64_counts(load_backend(name), n)
        print(f"| {name} | {counts['pass']} | {counts['float64']} | {', '.join(sorted(rows)) or '-'} | "
              f"{counts['other']} |", flush=True)


def _suite_run(backends: list[str], workers: int) -> tuple[float, dict[str, Any]]:
    """One ``ci``-profile run of the conformance suite; returns its wall time and outcomes."""
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "ROUNDTRIP_PROFILE": "ci", "ROUNDTRIP_CORPUS": f"{scratch}/corpus",
               "ROUNDTRIP_REPORTS": scratch}
        # As scripts/test.sh runs it: two shards per backend, work stealing.
        args = [sys.executable, "-m", "pytest", *SUITE, "-n", str(workers), "--keep-going", "--shards", "2",
                "--dist", "worksteal"]
        args += [a for b in backends for a in ("--backend", b)]
        start = time.perf_counter()
        subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        return seconds, json.loads(Path(scratch, "findings.json").read_text())


def parallel(backends: list[str]) -> None:
    print(f"\n### `-n 2` against `-n 1` (ci profile, {', '.join(backends)})\n")
    one, _ = _suite_run(backends, 1)
    two, _ = _suite_run(backends, 2)
    print("| workers | wall s | speed-up |\n|---:|---:|---:|")
    print(f"| 1 | {one:.0f} | 1.00 |\n| 2 | {two:.0f} | {one / two:.2f} |", flush=True)


def repeat(backends: list[str], runs: int = 3) -> None:
    print(f"\n### {runs} ci-profile runs in a row (`-n 2`, {', '.join(backends)})\n")
    seen = []
    for i in range(runs):
        seconds, findings = _suite_run(backends, 2)
        outcomes = json.dumps(findings["outcomes"], sort_keys=True)
        seen.append(outcomes)
        print(f"- run {i + 1}: {seconds:.0f} s, outcomes {outcomes}", flush=True)
    print(f"- identical: {'yes' if len(set(seen)) == 1 else 'NO'}")


def _campaign_run(spec: str, seconds: float, calibrated: bool) -> tuple[int, Counter, dict[str, str], list[str]]:
    """One backend for ``seconds`` of wall clock: (cases, outcomes, signature -> what the
    table says, the features calibration left out)."""
    from harness.calibration import calibrate
    from strategies import cases

    backend = load_backend(spec)
    worker = started_worker(spec)
    outcomes: Counter = Counter()
    signatures: dict[str, str] = {}
    start = time.perf_counter()

    def run_once(case: Case, options: dict[str, Any]) -> Any:
        verdict = worker.run(spec, case, options)
        outcomes[verdict.outcome] += 1
        if verdict.outcome != "pass":
            row = match(verdict, ROWS)
            signatures.setdefault(verdict.signature(), f"{row.kind}: {row.id}" if row else "new")
        return verdict

    def run_case(case: Case, options: dict[str, Any]) -> Any:
        if time.perf_counter() - start > seconds:
            raise StopSearch
        return run_once(case, options)

    # Calibration's pass is paid inside the budget (never from the cache here), and what
    # it meets counts as found.
    left_out = calibrate(backend, spec, run_once, refresh=True)["features"] if calibrated else {}
    # The table hidden: every failure is a finding, set down unshrunk, and the search goes on.
    check = seed(0)(search_settings(10**9, phases=[Phase.generate])(
        conformance_property(backend, spec, run_case, Recorder(), cases(exclude=left_out) if left_out else None,
                             keep_going=True, known_row=lambda v: None)))
    try:
        check()
    except StopSearch:
        pass
    worker.close()
    return sum(outcomes.values()), outcomes, signatures, sorted(left_out)


def campaign(backends: list[str], minutes: float, calibrated: bool = True) -> None:
    print(f"\n### Campaign: {minutes:g} minutes per backend, known table hidden, calibration "
          f"{'on' if calibrated else 'off'} (worker process)\n")
    print("| backend | cases | cases/min | outcomes | distinct signatures | the table says: bug / unsupported / new "
          "(signatures; distinct rows) |")
    print("|---|---:|---:|---|---:|---|")
    found: dict[str, dict[str, str]] = {}
    for spec in backends:
        n, outcomes, signatures, left_out = _campaign_run(spec, minutes * 60, calibrated)
        found[spec] = signatures
        if left_out:
            print(f"| {spec}: calibrated away | {', '.join(left_out)} | | | | |")
        said = Counter(s.split(":")[0] for s in signatures.values())
        rows = Counter(s.split(":")[0] for s in set(signatures.values()))
        print(f"| {spec} | {n} | {n / minutes:.0f} | {', '.join(f'{o} {c}' for o, c in sorted(outcomes.items()))} "
              f"| {len(signatures)} | {said['bug']} / {said['unsupported']} / {said['new']} "
              f"({rows['bug']} / {rows['unsupported']} rows) |", flush=True)
    for spec, signatures in found.items():
        print(f"\n{spec}:")
        for signature, said in sorted(signatures.items(), key=lambda kv: (kv[1], kv[0])):
            print(f"- {said}: `{signature}`")


def test_command(slowest: int = 15) -> None:
    print(f"\n### The test command: wall time and the {slowest} slowest items\n")
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        done = subprocess.run(["bash", "scripts/test.sh", "--reports", scratch, f"--durations={slowest}"], cwd=ROOT,
                              capture_output=True, text=True)
        seconds = time.perf_counter() - start
    lines = done.stdout.splitlines()
    outcome = next((line.strip("= ") for line in reversed(lines) if line.startswith("=") and " in " in line), "no summary")
    first = next((i for i, line in enumerate(lines) if "slowest" in line and "durations" in line), len(lines))
    items = [line.split(None, 2) for line in lines[first + 1:first + 1 + slowest] if line[:1].isdigit()]
    if done.returncode:  # which items failed, beside the stamped figures (to stderr: not into the docs)
        summary = next((i for i, line in enumerate(lines) if "short test summary info" in line), len(lines))
        print("\n".join(lines[summary:]) or done.stderr[-4000:], file=sys.stderr, flush=True)
    print(f"- `bash scripts/test.sh`: {seconds // 60:.0f} min {seconds % 60:.0f} s wall, exit {done.returncode}")
    print(f"- pytest: {outcome}\n")
    print("| s | phase | item |\n|---:|---|---|")
    for duration, phase, item in items:
        print(f"| {duration.rstrip('s')} | {phase} | `{item}` |", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated subset of {SECTIONS}")
    parser.add_argument("--n", type=int, default=300, help="cases per backend for throughput (default 300)")
    parser.add_argument("--backend", action="append", help="backends (default: the CPU ones installed)")
    parser.add_argument("--seeds", type=int, default=3, help="seeds per search for shrink/detection (default 3)")
    parser.add_argument("--no-calibration", action="store_true", help="campaign: draw everything")
    parser.add_argument("--minutes", type=float, default=15, help="wall clock per backend for campaign (default 15)")
    parser.add_argument("--write-docs", action="store_true",
                        help="also write each part's results, stamped, into its section of docs/benchmarks.md")
    options = parser.parse_args(argv)
    # Inductor's compile cache outlives a run: figures from an earlier run's cases would
    # be warm ones. Each run starts from an empty cache (workers inherit it).
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-inductor-")
    backends = options.backend or [b for b in CPU_BACKENDS if not load_backend(b).unavailable_reason()]
    frontends = ", ".join(dict.fromkeys(load_backend(b).version() for b in backends))
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs; Python {platform.python_version()}, "
          f"torch {torch.__version__}, hypothesis {hypothesis.__version__}; {frontends}")
    only = options.only.split(",")
    # The generator's one-time costs (Hypothesis's strategy set-up, the dtype/shape
    # caches) are paid once per pytest process, not per backend: paid here up front.
    from benchmarks.bench_generator import draw_cases

    draw_cases(100, derandomize=True)
    parts = {
        "throughput": lambda: throughput(backends, options.n),
        "restart": lambda: restart(backends),
        "dynamic": lambda: dynamic_cost(backends, options.n),
        "shrink": lambda: shrink(options.seeds),
        "detection": lambda: detection(options.seeds),
        "precision": lambda: precision(backends, options.n),
        "parallel": lambda: parallel(backends),
        "repeat": lambda: repeat(backends),
        "campaign": lambda: campaign(backends, options.minutes, not options.no_calibration),
        "test-command": test_command,
    }
    for part in SECTIONS:
        if part not in only:
            continue
        measurement = Measurement(__file__, sys.argv[1:] if argv is None else argv)
        with capture() as printed:
            parts[part]()
        if options.write_docs:
            heading, _, body = printed.getvalue().strip().partition("\n")
            measurement.write(f"bench_suite-{part}", heading.lstrip("# "), f"Frontends: {frontends}.\n\n{body.strip()}")


if __name__ == "__main__":
    main()
