"""Where a difference comes from: the value of a generated program (or the call of a
user's model's graph) at a differing path, eager's rounding bound and float64 run there,
and the root-cause probes that compile the values feeding a differing leaf one at a time."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import torch
from torch.utils import _pytree as pytree

from strategies import Case, Ref, materialize
from strategies.ops import OPS, TensorType, TupleType
from strategies.render import program_types

from .attribution import Graph, names_of
from .backends.base import Backend
from .calls import Run, compile_and_run, run_eager, timed
from .difference import Difference, KeyPath, in_state, own_key
from .oracle import compare
from .own import OwnModel
from .signature import Outcome, Trigger
from .subjects import Subject, kind_of
from .verdict import Verdict

__all__ = ["LEAF_KINDS", "error_lookup", "fp64_reference", "op_at", "own_leaf_op", "probe", "state_op"]


def leaves_by_path(tree: Any) -> dict[KeyPath, Any] | None:
    """Each leaf of an output tree by its oracle path, in pytree order; None where a node
    is registered without keys (transformers' ModelOutput): no path to name."""
    try:
        return {tuple(own_key(k) for k in p): leaf for p, leaf in pytree.tree_flatten_with_path(tree)[0]}
    except ValueError:
        return None


def fp64_reference(case: Case) -> Callable[[KeyPath], Any] | None:
    """path -> a float64 run of eager's value there (its float inputs, parameters and
    buffers in float64; the program's own casts as they are), for a program with an op
    that has no hand-derived error bound (``harness.oracle.closer_than_eager``); None for
    any other program, or where the float64 run fails."""
    if not any(OPS[op].family.startswith("opinfo") for op in case.ops()):
        return None
    try:
        model, args, kwargs = materialize(case)
        model = model.to(torch.float64)
        args, kwargs = pytree.tree_map(
            lambda t: t.double() if isinstance(t, torch.Tensor) and t.is_floating_point() else t, (args, kwargs))
        with torch.no_grad():
            found = leaves_by_path(model(*args, **kwargs))
    except Exception:  # noqa: BLE001 - no float64 run: the leaf is judged by its tolerance alone
        return None
    return found.get if found is not None else None


def probe(backend: Backend, verdict: Verdict) -> None:
    """The root cause of a program's mismatch (``_root_cause``): the probes compile again,
    so they have their own part of the timings, not the oracle's."""
    if verdict.probe_with is None:
        return
    start = time.perf_counter()
    case, options, steps = verdict.probe_with
    verdict.probe_with = None
    verdict.root = (_own_root_cause(backend, case, options, steps) if kind_of(case).graph_named
                    else _root_cause(backend, case, options, steps))
    if verdict.root:
        verdict.trigger = Trigger.of_op(verdict.root["op"])
    timed(verdict.timings, "root-cause", start)


#: Differences in a leaf's own content, which a value earlier in the program may cause.
LEAF_KINDS = ("dtype", "shape", "values", "leaf_type")


def _root_cause(backend: Backend, case: Case, options: dict[str, Any], path: KeyPath) -> dict[str, Any]:
    """The earliest value feeding the differing leaf that differs when returned alone.

    A dtype lost in ``sum`` shows at the ``add`` that consumes it; the signature (and
    the known table) should name ``sum``. Runs only on mismatches, one small compile
    per computed value on the way, stopping at the first that differs.
    """
    index = _value_at(case, path)[0]
    if index is None:
        return {}
    # Only what feeds the value: a mutation elsewhere in the model (a buffer updated from
    # a later value of the same chain) does not make the value differ, and blaming it
    # named ops after the cause (a uint8 shift's lost dtype was put on the flip after it).
    for i in case.feeding(index):
        value = case.values[i]
        if value.op in ("input", "parameter", "buffer") or value.dtype is None:
            continue
        alone = replace(case, output=Ref(i)).pruned()
        probe = Verdict(backend=backend.name, outcome=Outcome.PASS)
        run = compile_and_run(backend, alone, options, probe)
        if probe.outcome != Outcome.PASS:
            continue
        differences = compare(run.expected, run.actual, contract=backend.contract, error_at=error_lookup(alone),
                              reference_at=fp64_reference(alone))
        if differences and differences[0].kind in LEAF_KINDS:
            return {"op": value.op, "value": f"v{i} = {value.op}({', '.join(value.operands)})",
                    "difference": differences[0]}
    return {}


#: A user's model with more calls than this on the way to its differing leaf is named by
#: the leaf's own call, unprobed: one compile per call would outlast the check.
MAX_PROBES = 24


def _own_leaf(case: OwnModel, expected: Any, steps: KeyPath) -> tuple[Graph | None, int]:
    """A user's model's exported graph and the pytree position of the output leaf at ``steps``."""
    graph = case.graph()
    if graph is None:
        return None, -1
    paths = list(leaves_by_path(expected) or ())
    return graph, paths.index(steps) if steps in paths else -1


def own_leaf_op(case: Subject, run: Run, difference: Difference) -> str:
    """The generator's names of the call that made a user's model's differing leaf."""
    if not kind_of(case).graph_named or difference.in_state:
        return ""
    graph, position = _own_leaf(case, run.expected, difference.path)
    node = graph.producer(position) if graph is not None else None
    return "+".join(names_of(node)) if node is not None else ""


def _own_root_cause(backend: Backend, case: OwnModel, options: dict[str, Any], path: KeyPath
                    ) -> dict[str, Any]:
    """``_root_cause`` for a user's model: the earliest call of its exported graph feeding
    the differing leaf whose value, returned alone (the graph cut there), differs."""
    eager = run_eager(case, {})[0]
    graph, position = _own_leaf(case, eager.expected, path)
    cuts = graph.cuts(position) if graph is not None else []
    if not cuts or len(cuts) > MAX_PROBES:
        return {}
    bound = kind_of(case).error_bound(case)
    for cut, names in cuts:
        probe = Verdict(backend=backend.name, outcome=Outcome.PASS)
        run = compile_and_run(backend, replace(case, cut=cut), options, probe)
        if probe.outcome != Outcome.PASS:
            continue
        differences = compare(run.expected, run.actual, contract=backend.contract, error_at=lambda steps: bound)
        if differences and differences[0].kind in LEAF_KINDS:
            return {"op": "+".join(names), "value": cut, "difference": differences[0]}
    return {}


def _value_at(case: Case, path: KeyPath) -> tuple[int | None, KeyPath]:
    """The value at an oracle path (``[0]['a'].f``) of the output tree, and the steps
    left inside it (into what a tuple-returning op gave)."""
    node = case.output
    for n, step in enumerate(path):
        if isinstance(node, Ref):
            return node.index, path[n:]
        if isinstance(step, pytree.SequenceKey):
            position = step.idx
        elif _key_name(step) in node.keys:
            position = node.keys.index(_key_name(step))
        else:
            return None, ()
        if position >= len(node.items):
            return None, ()
        node = node.items[position]
    return (node.index, ()) if isinstance(node, Ref) else (None, ())


def _key_name(key: Any) -> Any:
    """A mapping key's key, a field's name."""
    return key.key if isinstance(key, pytree.MappingKey) else getattr(key, "name", None)


def state_op(run: Run, difference: Difference) -> str:
    """For a user's model, whose ops the suite does not know: a difference in the state
    after the call, or in an output that is a buffer or input forward updated in place,
    is named as a generated case's would be (``buffer_update``, ``input_update``)."""
    if difference.in_state:
        return "buffer_update" if difference.path[0].part == "buffers" else "input_update"
    leaves = leaves_by_path(run.expected)
    if leaves is None:
        return ""
    leaf = leaves.get(difference.path)
    for part, update in (("buffers", "buffer_update"), ("inputs", "input_update")):
        if any(leaf is t for t in run.expected_state[part].values()):
            return update
    return ""


def _mutated_by(case: Case, path: KeyPath) -> int | None:
    """The value that mutated the buffer or input at a state path (a buffer ``sK``
    belongs to value K; an input to the value that mutated it), if any."""
    if len(path) < 2 or not in_state(path):
        return None
    part, name = path[0].part, _key_name(path[1])
    if part == "buffers":
        index = int(name[1:]) if re.fullmatch(r"s\d+", name) else None
        return index if index is not None and index < len(case.values) else None
    if case.params:  # state.inputs['cache'][1][0]: the input at that key path of the parameter's tree
        name = next((n for n, p in case.input_key_paths().items() if p == path[1:]), name)
    return next((i for i in case.mutations() if case.values[i].operands[:1] == (name,)), None)


def op_at(case: Case, path: KeyPath) -> str:
    index = _mutated_by(case, path) if in_state(path) else _value_at(case, path)[0]
    return "" if index is None else case.values[index].op


def error_lookup(case: Case) -> Callable[[KeyPath], float]:
    """path -> the generator's bound on eager's rounding error at that float leaf."""
    types = program_types(case)

    def error_at(path: KeyPath) -> float:
        if in_state(path):
            index = _mutated_by(case, path)
            t = types.get(f"v{index}")
            return t.err if isinstance(t, TensorType) else 0.0
        index, rest = _value_at(case, path)
        if index is None:
            return 0.0
        t = types[f"v{index}"]
        for step in rest:
            if not isinstance(t, TupleType):
                return 0.0
            if isinstance(step, pytree.SequenceKey) and step.idx < len(t.items):
                t = t.items[step.idx]
            elif isinstance(step, pytree.GetAttrKey) and step.name in t.fields:
                t = t.items[t.fields.index(step.name)]
            else:
                return 0.0
        return t.err if isinstance(t, TensorType) else 0.0

    return error_at
