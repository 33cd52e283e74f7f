"""Each frontend's own op table, read from the installed library, and the generator ops it
has no converter for: the steer's first lesson (``harness.steering``).

The tables are the ones ``benchmarks/bench_reach.py`` measures the draws against:
TVM's ``ExportedProgramImporter`` and ``TorchFXImporter`` convert maps, torchlib's registry
(ONNX), OpenVINO's ``OperatorSupport``. ``refused`` asks, for every op of the generator,
whether the frontend can convert what it becomes: each op is drawn alone a few times
(``SAMPLES``), exported (``torch.export``) and traced (``torch.fx.symbolic_trace``) once per
machine (``op_graphs``, cached under ``<cache>/optables``, keyed by torch's version and the
vocabulary), and an op every sample of which calls something the table lacks is refused:

- export-based (tvm-ep, onnx): an exported overload that is neither in the table nor
  decomposed by the table the frontend decomposes with (a decomposed overload becomes
  others, which the graph alone cannot tell; it is given the benefit of the doubt);
- fx-based (tvm-fx, tvm-dynamo): a function, method or leaf module the fx convert map lacks.

OpenVINO's ``convert_model`` reads a C++ table that Python cannot list (``OperatorSupport``
is the ``torch.compile`` partitioner's, and narrower): its ops are learned by the run
alone. Inductor lowers everything: nothing is refused.
"""

from __future__ import annotations

import contextlib
import fcntl
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

__all__ = ["FORMS", "SAMPLES", "Frontend", "decomposition_tables", "frontends", "fx_names", "op_graphs", "overloads",
           "refused", "time_box"]

#: Cases drawn alone per op, of which those that hold it are read.
SAMPLES = 3
#: Seconds one sample may take to export or trace.
TIME_BOX = 30
#: What each backend's graph is, and whose table it is read against.
TABLE_OF = {"tvm-ep": "tvm-ep", "tvm-fx": "tvm-fx", "tvm-dynamo": "tvm-fx", "onnx": "onnx"}


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
        case = data.draw(cases(ops=[op], max_ops=2)).pruned()
        if len(found) < SAMPLES and any(v.op == op for v in case.values):
            found.append(case)

    with contextlib.suppress(Exception):
        draw()
    return found


def _graphs_key() -> str:
    vocabulary = json.dumps(sorted((n, o.family) for n, o in OPS.items()))
    return f"torch {torch.__version__} / samples {SAMPLES} / vocabulary {hashlib.sha256(vocabulary.encode()).hexdigest()[:12]}"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One process harvests; the others (shards, searches) wait and read the cache."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(data, sort_keys=True))
    os.replace(tmp, path)


def op_graphs(cache: Path) -> dict[str, list[dict[str, list[str]]]]:
    """op -> per sample, its exported overloads (``exported``, absent where it does not
    export) and fx names (``fx``, absent where it does not trace); cached."""
    path = cache / "optables" / "graphs.json"
    key = _graphs_key()
    with _locked(path):
        if path.exists() and (stored := json.loads(path.read_text())).get("key") == key:
            return stored["ops"]
        found: dict[str, list[dict[str, list[str]]]] = {}
        for op in OPS:
            if op == "input":
                continue
            samples = []
            for case in _draws(op):
                record: dict[str, list[str]] = {}
                with contextlib.suppress(Exception):
                    model, args, kwargs = materialize(case)
                    with contextlib.suppress(Exception), time_box(TIME_BOX):
                        record["exported"] = sorted(overloads(torch.export.export(model, args, kwargs).graph_module))
                    with contextlib.suppress(Exception), time_box(TIME_BOX):
                        record["fx"] = sorted(fx_names(torch.fx.symbolic_trace(flat_tensor_module(model, args, kwargs)[0])))
                samples.append(record)
            found[op] = samples
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
    key = f"{_graphs_key()} / table {hashlib.sha256(json.dumps(sorted(front.table)).encode()).hexdigest()[:12]}"
    if path.exists() and (stored := json.loads(path.read_text())).get("key") == key:
        return stored["refused"]
    graphs = op_graphs(cache)
    decomposed = {str(op) for form in front.forms if form in ("core", "onnx")
                  for op in decomposition_tables()[form]}
    row = f"table: {front.source.strip('`')}"

    def refuses(sample: dict[str, list[str]]) -> bool:
        if "fx" in front.forms:
            return "fx" in sample and any(name not in front.table for name in sample["fx"])
        return "exported" in sample and any(front.key(o) not in front.table and o not in decomposed
                                            for o in sample["exported"])

    found = {f"op:{op}": {"row": row, "cases": len(samples)} for op, samples in graphs.items()
             if samples and all(refuses(s) for s in samples)}
    with _locked(path):
        _write(path, {"key": key, "refused": found})
    return found
