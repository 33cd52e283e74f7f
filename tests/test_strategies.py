"""Self-tests for Roundtrip's generator (``strategies``), as issue #2 asks.

A conformance suite is only as good as its generator: every drawn case must run in
eager PyTorch, run the same way twice, survive JSON and the standalone reproducer bit
for bit, export when it says it does, reach every container, dtype and special leaf,
and shrink to its simplest form. Outputs are compared bit for bit here, not with
tolerances: the same program on the same machine has no excuse to differ.
"""

from __future__ import annotations

import collections
import functools
import math
import os
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from random import Random
from typing import Any, NoReturn

import pytest
import torch
from hypothesis import HealthCheck, Phase, find, given, note, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from torch.utils._pytree import GetAttrKey, KeyEntry, MappingKey, SequenceKey, keystr

import strategies
from harness.config import ci_op_families
from strategies import (
    ALL_DTYPES,
    CONTAINER_KINDS,
    OPS,
    Case,
    Container,
    Input,
    ModelOutput,
    PlainDictSubclass,
    Ref,
    Value,
    case_from_json,
    case_to_json,
    cases,
    materialize,
    to_source,
)
from strategies.choices import booleans, choice, integers, sampled
from strategies.ops import domain_type, infer
from strategies.render import program_types
from strategies.spec import Tree
from strategies.tensors import LARGE_SIDES, MAX_NUMEL

#: Explicit settings on every test: a profile loaded by a conftest must not make this
#: file slow or flaky, and the example database must not replay another run's cases.
FAST = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: For ``find()``: enough tries to hit a rare target, and the shrinker left to finish.
MINIMAL = settings(FAST, max_examples=2000)

KIND_CLASS: dict[str, type] = {
    "tuple": tuple,
    "list": list,
    "dict": dict,
    "ordered_dict": collections.OrderedDict,
    "model_output": ModelOutput,
    "plain_dict_subclass": PlainDictSubclass,
}


def replay_hint(case: Case) -> str:
    """The one command that rebuilds the case and prints its eager output."""
    code = (
        f"import strategies as s; m, a, k = s.materialize(s.case_from_json({case_to_json(case)!r})); print(m(*a, **k))"
    )
    return f"replay: python -c {shlex.quote(code)}"


# -- comparing output trees -------------------------------------------------------------


def _is_namedtuple(obj: Any) -> bool:
    return isinstance(obj, tuple) and hasattr(type(obj), "_fields")


def _children(obj: Any) -> list[tuple[KeyEntry, Any]] | None:
    """The items of a container, keyed the way ``torch.utils._pytree`` prints paths."""
    if isinstance(obj, dict):
        return [(MappingKey(k), v) for k, v in obj.items()]
    if _is_namedtuple(obj):
        return [(GetAttrKey(f), v) for f, v in zip(obj._fields, obj, strict=True)]
    if isinstance(obj, (list, tuple)):
        return [(SequenceKey(i), v) for i, v in enumerate(obj)]
    return None


def _where(path: tuple[KeyEntry, ...]) -> str:
    return "output" + keystr(path)


def _describe(obj: Any) -> str:
    if isinstance(obj, torch.Tensor):
        return f"{type(obj).__name__}(dtype={obj.dtype}, shape={tuple(obj.shape)})"
    if _is_namedtuple(obj):
        return f"namedtuple {type(obj).__qualname__}{obj._fields}"
    return type(obj).__qualname__


def _bits(t: torch.Tensor) -> torch.Tensor:
    """The tensor's bytes: -0.0 differs from 0.0 here, as it does for a reproducer."""
    # A fresh tensor: .contiguous() keeps the 0 stride of an expanded size-1 dim.
    flat = torch.empty(t.shape, dtype=t.dtype).copy_(t.detach()).reshape(-1)
    if flat.is_complex():
        flat = torch.view_as_real(flat).reshape(-1)
    return flat.view(torch.uint8)


def _same_class(expected: Any, actual: Any, *, strict: bool) -> bool:
    if type(expected) is type(actual):
        return True
    # Each materialization (and each reproducer) defines its own namedtuple classes:
    # unless asked for identity, the same name and fields are the same class.
    return (
        not strict
        and _is_namedtuple(expected)
        and _is_namedtuple(actual)
        and type(expected).__qualname__ == type(actual).__qualname__
        and expected._fields == actual._fields
    )


def assert_same_output(expected: Any, actual: Any, *, strict_types: bool = True, path: tuple = ()) -> None:
    """Same tree, same classes, same keys, tensors with the same dtype, shape and bits."""
    where = _where(path)
    assert _same_class(expected, actual, strict=strict_types), (
        f"{where}: expected {_describe(expected)}, got {_describe(actual)}"
    )
    if isinstance(expected, torch.Tensor):
        assert expected.dtype == actual.dtype and expected.shape == actual.shape, (
            f"{where}: expected {_describe(expected)}, got {_describe(actual)}"
        )
        if not torch.equal(_bits(expected), _bits(actual)):
            diff = (expected.detach().double() - actual.detach().double()).abs() if not expected.is_complex() else None
            worst = "" if diff is None or diff.numel() == 0 else f", max abs error {diff.max().item():g}"
            raise AssertionError(
                f"{where}: {_describe(expected)} values differ bit for bit{worst}\n"
                f"expected {expected}\nactual   {actual}"
            )
        return
    expected_items, actual_items = _children(expected), _children(actual)
    if expected_items is None:
        assert expected == actual and repr(expected) == repr(actual), (
            f"{where}: expected {expected!r} ({_describe(expected)}), got {actual!r} ({_describe(actual)})"
        )
        return
    assert actual_items is not None
    expected_keys = [k for k, _ in expected_items]
    actual_keys = [k for k, _ in actual_items]
    assert expected_keys == actual_keys, f"{where}: expected keys {expected_keys}, got {actual_keys}"
    for (key, e), (_, a) in zip(expected_items, actual_items, strict=True):
        assert_same_output(e, a, strict_types=strict_types, path=(*path, key))


def output_leaves(obj: Any) -> list[Any]:
    items = _children(obj)
    if items is None:
        return [obj]
    return [leaf for _, child in items for leaf in output_leaves(child)]


def assert_matches_spec(case: Case, node: Tree, out: Any, seen: dict[int, Any], path: tuple = ()) -> None:
    """The eager output has the tree of ``case.output`` and the recorded dtype/shape/pytype."""
    where = _where(path)
    if isinstance(node, Ref):
        value = case.values[node.index]
        if value.pytype is None:
            assert isinstance(out, torch.Tensor), (
                f"{where}: spec says tensor v{node.index}, eager gave {_describe(out)}"
            )
            recorded = (value.dtype, value.shape)
            actual = (str(out.dtype).removeprefix("torch."), tuple(out.shape))
            assert recorded == actual, (
                f"{where}: v{node.index} = {value.op}{value.operands}: spec records (dtype, shape) {recorded}, "
                f"eager gives {actual}"
            )
        else:
            assert value.dtype is None and value.shape is None, f"{where}: v{node.index} has both pytype and dtype"
            assert type(out).__name__ == value.pytype, (
                f"{where}: v{node.index} = {value.op}: spec records pytype {value.pytype}, eager gives {_describe(out)}"
            )
        # A value returned twice is one object returned twice (aliasing is part of the case).
        if node.index in seen:
            assert out is seen[node.index], f"{where}: v{node.index} is returned twice as two different objects"
        seen[node.index] = out
        return
    if node.kind == "namedtuple":
        assert _is_namedtuple(out) and out._fields == node.keys, (
            f"{where}: expected namedtuple with fields {node.keys}, got {_describe(out)}"
        )
    else:
        assert type(out) is KIND_CLASS[node.kind], f"{where}: expected {node.kind}, got {_describe(out)}"
    items = _children(out)
    assert items is not None and len(items) == len(node.items), (
        f"{where}: expected {len(node.items)} items, got {None if items is None else len(items)}"
    )
    if node.kind in ("dict", "ordered_dict", "model_output", "plain_dict_subclass"):
        assert list(out.keys()) == list(node.keys), f"{where}: expected keys {list(node.keys)}, got {list(out.keys())}"
    for (key, child_out), child_node in zip(items, node.items, strict=True):
        assert_matches_spec(case, child_node, child_out, seen, (*path, key))


def run_eager(case: Case) -> Any:
    model, args, kwargs = materialize(case)
    # As the harness runs a model (harness.calls): with grad on, a batch norm whose running
    # mean is cut from a module's output (which requires grad) raises where no frontend runs.
    with torch.no_grad():
        return model(*args, **kwargs)


def has_nan(out: Any) -> bool:
    return any(
        isinstance(leaf, torch.Tensor) and (leaf.is_floating_point() or leaf.is_complex()) and bool(leaf.isnan().any())
        for leaf in output_leaves(out)
    )


# -- 1. materialize, run, determinism, recorded types -----------------------------------


@settings(FAST, max_examples=150)
@given(cases())
def test_case_runs_eagerly_deterministically_and_as_recorded(case: Case) -> None:
    note(replay_hint(case))
    first = run_eager(case)
    second = run_eager(case)
    # Two materializations build two namedtuple classes of the same name and fields.
    assert_same_output(first, second, strict_types=False)
    # Ranges keep every op from making a NaN (it would hide a wrong value); a NaN comes
    # only where a type says it may be: an ``extreme`` input, moved or compared by an op
    # defined on it, a fully masked attention row under -inf (``strategies.ops.masks``), a
    # NaN made as models make one (``strategies.ops.edges``).
    def typed_nonfinite(t: Any) -> bool:
        return getattr(t, "nonfinite", False) or any(typed_nonfinite(i) for i in getattr(t, "items", ()))

    nan_typed = any(typed_nonfinite(t) for t in program_types(case).values())
    assert not has_nan(first) or nan_typed, "the output contains NaN"
    assert_matches_spec(case, case.output, first, {})


#: Inputs with a 0-size dim, of every real dtype: each unary op offered for one must
#: give a NaN-free result (mean over zero elements is 0/0).
EMPTY_INPUTS = st.tuples(st.sampled_from(ALL_DTYPES), st.sampled_from([(0,), (2, 0), (0, 3), (3, 0, 2)]))


@settings(FAST, max_examples=150)
@given(st.data(), EMPTY_INPUTS)
def test_unary_ops_on_empty_tensors_give_no_nan(data: st.DataObject, dtype_and_shape: tuple) -> None:
    dtype, shape = dtype_and_shape
    types = (domain_type(dtype, shape),)
    offered = [name for name, op in OPS.items() if op.arity == 1 and not op.takes_tuples and op.accepts(*types)]
    name = data.draw(st.sampled_from(offered), label="op")
    attrs = OPS[name].draw_attrs(data.draw, types) if OPS[name].draw_attrs else {}
    value = Value(name, ("x0",), tuple(sorted(attrs.items())), *infer(name, attrs, types))
    case = Case((Input("x0", dtype, shape),), (value,), Ref(0))
    note(replay_hint(case))
    out = run_eager(case)
    assert_matches_spec(case, case.output, out, {})
    assert not has_nan(out), f"{name}{dict(attrs)} of an empty {dtype} tensor of shape {shape} gives NaN: {out}"


# -- 2. the case is data ------------------------------------------------------------------


@settings(FAST, max_examples=200)
@given(cases(include_complex=True))
def test_json_and_repr_round_trip(case: Case) -> None:
    text = case_to_json(case)
    again = case_from_json(text)
    assert again == case
    # `==` takes True for 1 and 1.0 for 1; the JSON and the repr do not.
    assert case_to_json(again) == text
    assert repr(again) == repr(case)
    # The repr pastes back (STYLE: a case is data).
    assert eval(repr(case), vars(strategies)) == case  # noqa: S307 - our own repr


# -- 3. the reproducer is a standalone script ----------------------------------------------

#: Shared by the driver (in a fresh interpreter) and this process: outputs become plain
#: dicts, lists and tensors, which load with ``weights_only=True`` and carry class names.
ENCODER = textwrap.dedent(
    """
    def encode(obj):
        if isinstance(obj, torch.Tensor):
            return {"class": type(obj).__name__, "tensor": obj.detach().clone()}
        if isinstance(obj, dict):
            return {"class": type(obj).__qualname__, "keys": list(obj), "items": [encode(v) for v in obj.values()]}
        if isinstance(obj, tuple) and hasattr(type(obj), "_fields"):
            return {"class": type(obj).__qualname__, "keys": list(obj._fields), "items": [encode(v) for v in obj]}
        if isinstance(obj, (list, tuple)):
            return {"class": type(obj).__qualname__, "items": [encode(v) for v in obj]}
        return {"class": type(obj).__qualname__, "value": obj}
    """
)

DRIVER = (
    "import contextlib, io, sys\nimport torch\n"
    + ENCODER
    + textwrap.dedent(
        """
        for script, result in zip(sys.argv[1::2], sys.argv[2::2]):
            source = open(script).read()
            namespace = {"__name__": "roundtrip_reproducer"}
            exec(compile(source, script, "exec"), namespace)
            model = namespace["make_model"]()
            args, kwargs = namespace["make_inputs"]()
            torch.save(encode(model(*args, **kwargs)), result)
            # The default __main__ block runs too.
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, script, "exec"), {"__name__": "__main__"})
        # Standalone: nothing of Roundtrip was needed.
        assert "strategies" not in sys.modules, "the reproducer imported strategies"
        """
    )
)


def _encoder() -> Callable[[Any], Any]:
    namespace: dict[str, Any] = {"torch": torch}
    exec(ENCODER, namespace)  # noqa: S102 - the encoder above
    return namespace["encode"]


def _collect(strategy: st.SearchStrategy[Case], n: int, **options: Any) -> list[Case]:
    found: list[Case] = []

    @settings(FAST, max_examples=n, **options)
    @given(strategy)
    def collect(case: Case) -> None:
        found.append(case)

    collect()
    return found


@pytest.mark.parametrize("input_trees", [False, True], ids=["tensors", "input-trees"])
def test_to_source_is_a_standalone_script(tmp_path: Path, input_trees: bool) -> None:
    drawn = _collect(cases(input_trees=True), 40) if input_trees else _collect(cases(), 15)
    if input_trees:  # the cases that take their inputs in trees
        drawn = [c for c in drawn if c.params][:15]
        assert len(drawn) >= 5
    argv = []
    for i, case in enumerate(drawn):
        script = tmp_path / f"case_{i}.py"
        script.write_text(to_source(case))
        argv += [str(script), str(tmp_path / f"case_{i}.pt")]
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    # -I: no PYTHONPATH, no user site, no script directory; only torch is importable.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(
        [sys.executable, "-I", str(driver), *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"driver failed:\n{done.stderr[-4000:]}"
    encode = _encoder()
    for i, case in enumerate(drawn):
        expected = encode(run_eager(case))
        actual = torch.load(tmp_path / f"case_{i}.pt", weights_only=True)
        try:
            assert_same_output(expected, actual)
        except AssertionError as exc:
            raise AssertionError(
                f"reproducer case_{i}.py differs from materialize: {exc}\n{replay_hint(case)}"
            ) from None


# -- 4. torch.export ------------------------------------------------------------------------


@settings(FAST, max_examples=100)
@given(cases())
def test_exportable_cases_export_and_others_are_rejected(case: Case) -> None:
    note(replay_hint(case))
    model, args, kwargs = materialize(case)
    has_unregistered = any(c.kind == "plain_dict_subclass" for c in case.containers())
    assert case.exportable is not has_unregistered
    if not case.exportable:
        with pytest.raises(Exception, match="PlainDictSubclass"):
            torch.export.export(model, args, kwargs)
        return
    # Each on a model and inputs of its own: forward may mutate them (buffers, inputs).
    expected = model(*args, **kwargs)
    model, args, kwargs = materialize(case)
    exported = torch.export.export(model, args, kwargs)
    # Two materializations build two namedtuple classes of the same name and fields.
    assert_same_output(expected, exported.module()(*args, **kwargs), strict_types=False)


@settings(FAST, max_examples=15)
@given(cases(exportable=False))
def test_unregistered_dict_subclass_is_rejected_by_export(case: Case) -> None:
    model, args, kwargs = materialize(case)
    assert not case.exportable
    with pytest.raises(Exception, match="PlainDictSubclass"):
        torch.export.export(model, args, kwargs)


# -- 5. coverage ------------------------------------------------------------------------------


def features(case: Case) -> set[str]:
    """What a case exercises, in the words of issue #2's checklist."""
    found = {f"container {c.kind}" for c in case.containers()}
    found |= {f"input {i.dtype}" for i in case.inputs}
    if any(not c.items for c in case.containers()):
        found.add("empty container")
    if any(i.keyword for i in case.inputs):
        found.add("keyword input")
    if any(0 in i.shape for i in case.inputs):
        found.add("0-size dim")
    refs = case.refs()
    if len(set(refs)) < len(refs):
        found.add("same value returned twice")
    for value in case.returned_values():
        if value.dtype is not None:
            found.add(f"returned {value.dtype}")
            if value.shape == ():
                found.add("0-d tensor leaf")
        elif value.op == "none" or value.op.startswith("const_"):
            found.add(f"python {value.pytype} constant")
        if value.op in ("shape", "input", "view", "parameter", "buffer"):
            found.add(f"op {value.op}")
    return found


EXPECTED_FEATURES = {
    *(f"container {kind}" for kind in CONTAINER_KINDS),
    *(f"input {dtype}" for dtype in ALL_DTYPES),
    *(f"returned {dtype}" for dtype in ALL_DTYPES),
    "op shape",
    "0-d tensor leaf",
    "same value returned twice",
    "op input",
    "op view",
    "op parameter",
    "op buffer",
    "empty container",
    "keyword input",
    "0-size dim",
}
CONSTANT_FEATURES = {f"python {kind} constant" for kind in ("NoneType", "int", "float", "bool")}


@functools.cache
def default_draws() -> frozenset[str]:
    """What 2000 derandomized draws of ``cases()`` exercise (the same in every process:
    ``strategies.engine``). 2000, not
    300: a program's values are mostly computed now, and half of an aiming case's values
    apply a computing op (coverage), so a returned int8 or a buffer is rarer; and the
    engine's draws vary with how fast a process draws (its caches warm): 600 missed a
    buffer in one process and not in another, 1200 with no local constants."""
    seen: set[str] = set()
    for case in _collect(cases(), 2000, derandomize=True):
        seen |= features(case)
    return frozenset(seen)




def test_default_cases_cover_every_kind_dtype_and_special_leaf() -> None:
    missing = sorted(EXPECTED_FEATURES - default_draws())
    assert not missing, f"never drawn in 2000 cases: {missing}"


# None ("none") and constants ("special") are op families of their own, drawn more often than most.
# Each constant kind is ~2% of values: derandomised, the 2000 draws meet each today; a
# generator change that loses one fails here (it was an xfail that passed either way).
def test_default_cases_return_every_kind_of_python_constant() -> None:
    missing = sorted(CONSTANT_FEATURES - default_draws())
    assert not missing, f"never drawn in 2000 cases: {missing}"


def test_leaf_cases_return_every_kind_of_python_constant() -> None:
    seen: set[str] = set()
    for case in _collect(cases(op_families=["leaf", "special", "none"]), 150, derandomize=True):
        seen |= features(case)
    missing = sorted(CONSTANT_FEATURES - seen)
    assert not missing, f"never drawn in 150 leaf-only cases: {missing}"


def test_include_complex_draws_complex64() -> None:
    seen: set[str] = set()
    for case in _collect(cases(include_complex=True), 300, derandomize=True):
        seen |= features(case)
    assert {"input complex64", "returned complex64"} <= seen


# -- 6. minimal examples -----------------------------------------------------------------------

SIMPLEST_INPUT = Input("x0", "float32", ())
INPUT_RETURNED = Value("input", ("x0",), (), "float32", (), None)
#: Each target is shrunk from two fixed random seeds: reproducible, and a shrink that
#: works from one lucky starting point only still shows.
SEEDS = (0, 1)


@dataclass(frozen=True)
class ShrinkLimit:
    """A shrink known to stop short of the minimum: from each of ``seeds``, ``test``
    leaves ``left_in`` (one of ``LEFTOVERS``) in the case, because of ``why``."""

    test: str
    seeds: tuple[int, ...]
    left_in: str
    why: str


#: What a shrink may be left holding, each named by what ``_without_known_leftovers``
#: (or the test itself) takes out to show that the rest is minimal.
LEFTOVERS = ("unused input", "leaf beside a container", "comparison for a bool input", "flatten for a (1,) input",
             "value domain", "0-d input beside the large one")

#: Every shrink that stops short today (ci profile, both Hypothesis releases of
#: ``strategies.engine.TESTED_WITH``). Each runs as a strict expected failure that only
#: that leftover, and nothing else, satisfies: a shrink that reaches the minimum, or
#: leaves anything else in, fails. Every other shrink must reach the minimum.
SHRINK_LIMITS: tuple[ShrinkLimit, ...] = (
    ShrinkLimit(
        "test_a_large_case_shrinks_to_the_smallest_large_shape", (0, 1), "0-d input beside the large one",
        "the large input is found after 0-d ones; deleting one takes a chunk of more choices (an input is 10) "
        "than the shrinker deletes at once (8)",
    ),
)


class KnownShrinkLimit(Exception):
    """A shrink stopped short by exactly what its ``SHRINK_LIMITS`` entry declares: the
    one failure that entry's strict xfail accepts. Not an AssertionError, so that any
    other failure of the same test still fails."""


def from_each_seed(test: Callable[..., None]) -> Callable[..., None]:
    """``test(seed, limit)`` from each of ``SEEDS``, where ``limit`` is the
    ``SHRINK_LIMITS`` entry that covers the seed (a strict expected failure) or None."""
    params = []
    for seed in SEEDS:
        limit = next((k for k in SHRINK_LIMITS if k.test == test.__name__ and seed in k.seeds), None)
        marks = () if limit is None else pytest.mark.xfail(
            strict=True, raises=KnownShrinkLimit, reason=f"known shrink limit, left in: {limit.left_in} ({limit.why})")
        params.append(pytest.param(seed, limit, marks=marks, id=str(seed)))
    return pytest.mark.parametrize(("seed", "limit"), params)(test)


def stopped_short(left_in: list[tuple[str, str]], limit: ShrinkLimit | None, case: Case) -> NoReturn:
    """Fails a shrink that the minimum is ``left_in`` (kind, detail) away from: as its
    declared limit where ``limit`` names exactly that kind, else as not minimal."""
    kinds = {kind for kind, _ in left_in}
    if limit is not None and kinds == {limit.left_in}:
        raise KnownShrinkLimit(f"left in: {left_in}: {case!r}")
    declared = f"SHRINK_LIMITS declares only {limit.left_in!r}" if limit else "not in SHRINK_LIMITS"
    raise AssertionError(f"not minimal, left in: {left_in} ({declared}): {case!r}")


def minimal(condition: Callable[[Case], bool], seed: int) -> Case:
    """The shrunk case, pruned as the conformance suite reports it (no unused values).
    Drawn from the ci profile's vocabulary, which moves only with a survey: each family
    added to the full one gives the shrinker other paths, and a search over it may stop
    one value short elsewhere (x0 == 1 standing in for a bool input)."""
    return find(cases(op_families=ci_op_families()), condition, settings=MINIMAL, random=Random(seed)).pruned()


def _without_known_leftovers(case: Case) -> tuple[Case, list[tuple[str, str]]]:
    """``case`` without what the shrinker is known to leave behind, and what that was
    (kind, detail).

    Choice sequences Hypothesis cannot shrink in one step: deleting an input before
    the one in use renames the inputs after it, so the operand index drawn later must
    change too; deleting a container item before the one the target needs must
    lower the item count, drawn first, at the same time; and a comparison or logical op
    of an input with itself (``x0 == x0``) that stands in for a bool input goes only with the
    input's dtype changed in the same step; likewise a flatten of a 0-d input that
    stands in for an input of one element goes only with the input's shape changed.
    Lowering an input's value domain widens the ops its draws may name: the same choices
    then name another program, and the shrink is rejected.
    """
    leftovers: list[tuple[str, str]] = [("value domain", f"{i.name} {i.domain}") for i in case.inputs
                                        if i.domain != "small"]
    case = replace(case, inputs=tuple(replace(i, domain="small") for i in case.inputs))
    case = _self_comparisons_as_bool_inputs(case, leftovers)
    case = _flattened_scalars_as_vectors(case, leftovers)
    used = sorted({o for v in case.values for o in v.operands if o.startswith("x")}, key=lambda n: int(n[1:])) or ["x0"]
    unused = [i for i in case.inputs if i.name not in used]
    if unused:
        leftovers += [("unused input", f"{i.name}: {i.dtype}{list(i.shape)}") for i in unused]
        rename = {old: f"x{new}" for new, old in enumerate(used)}
        inputs = tuple(
            replace(i, name=rename[i.name], keyword=i.keyword and rename[i.name] != "x0")
            for i in case.inputs
            if i.name in rename
        )
        values = tuple(replace(v, operands=tuple(rename.get(o, o) for o in v.operands)) for v in case.values)
        case = replace(case, inputs=inputs, values=values)

    def prune(node: Tree) -> Tree:
        if isinstance(node, Ref) or not any(isinstance(c, Container) for c in node.items):
            return node
        keep = [i for i, c in enumerate(node.items) if isinstance(c, Container)]
        if len(keep) < len(node.items):
            leftovers.append(("leaf beside a container", f"{len(node.items) - len(keep)} in a {node.kind}"))
        keys = tuple(node.keys[i] for i in keep) if node.keys else ()
        return Container(node.kind, tuple(prune(node.items[i]) for i in keep), keys)

    output = prune(case.output)
    if output != case.output:
        case = replace(case, output=output).pruned()
    return case, leftovers


def _self_comparisons_as_bool_inputs(case: Case, leftovers: list[tuple[str, str]]) -> Case:
    """``case`` with each comparison or logical op of an input with itself, the input's
    only reader, replaced by that input made bool."""
    for k, v in enumerate(case.values):
        x = v.operands[0] if v.operands else ""
        readers = [w for w in case.values if x in w.operands]
        if OPS[v.op].family not in ("compare", "logical") or set(v.operands) != {x} or not x.startswith("x") \
                or len(readers) != 1:
            continue
        leftovers.append(("comparison for a bool input", f"{x} {v.op} {x}"))
        return _self_comparisons_as_bool_inputs(_input_for_value(case, k, x, dtype="bool"), leftovers)
    return case


def _flattened_scalars_as_vectors(case: Case, leftovers: list[tuple[str, str]]) -> Case:
    """``case`` with a flatten of a 0-d input, the input's only reader, replaced by that
    input made of shape (1,)."""
    inputs = {i.name: i for i in case.inputs}
    for k, v in enumerate(case.values):
        x = v.operands[0] if v.operands else ""
        readers = [w for w in case.values if x in w.operands]
        if v.op != "view" or dict(v.attrs).get("kind") != "flatten" or x not in inputs or inputs[x].shape != () \
                or len(readers) != 1:
            continue
        leftovers.append(("flatten for a (1,) input", f"{x}.flatten()"))
        return _input_for_value(case, k, x, shape=(1,))
    return case


def _input_for_value(case: Case, k: int, x: str, **changes: Any) -> Case:
    """``case`` without value ``k``, its readers reading input ``x`` (with ``changes``) instead."""
    moved = {f"v{k}": x, **{f"v{j}": f"v{j - 1}" for j in range(k + 1, len(case.values))}}

    def shift(node: Tree) -> Tree:
        if isinstance(node, Ref):
            return Ref(node.index - (node.index > k))
        return Container(node.kind, tuple(shift(c) for c in node.items), node.keys)

    inputs = tuple(replace(i, **changes) if i.name == x else i for i in case.inputs)
    values = tuple(replace(w, operands=tuple(moved.get(o, o) for o in w.operands))
                   for j, w in enumerate(case.values) if j != k)
    return replace(case, inputs=inputs, values=values, output=shift(case.output))


def assert_minimal(case: Case, check: Callable[[Case], None], limit: ShrinkLimit | None) -> None:
    """``check`` passes on the case; or, where ``limit`` declares it, on the case less
    exactly that known leftover (then: ``KnownShrinkLimit``, the expected failure)."""
    try:
        check(case)
        return
    except AssertionError:
        cleaned, leftovers = _without_known_leftovers(case)
        if not leftovers:
            raise
    try:
        check(cleaned)
    except AssertionError as exc:
        raise AssertionError(f"not minimal, even less known leftovers {leftovers}: {case!r}") from exc
    stopped_short(leftovers, limit, case)


def is_case(expected: Case) -> Callable[[Case], None]:
    def check(case: Case) -> None:
        assert case == expected, f"not the minimal case:\n  got      {case!r}\n  expected {expected!r}"

    return check


def test_simplest_case_is_one_float32_scalar_returned_as_is() -> None:
    expected = Case(inputs=(SIMPLEST_INPUT,), values=(INPUT_RETURNED,), output=Ref(0), seed=0)
    is_case(expected)(minimal(lambda c: True, 0))


@from_each_seed
def test_minimal_model_output_is_an_empty_one_at_the_root(seed: int, limit: ShrinkLimit | None) -> None:
    case = minimal(lambda c: any(k.kind == "model_output" for k in c.containers()), seed)
    # No refs, so pruned() leaves no values: the model returns an empty ModelOutput.
    expected = Case(inputs=(SIMPLEST_INPUT,), values=(), output=Container("model_output"), seed=0)
    assert_minimal(case, is_case(expected), limit)


@from_each_seed
def test_minimal_depth_three_is_a_single_chain_of_empty_tuples(seed: int, limit: ShrinkLimit | None) -> None:
    case = minimal(lambda c: c.depth() >= 3, seed)
    chain = Container("tuple", (Container("tuple", (Container("tuple"),)),))
    assert_minimal(case, is_case(Case(inputs=(SIMPLEST_INPUT,), values=(), output=chain, seed=0)), limit)


def one_value_returned_bare(dtype_ok: Callable[[Case, Value], bool]) -> Callable[[Case], None]:
    """One positional input with every side 1, one value returned bare, seed 0."""

    def check(case: Case) -> None:
        message = f"not minimal: {case!r}"
        assert len(case.inputs) == 1 and not case.inputs[0].keyword, message
        assert all(side == 1 for side in case.inputs[0].shape), message
        assert len(case.values) == 1 and case.output == Ref(0) and case.seed == 0, message
        assert dtype_ok(case, case.values[0]), message

    return check


@from_each_seed
def test_minimal_bfloat16_leaf(seed: int, limit: ShrinkLimit | None) -> None:
    case = minimal(lambda c: any(v.dtype == "bfloat16" for v in c.returned_values()), seed)

    # A bfloat16 input returned as is, or a float32 input made bfloat16 by an op: the
    # shrinker cannot trade the second for the first (that raises the input's dtype).
    def dtype_ok(case: Case, value: Value) -> bool:
        made_here = case.inputs[0].dtype == "float32"
        returned_as_is = case.inputs[0] == Input("x0", "bfloat16", ()) and value.op == "input"
        return value.dtype == "bfloat16" and (made_here or returned_as_is)

    assert_minimal(case, one_value_returned_bare(dtype_ok), limit)


# The unsqueeze in x0.unsqueeze(0).argmax(dim=0) goes only with a new input shape in the
# same shrink step: a shrink that stops there is a regression of the shrinker's passes, on
# either Hypothesis release of strategies.engine.TESTED_WITH.
@from_each_seed
def test_minimal_int64_reduction(seed: int, limit: ShrinkLimit | None) -> None:
    case = minimal(
        lambda c: any(v.dtype == "int64" and OPS[v.op].family == "reduce" for v in c.returned_values()), seed
    )

    # float32 only where the reduction makes int64 itself (argmax, argmin); else the first
    # integer dtype (int8, which sum, prod and cumsum promote to int64) or bool.
    def dtype_ok(case: Case, value: Value) -> bool:
        wanted = ("float32",) if value.op in ("argmax", "argmin") else ("int8", "bool")
        return value.dtype == "int64" and OPS[value.op].family == "reduce" and case.inputs[0].dtype in wanted

    assert_minimal(case, one_value_returned_bare(dtype_ok), limit)


def test_shrink_limits_are_the_pinned_ones() -> None:
    """``SHRINK_LIMITS`` changes only on purpose: an entry added accepts a shrink that
    stops short (a regression, unless understood), an entry dropped is a limit gone."""
    pinned = [("test_a_large_case_shrinks_to_the_smallest_large_shape", (0, 1), "0-d input beside the large one")]
    assert [(k.test, k.seeds, k.left_in) for k in SHRINK_LIMITS] == pinned, (
        "SHRINK_LIMITS changed: update it and this pinned list together, deliberately, each entry saying why")
    for limit in SHRINK_LIMITS:
        marks = getattr(globals().get(limit.test), "pytestmark", [])
        assert any(m.name == "parametrize" and "limit" in m.args[0] for m in marks), \
            f"{limit.test} is no @from_each_seed test: its entry would never apply"
        assert set(limit.seeds) <= set(SEEDS) and limit.left_in in LEFTOVERS and limit.why, limit


def test_a_shrink_that_stops_short_fails_unless_declared_exactly() -> None:
    simplest = Case(inputs=(SIMPLEST_INPUT,), values=(INPUT_RETURNED,), output=Ref(0), seed=0)
    # x0 unused beside the x1 returned: the minimum once x0 is taken out.
    unused_first = Case(inputs=(Input("x0", "int8", (2,)), Input("x1", "float32", ())),
                        values=(Value("input", ("x1",), (), "float32", ()),), output=Ref(0), seed=0)
    declared = ShrinkLimit("a test", SEEDS, "unused input", "planted")
    check = is_case(simplest)
    assert_minimal(simplest, check, None)
    with pytest.raises(KnownShrinkLimit):
        assert_minimal(unused_first, check, declared)
    with pytest.raises(AssertionError, match="not in SHRINK_LIMITS"):
        assert_minimal(unused_first, check, None)
    with pytest.raises(AssertionError, match="declares only 'value domain'"):
        assert_minimal(unused_first, check, replace(declared, left_in="value domain"))
    with pytest.raises(AssertionError, match="even less known leftovers"):  # more than the leftover
        assert_minimal(replace(unused_first, seed=1), check, declared)


def _drawn(strategy: st.SearchStrategy, n: int = 80) -> list:
    seen: list = []

    @settings(max_examples=n, derandomize=True, database=None, phases=[Phase.generate], deadline=None)
    @given(strategy)
    def collect(value: Any) -> None:
        seen.append(value)

    collect()
    return seen


def test_direct_choices_make_the_choices_of_hypothesis_strategies() -> None:
    """The generator draws its choices and an op's attributes directly
    (``strategies/ops/base.py``: Choice, Sampled, Boolean, through Hypothesis's
    ``_draw``); they must draw what ``st.integers``, ``st.sampled_from`` and
    ``st.booleans`` draw, or a pinned Hypothesis changed under them."""
    # (A choice over more than 128 integers is not st.integers, which weights the bounds.)
    ours = st.tuples(integers(0, 3), integers(-3, 3), integers(1, 1000), choice("a purpose", 0, 127),
                     sampled(("a", "b", "c")), sampled((7,)), booleans(), choice("unused", 0, 5, unused=True))
    theirs = st.tuples(st.integers(0, 3), st.integers(-3, 3), st.integers(1, 1000), st.integers(0, 127),
                       st.sampled_from(("a", "b", "c")), st.sampled_from((7,)), st.booleans(), st.just(0))
    drawn = _drawn(ours)
    assert drawn == _drawn(theirs)
    assert len({d[:4] for d in drawn}) > 40  # not one case again and again


# -- 7. options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"dtypes": ["float33"]}, "dtypes"),
        ({"dtypes": "float32"}, "dtypes"),
        ({"max_depth": -1}, "max_depth"),
        ({"containers": []}, "containers"),
        ({"containers": ["set"]}, "containers"),
        ({"op_families": ["nope"]}, "op_families"),
        ({"op_families": ["reduce"]}, "op_families"),
        ({"max_leaves": 0}, "max_leaves"),
        ({"max_inputs": 0}, "max_inputs"),
        ({"max_rank": 7}, "max_rank"),
        ({"exportable": "yes"}, "exportable"),
        ({"exportable": False, "containers": ["tuple"]}, "exportable"),
    ],
)
def test_bad_options_raise_invalid_argument_naming_them(options: dict, argument: str) -> None:
    with pytest.raises(InvalidArgument, match=argument) as raised:
        # validate() too, in case a future version checks lazily, as Hypothesis does.
        cases(**options).validate()
    assert f"{argument}={options[argument]!r}" in str(raised.value)


def test_repr_shows_how_the_strategy_was_built() -> None:
    assert repr(cases()) == "cases()"
    assert repr(cases(max_depth=2)) == "cases(max_depth=2)"
    assert repr(cases(dtypes=["int8"], exportable=True)) == "cases(dtypes=['int8'], exportable=True)"


@settings(FAST, max_examples=50)
@given(cases(dtypes=["int8"]))
def test_dtypes_option_limits_the_inputs(case: Case) -> None:
    assert {i.dtype for i in case.inputs} == {"int8"}


@settings(FAST, max_examples=20)
@given(strategies.models(dtypes=[torch.float16, "int64"], max_ops=3))
def test_models_are_built_from_their_case_with_torch_or_named_dtypes(model: strategies.Model) -> None:
    """A user's ``@given`` gets the module and its inputs; the case alone decides them."""
    assert {i.dtype for i in model.case.inputs} <= {"float16", "int64"}
    again = strategies.Model.of(model.case)
    assert repr(again) == repr(model) == f"Model(case={model.case!r})"
    torch.testing.assert_close(model.module(*model.args, **model.kwargs), again.module(*again.args, **again.kwargs),
                               equal_nan=True)


def test_models_take_and_check_the_options_of_cases() -> None:
    assert repr(strategies.models(dtypes=[torch.float16])) == "models(dtypes=[torch.float16])"
    with pytest.raises(InvalidArgument, match=r"dtypes=\['float33'\]"):
        strategies.models(dtypes=["float33"])
    # A complex dtype named outright needs no other flag.
    case = find(cases(dtypes=["complex64"], max_ops=2), lambda c: True)
    assert {i.dtype for i in case.inputs} == {"complex64"}


@settings(FAST, max_examples=50)
@given(cases(containers=["list"]))
def test_containers_option_limits_the_containers(case: Case) -> None:
    assert {c.kind for c in case.containers()} <= {"list"}


@settings(FAST, max_examples=50)
@given(cases(op_families=["leaf", "reduce"]))
def test_op_families_option_limits_the_ops(case: Case) -> None:
    assert {OPS[v.op].family for v in case.values} <= {"leaf", "reduce"}


@settings(FAST, max_examples=50)
@given(cases(exportable=True))
def test_exportable_option_leaves_out_unregistered_subclasses(case: Case) -> None:
    assert case.exportable


# -- 8. sizes ------------------------------------------------------------------------------------


def test_large_size_class_reaches_vector_widths_tails_and_long_reductions() -> None:
    sides: collections.Counter = collections.Counter()
    reduced: list[int] = []

    @settings(FAST, max_examples=300)
    @given(cases(sizes=["large"], op_families=["leaf", "reduce"]))
    def check(case: Case) -> None:
        for i in case.inputs:
            assert math.prod(i.shape) <= MAX_NUMEL, i
            assert all(s == 0 or s in LARGE_SIDES for s in i.shape), i
            sides.update(i.shape)
        types = program_types(case)
        for v in case.values:
            if OPS[v.op].family == "reduce" and v.operands:
                t = types[v.operands[0]]
                attrs = dict(v.attrs)
                reduced.append(t.shape[attrs["dim"]] if attrs.get("dim") is not None and t.rank else t.numel)

    check()
    assert {8, 16, 32, 64, 9, 17, 33, 65, 127} <= set(sides), sorted(sides)
    assert max(reduced) >= 4096 and sum(8 <= n <= 4096 for n in reduced) >= 20, sorted(reduced)


@from_each_seed
def test_a_large_case_shrinks_to_the_smallest_large_shape(seed: int, limit: ShrinkLimit | None) -> None:
    """A failure that needs more than 16 elements shrinks to one input of 17 to 33 of them."""
    case = minimal(lambda c: any(math.prod(i.shape) > 16 for i in c.inputs), seed)
    large = [i for i in case.inputs if math.prod(i.shape) > 16]
    assert len(large) == 1 and 16 < math.prod(large[0].shape) <= 33 and large[0].dtype == "float32", case
    # One input returned as is, whatever else is left in.
    assert [v.op for v in case.values] == ["input"] and case.output == Ref(0), case
    beside = [i for i in case.inputs if i is not large[0]]
    if beside:
        assert all(i.shape == () for i in beside), case
        stopped_short([("0-d input beside the large one", f"{i.name}: {i.dtype}[]") for i in beside], limit, case)
    assert case.values == (Value("input", ("x0",), (), "float32", case.inputs[0].shape),), case


def test_the_session_draws_as_the_suite_does_and_a_test_may_draw_plainly():
    from strategies import engine

    assert engine.drawing_as_the_suite_does()  # suites/plugin.py, around each of Roundtrip's items
    with engine.plain_draws():
        assert not engine.drawing_as_the_suite_does()
        with engine.suite_draws():
            assert engine.drawing_as_the_suite_does()
        assert not engine.drawing_as_the_suite_does()
    assert engine.drawing_as_the_suite_does()
