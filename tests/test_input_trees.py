"""Inputs as real models take them: the generator draws input trees (tuples, lists,
dicts, a tuple of (k, v) pairs), ``None`` and Python flags and numbers, positional or
keyword; they shrink to flat tensor inputs; the rendered script and the materialized
model agree; every CPU adapter feeds them as its frontend expects."""

from __future__ import annotations

import pytest
import torch
from hypothesis import HealthCheck, find, given, settings

from harness.registry import CPU_BACKENDS, load_backend
from harness.runner import execute
from strategies import Case, Input, Ref, Value, cases, materialize
from strategies.inputs import CONSTANTS
from strategies.spec import Const, Container, Param, ParamNode, case_from_json, case_to_json

FAST = settings(deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))

#: Four tensors of three dtypes in a cache of pairs, a list and a dict passed by keyword.
TREES = Case(
    inputs=(Input("x0", "float32", (2, 3)), Input("x1", "int64", (3,)), Input("x2", "float16", (2,)),
            Input("x3", "float32", (1, 2))),
    values=(Value("add", ("x0", "x0"), dtype="float32", shape=(2, 3)),
            Value("mul", ("x1", "x1"), dtype="int64", shape=(3,)),
            Value("add", ("x2", "x2"), dtype="float16", shape=(2,)),
            Value("input", ("x3",), dtype="float32", shape=(1, 2))),
    output=Container("tuple", (Ref(0), Container("tuple", (Ref(1), Ref(2))), Ref(3))),
    seed=11,
    params=(Param("t0", ParamNode("tuple", (ParamNode("tuple", ("x0", "x1")),))),
            Param("t1", ParamNode("list", ("x3",))),
            Param("t2", ParamNode("dict", ("x2",), ("a",)), keyword=True)),
)


def _forms(case: Case) -> set[str]:
    found: set[str] = set()

    def walk(node, depth: int) -> None:
        if isinstance(node, Const):
            found.add(f"constant {node.value!r} in a tree" if depth else f"constant parameter {node.value!r}")
        elif isinstance(node, ParamNode):
            found.add(node.kind if depth == 0 else f"{node.kind} in a {parent}")
            for child in node.items:
                walk(child, depth + 1)
        elif depth == 0:
            found.add("a tensor on its own")

    for p in case.params:
        parent = p.tree.kind if isinstance(p.tree, ParamNode) else ""
        walk(p.tree, 0)
        found.add("keyword" if p.keyword else "positional")
    return found


def test_every_form_is_drawn():
    seen: set[str] = set()

    @settings(FAST, max_examples=400)
    @given(cases(input_trees=True, max_ops=2))
    def collect(case: Case) -> None:
        seen.update(_forms(case))
        assert case_from_json(case_to_json(case)) == case

    collect()
    wanted = {"tuple", "list", "dict", "a tensor on its own", "tuple in a tuple", "tuple in a dict", "positional",
              "keyword", *(f"constant parameter {v!r}" for v in CONSTANTS), *(f"constant {v!r} in a tree" for v in CONSTANTS)}
    assert wanted <= seen, sorted(wanted - seen)


def test_trees_shrink_to_flat_inputs():
    assert find(cases(input_trees=True, max_ops=1), lambda case: True, settings=FAST).params == ()
    nested = find(cases(input_trees=True, max_ops=1), lambda case: any(isinstance(p.tree, ParamNode) for p in case.params),
                  settings=FAST)
    assert nested.params == (Param("t0", ParamNode("tuple", ("x0",))),), nested.params


def test_the_model_reads_its_inputs_out_of_the_trees():
    model, args, kwargs = materialize(TREES)
    assert isinstance(args[0], tuple) and isinstance(args[0][0], tuple) and isinstance(args[1], list)
    assert set(kwargs) == {"t2"} and kwargs["t2"]["a"].dtype == torch.float16
    with torch.no_grad():
        out = model(*args, **kwargs)
    torch.testing.assert_close(out[0], args[0][0][0] * 2)
    assert out[2] is args[1][0]  # an input returned as it is: the tensor inside the list


@pytest.mark.parametrize("name", CPU_BACKENDS)
def test_every_cpu_adapter_feeds_trees_as_its_frontend_expects(name):
    backend = load_backend(name)
    reason = backend.unavailable_reason()
    if reason:
        pytest.skip(reason)
    verdict = execute(backend, TREES, {})
    assert verdict.outcome == "pass", f"{name}: {verdict.headline()}\n{verdict.traceback[-3000:]}"
