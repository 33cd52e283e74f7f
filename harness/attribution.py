"""Which of the generator's ops made a value of a user's own model: read from its graph.

A row of the known table names the generator's ops (``floordiv_scalar``, ``sum``,
``relu``...); a user's model is code the suite did not write. Its exported graph is data
it can read: each ATen call, keyed by its overload and whether its first two operands
are tensors or Python numbers (``aten.add.Tensor(T,s)``), is the op of the generator
that exports to that call (``add_scalar``). ``NAMES`` holds that table, harvested from
the generator's own programs (each value's line of source is in its node's stack
trace); ``python -m harness.attribution`` writes it again when torch or the vocabulary
moves. A call no generator op makes keeps its ATen name, which no row names: a row is
never matched by a guess.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch
from torch.utils import _pytree as pytree

from .signature import Trigger

__all__ = ["NAMES", "Graph", "call_key", "export_graph", "harvest", "names_of"]

#: {call key: the generator ops exporting to it}, written by ``harvest``.
NAMES = Path(__file__).with_name("aten-names.json")

#: Calls that move or rename a value without computing it: never a root cause of their own
#: (the generator's ``view`` and ``reshape`` are rows' names for shape bugs, so those stay).
_PLUMBING = ("aten.clone.default", "aten.alias.default", "aten.detach.default", "aten._assert_tensor_metadata.default",
             "aten.lift_fresh_copy.default", "_operator.getitem")


def call_key(node: torch.fx.Node) -> str:
    """``aten.add.Tensor(T,s)``: the overload, and its first two positional operands as
    a tensor (``T``), a Python number (``s``) or something else (``-``)."""
    kinds = []
    for arg in node.args[:2]:
        if isinstance(arg, torch.fx.Node):
            kinds.append("T" if isinstance(arg.meta.get("val"), torch.Tensor) else "s")
        elif isinstance(arg, (bool, int, float)):
            kinds.append("s")
        else:
            kinds.append("-")
    target = node.target
    name = str(target) if isinstance(target, torch._ops.OpOverload) else f"{target.__module__}.{target.__name__}"
    return f"{name}({','.join(kinds)})"


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in json.loads(NAMES.read_text()).get("names", {}).items()} if NAMES.exists() else {}


def names_of(node: torch.fx.Node) -> tuple[str, ...]:
    """The generator ops that export to this call, or the call's own ATen name."""
    key = call_key(node)
    return _table().get(key) or (key.split("(")[0].removeprefix("aten.").rsplit(".", 1)[0],)


class Graph:
    """A user's model as ``torch.export`` reads it: which calls made each output leaf, and
    the model cut on the way to one (``cuts``, ``cut``)."""

    def __init__(self, exported: torch.export.ExportedProgram, model: torch.nn.Module, args: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> None:
        self.exported, self.model, self.args, self.kwargs = exported, model, args, kwargs
        self.graph = exported.graph
        user = [spec.arg.name if hasattr(spec.arg, "name") else None for spec in exported.graph_signature.output_specs
                if spec.kind == torch.export.graph_signature.OutputKind.USER_OUTPUT]
        by_name = {n.name: n for n in self.graph.nodes}
        #: The node of each output leaf, in pytree order (None: a constant or a None).
        self.leaves = [by_name.get(name) if name else None for name in user]
        self._user_inputs = set(exported.graph_signature.user_inputs)

    def calls(self) -> list[torch.fx.Node]:
        return [n for n in self.graph.nodes if n.op == "call_function" and str(call_key(n)).split("(")[0]
                not in _PLUMBING]

    def ops(self) -> list[str]:
        """Every op of the graph, as a generated case's ``ops()``: sorted, once each."""
        return sorted({name for n in self.calls() for name in names_of(n)})

    def trigger(self) -> Trigger:
        """What a process that died ran, written as a generated case's (``cumsum on int32 0-size``)."""
        dtypes = sorted({str(v.dtype).removeprefix("torch.") for n in self.graph.nodes if n.op == "placeholder"
                         and n.name in self._user_inputs and isinstance(v := n.meta.get("val"), torch.Tensor)})
        empty = any(isinstance(v := n.meta.get("val"), torch.Tensor) and v.numel() == 0 for n in self.graph.nodes)
        return Trigger(tuple(self.ops()) or ("no op",), "/".join(dtypes) or "no input", empty)

    def feeding(self, leaf: int) -> list[torch.fx.Node]:
        """The calls the output leaf at ``leaf`` (pytree position) needs, earliest first."""
        node = self.leaves[leaf] if 0 <= leaf < len(self.leaves) else None
        return [n for n in self.calls() if n in _ancestors(node)] if node is not None else []

    def producer(self, leaf: int) -> torch.fx.Node | None:
        """The last call on the way to the output leaf (the leaf itself, past plumbing)."""
        feeding = self.feeding(leaf)
        return feeding[-1] if feeding else None

    def cuts(self, leaf: int) -> list[tuple[str, tuple[str, ...]]]:
        """Where to cut the model on the way to the output leaf at ``leaf``, earliest first,
        each with the generator's names of the op there. A cut of the torch-level graph
        (``fx:NAME``, where ``torch.fx`` traces the model) is a module of torch calls any
        frontend takes, the fx-based importers too; otherwise a cut of the exported
        graph (``ep:NAME``), whose ATen calls those importers do not convert."""
        traced = _traced(self.model)
        if traced is None:
            return [(f"ep:{n.name}", names_of(n)) for n in self.feeding(leaf)
                    if isinstance(n.meta.get("val"), torch.Tensor)]
        output = next(n for n in traced.graph.nodes if n.op == "output")
        leaves = pytree.tree_leaves(output.args[0])
        node = leaves[leaf] if 0 <= leaf < len(leaves) and isinstance(leaves[leaf], torch.fx.Node) else None
        found = []
        for n in traced.graph.nodes if node is not None else ():
            if n.op in ("call_function", "call_method", "call_module") and n in _ancestors(node):
                # The fx call's name in the generator's words: the last ATen call of its cut, exported.
                cut = export_graph(self.cut(f"fx:{n.name}"), self.args, self.kwargs)
                made = cut.producer(0) if cut is not None else None
                if made is not None and isinstance(made.meta.get("val"), torch.Tensor):
                    found.append((f"fx:{n.name}", names_of(made)))
        return found

    def cut(self, cut: str) -> torch.nn.Module:
        """The model as a module returning the value at ``cut`` (of ``cuts``) alone, called
        as the model is."""
        kind, _, name = cut.partition(":")
        module = _traced(self.model) if kind == "fx" else self.exported.module()
        if module is None:
            raise RuntimeError(f"torch.fx no longer traces the model to cut it at {cut}")
        graph = module.graph
        node = next(n for n in graph.nodes if n.name == name)
        output = next(n for n in graph.nodes if n.op == "output")
        output.args = (node,)
        codegen = graph._codegen
        if hasattr(codegen, "pytree_info"):  # the value itself, not the model's output tree
            codegen.pytree_info = codegen.pytree_info._replace(out_spec=pytree.tree_structure(0))
            output.args = ((node,),)  # a one-leaf flat output, unflattened by that spec
        graph.eliminate_dead_code()
        module.recompile()
        return module


def _ancestors(node: torch.fx.Node) -> set[torch.fx.Node]:
    needed: set[torch.fx.Node] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n not in needed:
            needed.add(n)
            stack.extend(n.all_input_nodes)
    return needed


def _traced(model: torch.nn.Module) -> torch.fx.GraphModule | None:
    try:
        return torch.fx.symbolic_trace(model)
    except Exception:  # noqa: BLE001 - control flow on values, *args, trees: the exported graph is cut instead
        return None


def export_graph(model: torch.nn.Module, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Graph | None:
    """The model's graph as ``torch.export`` (non-strict) reads it; None where it cannot."""
    try:
        return Graph(torch.export.export(model, args, kwargs, strict=False), model, args, kwargs)
    except Exception:  # noqa: BLE001 - a model export refuses still gets checked, just not attributed
        return None


# -- the table, from the generator's own programs -------------------------------------------

_LINE = re.compile(r"^\s*(?:v|self\.s)(\d+)\b")


def _value_calls(model: torch.nn.Module, args: tuple, kwargs: dict) -> Iterator[tuple[int, torch.fx.Node]]:
    """(value index, the last call of its line of source) for each value of a generated program."""
    exported = torch.export.export(model, args, kwargs, strict=False)
    last: dict[int, torch.fx.Node] = {}
    for node in exported.graph.nodes:
        if node.op != "call_function" or str(call_key(node)).split("(")[0] in _PLUMBING:
            continue
        trace = node.meta.get("stack_trace") or ""
        frames = trace.splitlines()
        lines = [frames[i + 1] for i, f in enumerate(frames[:-1]) if "<roundtrip-case-" in f]
        found = _LINE.match(lines[-1]) if lines else None
        if found:
            last[int(found.group(1))] = node
    yield from last.items()


def harvest(per_op: int = 12, tries: int = 300, only: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """{call key: generator ops}, from up to ``per_op`` derandomised programs holding each op
    (of ``only``, if given)."""
    from strategies.ops import OPS

    found: dict[str, set[str]] = {}
    for name in sorted(only or OPS):
        if OPS[name].family not in ("leaf", "none"):
            print(f"{name}: {_collect(name, per_op, tries, found)} programs", file=sys.stderr)
    return {k: sorted(v) for k, v in sorted(found.items())}


def _collect(name: str, per_op: int, tries: int, found: dict[str, set[str]]) -> int:
    """Adds to ``found`` the call each of up to ``per_op`` programs holding op ``name``
    makes for it; how many programs it read."""
    from hypothesis import HealthCheck, Phase, given, settings

    from strategies import cases, materialize
    from strategies.ops import COMPANIONS

    seen: list[Any] = []

    @settings(max_examples=tries, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(cases(ops=[name, *COMPANIONS.get(name, ())], max_ops=4, include_complex=False))
    def collect(case: Any) -> None:
        if len(seen) < per_op and any(v.op == name for v in case.values):
            try:
                model, args, kwargs = materialize(case)
                calls = list(_value_calls(model, args, kwargs))
            except Exception:  # noqa: BLE001 - a program export refuses teaches nothing
                return
            seen.append(case)
            for index, node in calls:
                if case.values[index].op == name:
                    found.setdefault(call_key(node), set()).add(name)

    try:
        collect()
    except Exception as exc:  # noqa: BLE001 - an op no program reaches alone (it needs another beside it)
        print(f"{name}: {type(exc).__name__}", file=sys.stderr)
    return len(seen)


def main() -> None:
    names = harvest()
    NAMES.write_text(json.dumps({"torch": torch.__version__, "names": names}, indent=1) + "\n")
    print(f"{NAMES}: {len(names)} calls", file=sys.stderr)


if __name__ == "__main__":
    main()
