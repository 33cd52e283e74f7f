"""Each frontend's own op table, read from the installed library, and the generator ops it
has no converter for: the steer's first lesson (``harness.steering``).

The tables are the ones ``benchmarks/bench_reach.py`` measures the draws against:
TVM's ``ExportedProgramImporter`` and ``TorchFXImporter`` convert maps, torchlib's registry
(ONNX), OpenVINO's ``OperatorSupport``. ``refused`` asks, for every op of the generator,
whether the frontend can convert what it becomes: each op is drawn alone a few times
(``SAMPLES``), exported (``torch.export``) and traced (``torch.fx.symbolic_trace``) once per
machine (``op_graphs``, cached under ``<cache>/optables``, keyed by torch's version and the
vocabulary), and an op every sample of which calls something the table lacks is refused:

- export-based (tvm-ep, onnx): an overload of the graph the frontend is handed (after
  ``run_decompositions()``, tvm-ep's default; after the exporter's own decompositions,
  less the assertions it erases) that the table lacks;
- fx-based (tvm-fx, tvm-dynamo): a function, method or leaf module the fx convert map lacks.

OpenVINO's ``convert_model`` reads a C++ table that Python cannot list (``OperatorSupport``
is the ``torch.compile`` partitioner's, and narrower): its ops are learned by the run
alone. Inductor lowers everything: nothing is refused.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from strategies import OPS, cases, materialize

from .backends.tvm import flat_tensor_module
from .calibration import _locked  # one process fills a cache; the others wait and read it

__all__ = ["FORMS", "FORM_OF", "SAMPLES", "Frontend", "calls", "decomposition_tables", "frontends", "fx_names", "op_graphs",
           "overloads", "refused", "time_box"]

#: Cases drawn alone per op, of which those that hold it are read.
SAMPLES = 3
#: Bump when the harvest's rules change: the cache is then rebuilt.
RULES = 3
#: Seconds one sample may take to export or trace.
TIME_BOX = 30
#: What each backend's graph is, and whose table it is read against.
TABLE_OF = {"tvm-ep": "tvm-ep", "tvm-fx": "tvm-fx", "tvm-dynamo": "tvm-fx", "onnx": "onnx"}
#: The graph each backend is handed, as ``op_graphs`` records it (read against ``TABLE_OF``).
FORM_OF = {"tvm-ep": "core", "tvm-fx": "fx", "tvm-dynamo": "fx", "onnx": "onnx"}
#: The graph whose calls name what a backend's rejection names (``calls``).
NAMED_FORM = {**FORM_OF, "openvino": "core"}
#: Backends that trace with ``torch.fx.symbolic_trace`` themselves: an op no sample of which
#: traces is refused too (tvm-dynamo's graphs come from dynamo, which breaks the graph instead).
UNTRACEABLE_REFUSED = ("tvm-fx",)
UNTRACEABLE_ROW = "trace: torch.fx.symbolic_trace"


@contextlib.contextmanager
def time_box(seconds: int) -> Iterator[None]:
    """TimeoutError after ``seconds``: one sample generator or export must not stall the run."""
    def expire(*_: Any) -> None:
        raise TimeoutError(f"over {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def overloads(gm: torch.fx.GraphModule) -> set[str]:
    """The overloads a graph calls ("aten.add.Tensor"), in cond's and map's subgraphs too."""
    return {str(n.target) for m in gm.modules() if isinstance(m, torch.fx.GraphModule)
            for n in m.graph.nodes if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload)}


def fx_names(gm: torch.fx.GraphModule) -> set[str]:
    """What TorchFXImporter looks each node up by: a function's ``__name__``, a method's
    name, a leaf module's class (written ``nn.Linear``)."""
    modules = dict(gm.named_modules())
    return {getattr(n.target, "__name__", str(n.target)) if n.op == "call_function" else
            n.target if n.op == "call_method" else f"nn.{type(modules[n.target]).__name__}"
            for n in gm.graph.nodes if n.op in ("call_function", "call_method", "call_module")}


@functools.cache
def _onnx_registry() -> Any:
    """torchlib's registry, as torch.onnx.export builds it (once: it takes seconds)."""
    from torch.onnx._internal.exporter import _registration

    logging.getLogger("torch.onnx").setLevel(logging.ERROR)  # "torchvision is not installed. Skipping ..."
    return _registration.ONNXRegistry.from_torchlib()


def decomposition_tables() -> dict[str, dict[Any, Callable]]:
    """The decomposed graphs' tables, each built as its frontend builds it on every call."""
    from openvino.frontend.pytorch.torchdynamo.export_decompositions import ops_to_not_decompose
    from torch.export.decomp_utils import CustomDecompTable
    from torch.onnx._internal.exporter import _decomp

    # torch.onnx's _fx_passes.decompose_with_registry, and OpenVINO's
    # TorchFXPythonDecoder.from_exported_program (torch >= 2.6), materialised once.
    onnx = _decomp.create_onnx_friendly_decomposition_table(set(_decomp.get_onnx_implemented_overloads(_onnx_registry())))
    openvino = CustomDecompTable()
    for op in ops_to_not_decompose():
        openvino.pop(op, None)
    return {"core": torch.export.default_decompositions().materialize(), "onnx": onnx,
            "openvino": openvino.materialize()}


@dataclass
class Frontend:
    name: str
    table: set[str]
    forms: tuple[str, ...]  # the graphs it reads: "exported", "fx", or a decomposition_tables() key
    source: str
    key: Callable[[str], str] = str  # a name read from a graph -> the table's key


def frontends() -> list[Frontend]:
    """Each frontend's own table, read from the installed library now."""
    from openvino.frontend.pytorch.torchdynamo.export_decompositions import ops_to_not_decompose
    from openvino.frontend.pytorch.torchdynamo.op_support import OperatorSupport
    from tvm.relax.frontend.torch.exported_program_translator import ExportedProgramImporter
    from tvm.relax.frontend.torch.fx_translator import TorchFXImporter

    # TVM looks an overload up by its __name__ ("add.Tensor"); its keys without a dot
    # are Python functions (symbolic-int arithmetic, getitem, cond), no overload.
    tvm_ep = {k for k in ExportedProgramImporter().create_convert_map() if "." in k}
    fx = {k if isinstance(k, str) else f"nn.{k.__name__}" for k in TorchFXImporter().create_convert_map()}
    onnx = {str(meta[0].fx_target) for meta in _onnx_registry().functions.values()
            if isinstance(meta[0].fx_target, torch._ops.OpOverload)}
    openvino = {k.removeprefix("torch.ops.") for k in OperatorSupport({})._support_dict if k.startswith("torch.ops.")}
    openvino |= {str(op) for op in ops_to_not_decompose()}  # kept whole by convert_model: its translators take them
    return [
        Frontend("tvm-ep", tvm_ep, ("exported", "core"), "`ExportedProgramImporter.create_convert_map()`",
                 lambda name: name.split(".", 1)[1]),
        Frontend("tvm-fx", fx, ("fx",), "`TorchFXImporter.create_convert_map()`"),
        Frontend("onnx", onnx, ("onnx",), "`ONNXRegistry.from_torchlib()`"),
        Frontend("openvino", openvino, ("openvino",), "`OperatorSupport` + `ops_to_not_decompose()`"),
    ]


#: How each frontend's graph is made, for the table.
FORMS = {"exported": "as exported", "core": "`run_decompositions()`", "fx": "`fx.symbolic_trace`",
         "onnx": "the exporter's decompositions", "openvino": "`convert_model`'s decompositions"}




def _draws(op: str) -> list[Any]:
    """Up to ``SAMPLES`` derandomised one-value cases that compute ``op``."""
    found: list[Any] = []

    @settings(max_examples=4 * SAMPLES, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        # A plain tuple out: a namedtuple's constructor is a call of its own in an fx graph,
        # which the op would be blamed for.
        case = data.draw(cases(ops=[op], max_ops=2, containers=["tuple"])).pruned()
        if len(found) < SAMPLES and any(v.op == op for v in case.values):
            found.append(case)

    with contextlib.suppress(Exception):
        draw()
    return found


def _graphs_key() -> str:
    vocabulary = json.dumps(sorted((n, o.family) for n, o in OPS.items()))
    digest = hashlib.sha256(vocabulary.encode()).hexdigest()[:12]
    return f"torch {torch.__version__} / rules {RULES} / samples {SAMPLES} / vocabulary {digest}"


def _write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(data, sort_keys=True))
    os.replace(tmp, path)


#: Modules exported and decomposed together (one ``run_decompositions`` costs about the
#: same whatever the graph); a batch that fails is halved.
BATCH = 24
#: What the ONNX exporter erases before it translates (``_fx_passes.remove_assertion_nodes``).
ONNX_ERASES = frozenset({"aten.sym_constrain_range_for_size.default", "aten._assert_async.default",
                         "aten._assert_async.msg", "aten._assert_scalar.default", "aten._assert_tensor_metadata.default"})
#: The decomposed graphs read, by ``decomposition_tables`` key: tvm-ep's default and ONNX's.
DECOMPOSED = ("core", "onnx")


class _Batch(torch.nn.Module):
    """Several modules in one graph: one export and decomposition for all of them; a node
    belongs to the part its ``nn_module_stack`` names (``parts.<k>``)."""

    def __init__(self, modules: list[torch.nn.Module]) -> None:
        super().__init__()
        self.parts = torch.nn.ModuleList(modules)

    def forward(self, inputs: list[tuple[tuple[Any, ...], dict[str, Any]]]) -> tuple[Any, ...]:
        return tuple(m(*a, **k) for m, (a, k) in zip(self.parts, inputs))


def _part(node: torch.fx.Node) -> int | None:
    for path, _ in (node.meta.get("nn_module_stack") or {}).values():
        head, _, rest = path.partition(".")
        if head == "parts" and rest.split(".")[0].isdigit():
            return int(rest.split(".")[0])
    return None


def _decomposed(members: list[tuple[torch.nn.Module, tuple, dict]], tables: dict[str, dict]
                ) -> list[dict[str, list[str]]]:
    """Per member, the overloads of each ``DECOMPOSED`` graph (absent where it failed)."""
    found: list[dict[str, list[str]]] = [{} for _ in members]
    pending = [list(range(i, min(i + BATCH, len(members)))) for i in range(0, len(members), BATCH)]
    while pending:
        batch = pending.pop()
        try:
            with time_box(TIME_BOX * len(batch)):
                ep = torch.export.export(_Batch([members[i][0] for i in batch]),
                                         ([(members[i][1], members[i][2]) for i in batch],))
                graphs = {form: ep.run_decompositions(tables[form]).graph_module for form in DECOMPOSED}
        except Exception:  # noqa: BLE001 - halve it, down to the member that fails alone
            if len(batch) > 1:
                pending += [batch[:len(batch) // 2], batch[len(batch) // 2:]]
            continue
        for form, gm in graphs.items():
            calls: dict[int, set[str]] = {k: set() for k in range(len(batch))}
            for m in gm.modules():
                if isinstance(m, torch.fx.GraphModule):
                    for n in m.graph.nodes:
                        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload) \
                                and (k := _part(n)) is not None and k in calls:
                            calls[k].add(str(n.target))
            for k, i in enumerate(batch):
                found[i][form] = sorted(calls[k])
    return found


def op_graphs(cache: Path) -> dict[str, list[dict[str, list[str]]]]:
    """op -> per sample, the overloads of each graph a frontend is handed (``core``: after
    ``run_decompositions()``, ``onnx``: the exporter's decompositions) and its fx names
    (``fx``); a graph that could not be made is absent. Cached."""
    path = cache / "optables" / "graphs.json"
    key = _graphs_key()
    with _locked(path):
        if path.exists() and (stored := json.loads(path.read_text())).get("key") == key:
            return stored["ops"]
        found: dict[str, list[dict[str, list[str]]]] = {}
        members: list[tuple[torch.nn.Module, tuple, dict]] = []
        records: list[dict[str, list[str]]] = []
        for op in OPS:
            if op == "input":
                continue
            found[op] = []
            for case in _draws(op):
                record: dict[str, list[str]] = {}
                found[op].append(record)
                with contextlib.suppress(Exception):
                    model, args, kwargs = materialize(case)
                    members.append((model, args, kwargs))
                    records.append(record)
                    with contextlib.suppress(Exception), time_box(TIME_BOX):
                        record["fx"] = sorted(fx_names(torch.fx.symbolic_trace(flat_tensor_module(model, args, kwargs)[0])))
        for record, graphs in zip(records, _decomposed(members, decomposition_tables())):
            record.update(graphs)
        _write(path, {"key": key, "ops": found})
        return found


def refused(backend: str, cache: Path) -> dict[str, dict[str, Any]]:
    """``op:<name>`` -> {"row", "cases"} for the generator ops ``backend``'s table has no
    converter for (the module docstring's rule; every sample refused, one at least);
    empty for a backend without a readable table. Cached per backend, keyed by the
    graphs' key and the frontend's table."""
    if backend not in TABLE_OF:
        return {}
    path = cache / "optables" / f"{backend}.json"
    front = next(f for f in frontends() if f.name == TABLE_OF[backend])
    key = (f"{_graphs_key()} / table {hashlib.sha256(json.dumps(sorted(front.table)).encode()).hexdigest()[:12]}"
           f" / untraceable {backend in UNTRACEABLE_REFUSED}")
    if path.exists() and (stored := json.loads(path.read_text())).get("key") == key:
        return stored["refused"]
    graphs = op_graphs(cache)
    row = f"table: {front.source.strip('`')}"
    form = FORM_OF[backend]

    def refuses(sample: dict[str, list[str]]) -> bool:
        names = [n for n in sample.get(form, []) if not (form == "onnx" and n in ONNX_ERASES)]
        return form in sample and any(front.key(n) not in front.table for n in names)

    def untraceable(sample: dict[str, list[str]]) -> bool:
        # It exported (so it is a model eager runs) but torch.fx could not trace it.
        return backend in UNTRACEABLE_REFUSED and "fx" not in sample and bool(sample.keys() & set(DECOMPOSED))

    found = {f"op:{op}": {"row": row, "cases": len(samples)} for op, samples in graphs.items()
             if samples and all(refuses(s) for s in samples)}
    found |= {f"op:{op}": {"row": UNTRACEABLE_ROW, "cases": len(samples)} for op, samples in graphs.items()
              if f"op:{op}" not in found and samples and all(refuses(s) or untraceable(s) for s in samples)}
    with _locked(path):
        _write(path, {"key": key, "refused": found})
    return found



def calls(backend: str, cache: Path) -> dict[str, list[frozenset[str]]]:
    """op -> what each of its harvested samples calls in the graph ``backend`` is handed,
    by short name (``aten.amax.default`` is ``amax``, an fx method ``long``): what a
    frontend's rejection names when an op decomposes into something it lacks
    (``logsumexp`` into ``amax``). OpenVINO is handed the exported program decomposed by
    its own table, which is not harvested: the core decomposition is the nearest graph
    (its rejections name aten overloads, ``amax/aten.amax.default``). Empty for a backend
    without such a graph."""
    form = NAMED_FORM.get(backend)
    if form is None:
        return {}
    short = lambda name: name.removeprefix("aten.").split(".")[0]  # noqa: E731
    return {op: [frozenset(map(short, sample[form])) for sample in samples if form in sample]
            for op, samples in op_graphs(cache).items()}
