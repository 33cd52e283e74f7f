"""Which converters of each frontend's own op table the suite's draws exercise.

    python benchmarks/bench_reach.py [--n 600] [--seed-random] [--fresh] [--write-docs]

Draws ``--n`` static cases (default 600) as a run does (``strategies.cases()``, fresh
derandomised draws; where a backend has a calibration cache its features are left out, as
in ``benchmarks/bench_coverage.py``: one set of draws per distinct calibration, each read
only in the graphs of the frontends it stands for), builds each with ``materialize``,
exports it as the export-based adapters do (``torch.export.export(model, args, kwargs)``)
and reads the graph each frontend is handed:

- ``tvm-ep``: the export as it is and after ``run_decompositions()``
  (``from_exported_program`` decomposes by default; the adapter also draws
  ``run_ep_decomposition=False``), against ``ExportedProgramImporter``'s convert map;
- ``tvm-fx``: ``torch.fx.symbolic_trace`` of the adapter's ``flat_tensor_module``, against
  ``TorchFXImporter``'s convert map (functions and methods by name, ``nn.Module`` classes);
- ``onnx``: the export decomposed with the exporter's own table (every decomposition but
  those of the overloads torchlib implements), against torchlib's registry;
- ``openvino``: the export decomposed as ``convert_model`` does (the default table less
  ``ops_to_not_decompose()``), against what the Python package lists as supported: the
  ``torch.compile`` partitioner's ``OperatorSupport`` and ``ops_to_not_decompose()``
  (the C++ FX op table behind ``convert_model`` is not readable from Python);
- ``inductor``: no closed table (it lowers or decomposes everything): the overloads as
  exported.

Every table is read from the installed libraries at run time. A table entry is
*reachable* when the first sample of an OpInfo entry (``op_db``; float32 where supported,
else the first supported CPU dtype) or of a ModuleInfo entry (``module_db``, eval mode),
exported as a one-op module, produces it; an OpInfo entry's in-place variant, on the same
sample, counts too (the suite draws in-place updates). Left out of the reach, with the
reason: entries OpInfo marks ``has_nondeterministic_output`` (``empty*``), entries whose
export, decomposed to core ATen, calls an overload tagged
``torch.Tag.nondeterministic_seeded`` (random), and entries that raise (no CPU dtype or
sample, not exportable: their fx trace still counts). That harvest is
cached in ``<cache>/reach/harvest.json`` (``ROUNDTRIP_CACHE``), keyed by the library
versions; ``--fresh`` redoes it. One ``run_decompositions`` costs about 0.2 s whatever the
graph, so modules are decomposed in batches; a batch that fails is halved.

``--write-docs`` writes the tables, stamped, into the ``bench_reach`` section of
``docs/benchmarks.md`` (``benchmarks/docs_section.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import re
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from torch.utils import _pytree as pytree  # noqa: E402

from benchmarks.bench_coverage import _calibrated_away  # noqa: E402
from benchmarks.docs_section import Measurement, capture  # noqa: E402
from harness.backends.tvm import flat_tensor_module  # noqa: E402
from harness.config import Config  # noqa: E402
from harness.optables import FORMS, decomposition_tables, frontends, fx_names, overloads, time_box  # noqa: E402
from strategies import cases, materialize  # noqa: E402
from strategies.engine import draw_as_the_suite_does  # noqa: E402

draw_as_the_suite_does()  # the draws the suite makes (conftest.py does the same)

__all__ = ["main"]

#: Reachable entries never met, printed per frontend; modules per batched decomposition;
#: seconds one entry or case may take to build, export or trace.
SHOW, BATCH, TIME_BOX = 30, 24, 60
#: Bump when the harvest's rules change: the cache is then rebuilt.
HARVEST_RULES = 1
#: What is exported and traced: (name, module, args, kwargs, the modules fx traces).
Member = tuple[str, torch.nn.Module, tuple[Any, ...], dict[str, Any], list[torch.nn.Module]]


def _record(member: Member, forms: set[str]) -> dict[str, Any]:
    """One member's exported overloads and fx names (those of ``forms`` that need them),
    or why it has none."""
    _, module, args, kwargs, traced = member
    record: dict[str, Any] = {"exported": [], "fx": []}
    try:
        if forms - {"fx"}:
            with time_box(TIME_BOX):
                record["exported"] = sorted(overloads(torch.export.export(module, args, kwargs).graph_module))
    except Exception as exc:  # noqa: BLE001 - counted, with its type
        record["error"] = f"not exportable ({type(exc).__name__})"
    for variant in traced if "fx" in forms else []:
        with contextlib.suppress(Exception), time_box(TIME_BOX):
            record["fx"] = sorted({*record["fx"], *fx_names(torch.fx.symbolic_trace(variant))})
    return record


class _Batch(torch.nn.Module):
    """Several modules in one graph: one run_decompositions for all of them."""

    def __init__(self, modules: list[torch.nn.Module]) -> None:
        super().__init__()
        self.parts = torch.nn.ModuleList(modules)

    def forward(self, inputs: list[tuple[tuple[Any, ...], dict[str, Any]]]) -> tuple[Any, ...]:
        return tuple(m(*a, **k) for m, (a, k) in zip(self.parts, inputs))


def decomposed(members: list[Member], tables: dict[str, dict[Any, Callable]]) -> tuple[dict[str, set[str]], list[str]]:
    """(per decomposed form, the overloads of all ``members``; those that failed alone)."""
    found: dict[str, set[str]] = {form: set() for form in tables}
    failed: list[str] = []
    pending = [members[i:i + BATCH] for i in range(0, len(members), BATCH)]
    while pending:
        batch = pending.pop()
        try:
            with time_box(TIME_BOX * len(batch)):
                ep = torch.export.export(_Batch([m[1] for m in batch]), ([(m[2], m[3]) for m in batch],))
                got = {form: overloads(ep.run_decompositions(table).graph_module) for form, table in tables.items()}
        except Exception:  # noqa: BLE001 - halve it, down to the member that fails alone
            if len(batch) == 1:
                failed.append(batch[0][0])
            else:
                pending += [batch[:len(batch) // 2], batch[len(batch) // 2:]]
            continue
        for form, names in got.items():
            found[form] |= names
    return found, failed


def harvest(members: Iterator[Member | tuple[str, str]], tables: dict[str, dict[Any, Callable]],
            leave_out: Callable[[Member, list[str]], str | None] = lambda member, exported: None,
            forms: set[str] | None = None) -> dict[str, Any]:
    """Each member's record (an unbuildable one comes as (name, why)), and the union of
    the decomposed forms over those exported and kept (``leave_out`` says why one is not);
    only the graphs of ``forms`` (default: all) are made."""
    forms = set(FORMS) if forms is None else forms
    tables = {form: table for form, table in tables.items() if form in forms}
    records: dict[str, dict[str, Any]] = {}
    exported: list[Member] = []
    for member in members:
        if len(member) == 2:
            records[member[0]] = {"exported": [], "fx": [], "error": member[1]}
            continue
        record = records[member[0]] = _record(member, forms)
        if "error" not in record:
            reason = leave_out(member, record["exported"])
            if reason:
                record["error"] = reason
            else:
                exported.append(member)
    graphs, failed = decomposed(exported, tables) if tables else ({}, [])
    for name in failed:
        records[name]["decomposition_failed"] = True
    return {"records": records, "forms": {form: sorted(names) for form, names in graphs.items()}}


def names_read(harvested: dict[str, Any], form: str) -> set[str]:
    """The names of a form over every member that counts: not a random one; one that does
    not export still counts for its fx trace."""
    if form in harvested["forms"]:
        return set(harvested["forms"][form])
    return {name for r in harvested["records"].values() if not r.get("error", "").startswith("random")
            for name in r[form]}


# --- the reach: OpInfo and ModuleInfo ------------------------------------------------


class _Call(torch.nn.Module):
    """One op as a module (``flat_tensor_module`` makes the sample's tensors its inputs)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)


def _dtype(supported: Any) -> torch.dtype:
    return torch.float32 if torch.float32 in supported else min(supported, key=str)


def reference_members() -> Iterator[Member | tuple[str, str]]:
    """Every OpInfo and ModuleInfo entry's first CPU sample as a module, or why it has none."""
    from torch.testing._internal.common_methods_invocations import op_db
    from torch.testing._internal.common_modules import module_db

    for op in op_db:
        name = f"op:{op.full_name}"
        if op.has_nondeterministic_output:
            yield name, "nondeterministic output (OpInfo)"
            continue
        try:
            with time_box(TIME_BOX):
                samples = iter(op.sample_inputs("cpu", _dtype(op.supported_dtypes("cpu")), requires_grad=False))
                sample = next(samples)
                # closed later by the garbage collector, inside an export, it prints a traceback
                getattr(samples, "close", lambda: None)()
            args, kwargs = (sample.input, *sample.args), dict(sample.kwargs)
            module, tensors = flat_tensor_module(_Call(op.op), args, kwargs)
            traced = [module] + ([flat_tensor_module(_Call(op.method_variant), args, kwargs)[0]]
                                 if op.method_variant is not None else [])
        except Exception as exc:  # noqa: BLE001 - no CPU dtype, no sample
            yield name, f"no sample ({type(exc).__name__})"
            continue
        yield name, module, tuple(tensors), {}, traced
        if op.inplace_variant is not None:  # the suite draws in-place ops (state updates): add_, index_put_, ...
            args, kwargs = pytree.tree_map_only(torch.Tensor, torch.clone, (args, kwargs))  # no input shared
            module, tensors = flat_tensor_module(_Call(op.inplace_variant), args, kwargs)
            yield f"inplace:{op.full_name}", module, tuple(tensors), {}, [module]
    for info in module_db:
        name = f"module:{info.name}"
        try:
            with time_box(TIME_BOX):
                dtype = _dtype(info.dtypes)
                first = info.module_inputs_func(info, device="cpu", dtype=dtype, requires_grad=False, training=False)[0]
                built = info.module_cls(*first.constructor_input.args, **first.constructor_input.kwargs)
            module, tensors = flat_tensor_module(built.to(dtype).eval(), first.forward_input.args,
                                                 first.forward_input.kwargs)
        except Exception as exc:  # noqa: BLE001
            yield name, f"no sample ({type(exc).__name__})"
            continue
        yield name, module, tuple(tensors), {}, [module]


def _seeded(overloads_called: set[str] | list[str]) -> list[str]:
    return [name for name in overloads_called if torch.Tag.nondeterministic_seeded in _overload(name).tags]


def _overload(name: str) -> torch._ops.OpOverload:
    namespace, packet, which = name.split(".")
    return getattr(getattr(getattr(torch.ops, namespace), packet), which)


def _random(member: Member, exported: list[str]) -> str | None:
    """Why an entry is left out as random: it calls an overload torch tags as seeded
    randomness once decomposed to core ATen. Not as exported: ``dropout(train=False)``,
    an eval-mode LSTM and ``scaled_dot_product_attention`` carry the tag for a dropout
    argument they do not use, and decompose to no random op."""
    if not _seeded(exported):
        return None
    _, module, args, kwargs, _ = member
    seeded = _seeded(overloads(torch.export.export(module, args, kwargs).run_decompositions().graph_module))
    return f"random ({seeded[0]})" if seeded else None


def reference(tables: dict[str, dict[Any, Callable]], *, fresh: bool) -> tuple[dict[str, Any], str]:
    """The OpInfo/ModuleInfo harvest, from the cache where it is current; and where it came from."""
    key = {"torch": torch.__version__, "onnxscript": version("onnxscript"), "openvino": version("openvino"),
           "rules": HARVEST_RULES}
    path = Config.from_environment().cache / "reach" / "harvest.json"
    if not fresh and path.exists():
        cached = json.loads(path.read_text())
        if cached.get("key") == key:
            return cached, f"read from {path} (harvested in {cached['seconds']:.0f} s)"
    start = time.perf_counter()
    harvested = harvest(reference_members(), tables, _random)
    harvested |= {"key": key, "seconds": time.perf_counter() - start}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(harvested, indent=1))
    return harvested, f"harvested in {harvested['seconds']:.0f} s, cached in {path}"


# --- the draws -----------------------------------------------------------------------


def draw_cases(n: int, exclude: list[str], *, derandomize: bool) -> list[Any]:
    """``n`` cases drawn as bench_coverage.draw_pairs draws them (generate phase only)."""
    strategy = cases(exclude=exclude) if exclude else cases()
    drawn: list[Any] = []

    @settings(max_examples=n, phases=[Phase.generate], database=None, deadline=None, derandomize=derandomize,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        drawn.append(data.draw(strategy))

    draw()
    return drawn


def case_members(drawn: list[Any]) -> Iterator[Member]:
    for i, case in enumerate(drawn):
        model, args, kwargs = materialize(case)
        yield f"case {i}", model, args, kwargs, [flat_tensor_module(model, args, kwargs)[0]]


# --- the report ----------------------------------------------------------------------


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def _reasons(harvested: dict[str, Any]) -> dict[str, list[str]]:
    """Each reason a member does not count (random ones as one), and those it holds."""
    reasons: dict[str, list[str]] = {}
    for name, r in harvested["records"].items():
        if "error" in r:
            reasons.setdefault("random" if r["error"].startswith("random") else r["error"], []).append(name)
        if r.get("decomposition_failed"):
            reasons.setdefault("exported, not decomposable (left out of the decomposed graphs)", []).append(name)
    return dict(sorted(reasons.items(), key=lambda item: -len(item[1])))


def _errors(harvested: dict[str, Any]) -> str:
    return ", ".join(f"{len(names)} {reason}" for reason, names in _reasons(harvested).items())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=600, help="cases to draw (default 600)")
    parser.add_argument("--seed-random", action="store_true", help="random draws instead of derandomized ones")
    parser.add_argument("--fresh", action="store_true", help="harvest OpInfo/ModuleInfo again, not from the cache")
    parser.add_argument("--write-docs", action="store_true",
                        help="also write the results, stamped, into their section of docs/benchmarks.md")
    options = parser.parse_args(argv)
    measurement = Measurement(__file__, sys.argv[1:] if argv is None else argv)
    # torch's own deprecation notes (pytree's LeafSpec, once per export) would drown the output.
    warnings.filterwarnings("ignore", category=FutureWarning)
    warnings.filterwarnings("ignore", category=UserWarning)
    # An export that fails on a data-dependent size logs the graph it got to: the failure is counted.
    logging.getLogger("torch").setLevel(logging.ERROR)
    with capture() as printed:
        _measure(options)
    if options.write_docs:
        measurement.write("bench_reach", "Converter reach: each frontend's op table met by the draws", printed.getvalue())


def opinfo_source() -> str:
    """What the vocabulary draws from OpInfo (``strategies/ops/opinfo.py``), and the
    entries its harvest left out, counted by the rule each failed."""
    from strategies.ops import OPS
    from strategies.ops.opinfo import TABLE, op_name

    table = json.loads(TABLE.read_text())
    drawn = [name for name in table["ops"] if OPS.get(op_name(name)) and OPS[op_name(name)].family.startswith("opinfo")]
    by_hand = len(table["ops"]) - len(drawn)
    reasons = Counter(why.split(":")[0] for why in table["left_out"].values())
    left = "; ".join(f"{why}: {n}" for why, n in reasons.most_common())
    return (f"OpInfo as the vocabulary's second source (`{TABLE.name}`, torch {table['torch']}): {len(drawn)} unary "
            f"float functions drawn as ops of the families `opinfo` and `opinfo_shape`, {by_hand} more that the "
            f"hand-written vocabulary draws under the same name; {len(table['left_out'])} entries left out, by rule: {left}."
            + "\n" + _samples_source())


def _samples_source() -> str:
    """What the vocabulary draws from OpInfo's and ModuleInfo's other samples
    (``strategies/ops/samples.py``), and the entries left out, by the rule each failed."""
    from strategies.ops.samples import TABLE

    table = json.loads(TABLE.read_text())
    kinds = Counter(entry["kind"] for entry in table["ops"].values())
    inplace = sum(any(s.get("inplace") for s in entry["samples"]) for entry in table["ops"].values())
    reasons = Counter(re.sub(r"\b\d+\b", "N", re.split(r"[:(]", why)[0].strip()) for why in table["left_out"].values())
    left = "; ".join(f"{why}: {n}" for why, n in reasons.most_common())
    return (f"OpInfo and ModuleInfo as the third source (`{TABLE.name}`, torch {table['torch']}): {kinds['function']} "
            f"functions and methods ({inplace} also in place) and {kinds['module']} modules drawn as `sample_*` ops, "
            f"{sum(len(e['samples']) for e in table['ops'].values())} samples; {len(table['left_out'])} entries left "
            f"out, by rule: {left}.")


def _measure(options: argparse.Namespace) -> None:
    fronts = frontends()
    tables = decomposition_tables()
    ref, ref_note = reference(tables, fresh=options.fresh)

    # One set of draws per distinct calibration (none cached: one set for every frontend).
    excludes = {f: _calibrated_away(f) for f in [*(f.name for f in fronts), "inductor"]}
    forms_read = {f.name: set(f.forms) for f in fronts} | {"inductor": {"exported"}}
    draws: dict[tuple[str, ...], dict[str, Any]] = {}
    for exclude, _ in excludes.values():
        if tuple(exclude) not in draws:
            start = time.perf_counter()
            drawn = draw_cases(options.n, exclude, derandomize=not options.seed_random)
            drawn_s = time.perf_counter() - start
            # Only the graphs the frontends drawing these cases read (an export is seconds).
            needed = set().union(*(forms_read[f] for f, (e, _) in excludes.items() if e == exclude))
            draws[tuple(exclude)] = harvest(case_members(drawn), tables, forms=needed)
            draws[tuple(exclude)] |= {"drawn": len(drawn), "draw_s": drawn_s,
                                      "seconds": time.perf_counter() - start}

    print(f"versions: torch {torch.__version__}, apache-tvm {version('apache-tvm')}, onnxscript "
          f"{version('onnxscript')}, openvino {version('openvino')}; {options.n} static cases "
          f"({'random' if options.seed_random else 'derandomized'} draws of `strategies.cases()`)")
    print()
    print("| frontend | op table | graph read | entries | reachable | met | met / entries | met / reachable |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    details = []
    for f in fronts:
        got = draws[tuple(excludes[f.name][0])]
        reach = {f.key(n) for form in f.forms for n in names_read(ref, form)} & f.table
        met = {f.key(n) for form in f.forms for n in names_read(got, form)} & f.table
        print(f"| {f.name} | {f.source} | {' + '.join(FORMS[form] for form in f.forms)} | {len(f.table)} | "
              f"{len(reach)} | {len(met)} | {_share(len(met), len(f.table))} | {_share(len(met & reach), len(reach))} |")
        missing = sorted(reach - met)
        details.append(f"- **{f.name}**: {len(missing)} reachable entries never met"
                       + (f" (the first {SHOW})" if len(missing) > SHOW else "") + ": "
                       + ", ".join(f"`{m}`" for m in missing[:SHOW])
                       + f"; {len(f.table - reach)} entries no sample reaches"
                       + (f"; met outside the reach: {', '.join(f'`{m}`' for m in sorted(met - reach))}"
                          if met - reach else ""))
    got = draws[tuple(excludes["inductor"][0])]
    reach, met = names_read(ref, "exported"), names_read(got, "exported")
    print(f"| inductor | none: lowers every overload | {FORMS['exported']} | - | {len(reach)} | {len(met)} | - | "
          f"{_share(len(met & reach), len(reach))} |")
    print()
    # An OpInfo entry counts as drawn when every overload its sample exports is met.
    records = ref["records"]
    counted = [r for k, r in records.items() if k.startswith("op:") and "error" not in r and r["exported"]]
    drawn_ops = [r for r in counted if set(r["exported"]) <= met]
    print(f"OpInfo entries whose every exported overload the draws meet: {len(drawn_ops)} of the {len(counted)} "
          f"that export ({_share(len(drawn_ops), len(counted))}).")
    print(opinfo_source())
    print()
    print("\n".join(details))
    print()
    for exclude, got in draws.items():
        used = ", ".join(f for f, (e, _) in excludes.items() if tuple(e) == exclude)
        exported = sum(1 for r in got["records"].values() if r["exported"])
        traced = sum(1 for r in got["records"].values() if r["fx"])
        print(f"- draws for {used}: {got['drawn']} drawn in {got['draw_s']:.0f} s, {exported} exported, "
              f"{traced} traced by fx; not counted: {_errors(got) or 'none'}; {got['seconds']:.0f} s in all")
    kinds = Counter(k.split(":")[0] for k in records)
    print(f"- reach: {kinds['op']} OpInfo entries, {kinds['inplace']} of their in-place variants, {kinds['module']} "
          f"ModuleInfo entries, {ref_note}")
    for name, (_, note) in excludes.items():
        print(f"- {name}: {note}")
    print()
    print("Not counted in the reach, by reason:")
    print()
    for reason, names in _reasons(ref).items():
        print(f"- {reason}: {', '.join(n.split(':', 1)[1] + (' (in-place)' if n.startswith('inplace:') else '') for n in names)}")

if __name__ == "__main__":
    main()
