"""Where a run's budget goes: per backend, the share of its cases judged, rejected cleanly,
explained by a known bug and new; how deep the judged programs go; and how often an edge
value reaches an eager output.

    python benchmarks/bench_budget.py [--n 300] [--backend NAME ...] [--steer on|off|both]
                                      [--draws 600] [--write-docs]

Each backend runs the conformance suite's main search as a user runs a nightly
(``--roundtrip-profile nightly``, its full vocabulary, ``--max-examples N``, one process
each, ``--jobs`` at once,
``--keep-going`` so that a new finding is counted and the search goes on, unshrunk) with
the run's steer on, off, or both (``harness.steering``), and reads what the run recorded
(``findings.json``: ``Recorder.budget``). "Judged": the outputs were compared (``pass`` or
``mismatch``, a known bug's mismatch included); "rejected cleanly": ``unsupported``; "known
bug": a bug row explained it; "new": no row did. Depth is ``strategies.programs.chain_depth``
of the judged cases.

Then ``--draws`` cases drawn as the suite draws them (``strategies.cases()``, derandomised),
run by eager PyTorch: the share whose outputs or buffers hold a NaN, an inf, an int64 beyond
int32's range, a uint8 above 127.

``--write-docs`` writes what it printed, stamped, into the ``bench_budget`` section of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from torch.utils import _pytree as pytree  # noqa: E402

from benchmarks.docs_section import Measurement, capture  # noqa: E402
from harness.conformance import Recorder  # noqa: E402
from reports.page import BUDGET_HEADER, budget_rows  # noqa: E402
from strategies import cases, materialize  # noqa: E402
from strategies.engine import draw_as_the_suite_does  # noqa: E402

__all__ = ["edge_values", "main"]

ROOT = Path(__file__).resolve().parents[1]
CPU_FRONTENDS = ("tvm-ep", "tvm-fx", "tvm-dynamo", "onnx", "openvino", "inductor")
#: What an output may hold that the mission's bug classes distort.
EDGES = ("NaN", "inf", "int64 beyond int32", "uint8 above 127")


def run_backend(backend: str, n: int, steer: str, reports: Path) -> tuple[Recorder, float]:
    """The main search of ``backend`` for ``n`` nightly cases; what it recorded and its seconds."""
    command = [sys.executable, "-m", "pytest", "suites/test_conformance.py", "-k", "test_outputs_round_trip",
               "--backend", backend, "--roundtrip-profile", "nightly", "--max-examples", str(n), "--keep-going",
               "--steer", steer, "--calibration", "off", "--reports", str(reports), "-p", "no:cacheprovider",
               "-p", "no:xdist", "-q"]
    start = time.perf_counter()
    # The op tables' harvest is cached where a run caches it (``--cache``): once per machine.
    subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    seconds = time.perf_counter() - start
    found = reports / "findings.json"
    return (Recorder.from_dict(json.loads(found.read_text())) if found.exists() else Recorder()), seconds


def edge_values(n: int) -> Counter:
    """Of ``n`` derandomised draws of ``cases()``, how many eager outputs (and buffers)
    hold each of ``EDGES``."""
    draw_as_the_suite_does()
    seen: Counter = Counter()
    strategy = cases()

    @settings(max_examples=n, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        model, args, kwargs = materialize(data.draw(strategy))
        with torch.no_grad():
            out = model(*args, **kwargs)
        leaves = [t for t in pytree.tree_leaves(out) if isinstance(t, torch.Tensor)] + list(model.buffers())
        found = set()
        for t in (t for t in leaves if t.numel()):
            if t.is_floating_point():
                found |= {"NaN"} if bool(t.isnan().any()) else set()
                found |= {"inf"} if bool(t.isinf().any()) else set()
            elif t.dtype == torch.int64 and bool((t.abs() > torch.iinfo(torch.int32).max).any()):
                found.add("int64 beyond int32")
            elif t.dtype == torch.uint8 and bool((t > 127).any()):
                found.add("uint8 above 127")
        seen.update(found)

    draw()
    return seen


def argument_forms() -> dict[str, int]:
    """Over the harvested samples of every Python function (``strategies.ops.samples``,
    whose signature can be read): its parameters that have a default, those some sample
    passes with another value, and of those, the ones drawn both by position and by
    keyword (``samples.FORMS``)."""
    from strategies.ops import samples

    counts = Counter()
    for entry in json.loads(samples.TABLE.read_text())["ops"].values():
        params = samples._parameters(entry["call"]) if entry["kind"] == "function" else None
        if params is None:
            continue
        import inspect

        target = eval(entry["call"], {"torch": torch})  # noqa: S307 - a name from the harvest
        defaults = {n: p.default for n, p in inspect.signature(target).parameters.items()
                    if p.default is not inspect.Parameter.empty}
        counts["functions"] += 1
        counts["parameters with a default"] += len(defaults)
        changed, positional, keyword = set(), set(), set()
        for sample in entry["samples"]:
            for form in samples.forms_of(entry["call"], sample):
                args, kwargs = samples._placed(entry["call"], sample, form)
                named = {params[i][0]: v for i, v in enumerate(args) if i < len(params)} | dict(kwargs)
                changed |= {n for n, v in named.items() if n in defaults and v != defaults[n]}
                positional |= {params[i][0] for i in range(len(args)) if i < len(params)}
                keyword |= {n for n, _ in kwargs}
        counts["drawn with another value"] += len(changed)
        counts["of those, by position and by keyword"] += len(changed & positional & keyword)
    return dict(counts)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300, help="nightly cases per backend (default 300)")
    parser.add_argument("--backend", action="append", default=[], metavar="NAME",
                        help=f"a backend (repeatable; default: {', '.join(CPU_FRONTENDS)})")
    parser.add_argument("--steer", choices=("on", "off", "both"), default="both")
    parser.add_argument("--jobs", type=int, default=2, help="backends run at once, one process each (default 2)")
    parser.add_argument("--draws", type=int, default=600, help="draws whose eager outputs are read for edge values")
    parser.add_argument("--write-docs", action="store_true",
                        help="also write the results, stamped, into their section of docs/benchmarks.md")
    options = parser.parse_args(argv)
    measurement = Measurement(__file__, sys.argv[1:] if argv is None else argv)
    with capture() as printed:
        _measure(options)
    if options.write_docs:
        measurement.write("bench_budget", "Where the budget goes: cases judged, rejected, known, new",
                          printed.getvalue())


def _measure(options: argparse.Namespace) -> None:
    steers = ("off", "on") if options.steer == "both" else (options.steer,)
    print(f"{options.n} nightly cases per backend (main search, one process, --keep-going, --calibration off)")
    print()
    print("| steer | " + " | ".join(BUDGET_HEADER) + " | s |")
    print("|---|" + "---:|" * len(BUDGET_HEADER) + "---:|")
    notes = []
    backends = options.backend or CPU_FRONTENDS
    runs = [(backend, steer) for backend in backends for steer in steers]
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(options.jobs) as pool:
        done = list(pool.map(lambda run: run_backend(run[0], options.n, run[1], Path(tmp) / f"{run[0]}-{run[1]}"), runs))
        for (backend, steer), (recorder, seconds) in zip(runs, done):
            rows = budget_rows(recorder) or [[backend, "0", *["-"] * (len(BUDGET_HEADER) - 2)]]
            for row in rows:
                print(f"| {steer} | " + " | ".join(row) + f" | {seconds:.0f} |")
            demoted = recorder.steered.get(backend, {})
            if steer == "on":
                rows_named = Counter(e["row"] for e in demoted.values())
                notes.append(f"- {backend}: steered away {len(demoted)} features, by row: "
                             + (", ".join(f"`{r}` {k}" for r, k in rows_named.most_common(8)) or "none"))
                for kind, what in (("bug", "known bugs"), ("unsupported", "clean rejections")):
                    met = Counter({row: n for (b, row, k), n in recorder.known.items() if b == backend and k == kind})
                    notes.append(f"- {backend}: {what} met, by row: "
                                 + (", ".join(f"`{r}` {k}" for r, k in met.most_common(6)) or "none"))
    print()
    print("\n".join(notes))
    print()
    forms = argument_forms()
    print("Arguments of OpInfo's Python functions (`strategies.ops.samples`, each sample's call in each of "
          "`samples.FORMS` that writes it differently):")
    print()
    print("| " + " | ".join(forms) + " |")
    print("|" + "---:|" * len(forms))
    print("| " + " | ".join(str(v) for v in forms.values()) + " |")
    print()
    seen = edge_values(options.draws)
    print(f"Edge values in eager's outputs, {options.draws} derandomised draws of `strategies.cases()`:")
    print()
    print("| value | cases | share |")
    print("|---|---:|---:|")
    for edge in EDGES:
        print(f"| {edge} | {seen[edge]} | {100 * seen[edge] / options.draws:.1f}% |")


if __name__ == "__main__":
    main()
