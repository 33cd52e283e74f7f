"""The oracle names the leaf path and the difference, under each structure contract."""

from __future__ import annotations

import collections

import pytest
import torch

from harness.backends.base import Contract
from harness.difference import Difference
from harness.oracle import closer_than_eager, compare
from harness.signature import Trigger
from harness.verdict import Verdict
from strategies import ModelOutput

T = torch.arange(6, dtype=torch.float32).reshape(2, 3)
NT = collections.namedtuple("NT", ["a", "b"])


def kinds(expected, actual, contract=Contract.EXACT):
    return [(d.where, d.kind) for d in compare(expected, actual, contract=contract)]


def test_identical_trees_have_no_difference():
    tree = {"a": (T, [T.int(), None]), "b": ModelOutput(x=T), "c": NT(T, 3), "d": 2.5}
    # The same tree built apart (no shared object, another layout): a tree compared with
    # itself would pass however compare() treated its leaves.
    rows = [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    apart = {"a": (torch.tensor(rows), [torch.tensor(rows, dtype=torch.int32), None]),
             "b": ModelOutput(x=torch.tensor(rows).t().contiguous().t()),  # column-major
             "c": NT(torch.tensor(rows), 3), "d": 5 / 2}
    assert compare(tree, apart) == []


@pytest.mark.parametrize(
    ("expected", "actual", "found"),
    [
        ((T,), [T], [("", "container_type")]),
        (collections.OrderedDict(a=T), {"a": T}, [("", "container_type")]),
        ({"a": T, "b": T}, {"b": T, "a": T}, [("", "keys")]),
        ({"a": T}, {}, [("", "keys")]),
        ((T, T), (T,), [("", "arity")]),
        ((T, None), (T,), [("", "arity")]),
        (T, (T,), [("", "leaf_type")]),  # a 1-tuple where a bare tensor was returned
        ({"a": [T]}, {"a": [T.double()]}, [("['a'][0]", "dtype")]),
        (NT(T, T), NT(T, T[:1]), [(".b", "shape")]),
        ((3,), (torch.tensor(3),), [("[0]", "leaf_type")]),
        ((True,), (1,), [("[0]", "leaf_type")]),
        ((None,), (T,), [("[0]", "leaf_type")]),
        ((T,), (T + 1e-3,), [("[0]", "values")]),
        ((T.long(),), (T.long() + 1,), [("[0]", "values")]),
    ],
)
def test_differences_name_path_and_kind(expected, actual, found):
    assert kinds(expected, actual) == found


def test_nan_equals_nan_and_tolerance_is_dtype_aware():
    nan = torch.tensor([float("nan"), 1.0])
    assert compare(nan, nan.clone()) == []
    half = torch.tensor([100.0], dtype=torch.float16)
    assert compare(half, half + 0.5) == []  # within float16's tolerance
    assert kinds(half.float(), half.float() + 0.5) == [("", "values")]


def test_nesting_contract_accepts_other_sequence_types_but_not_other_nesting():
    expected = {"a": (T, [T]), "b": T}
    assert compare(expected, ((T, (T,)), T), contract=Contract.NESTING) == []
    assert kinds(expected, (T, (T,), T), contract=Contract.NESTING) == [("", "arity")]
    assert kinds(expected, ((T, T), T), contract=Contract.NESTING) == [("['a'][1]", "container_type")]


def test_message_says_expected_and_actual():
    (difference,) = compare({"logits": T.long()}, {"logits": T.int()})
    assert str(difference) == "['logits']: dtype differs: expected torch.int64, got torch.int32"


def test_a_mismatch_turned_unsupported_keeps_what_differed_in_its_signature():
    # A frontend documented to drop mutations: the lost mutation is "unsupported", and
    # its signature still says what was lost, and where (not "unsupported/: @counter").
    difference = {"path": "state.counter", "kind": "mutation_lost", "expected": "1", "actual": "0", "detail": "",
                  "dtype": "", "special": ""}
    verdict = Verdict("tvm-ep", "mismatch", "judge", differences=[Difference.from_dict(difference)],
                      trigger=Trigger(("counter",)))
    before = verdict.signature()
    verdict.outcome = "unsupported"
    assert verdict.signature() == before.replace("/mismatch/", "/unsupported/")
    assert verdict.signature() == "tvm-ep/judge/unsupported/state mutation_lost @counter"


def test_the_fp64_rule_passes_a_result_nearer_float64_and_catches_one_farther():
    """``closer_than_eager``: torch._dynamo.utils.same's fp64_ref rule, for leaves an op
    with no hand-derived bound computed. A frontend nearer the float64 run than eager is
    valid; one twice as far and more, or with NaN where eager has none, is not."""
    x = torch.linspace(0.05, 7.5, 301, dtype=torch.float64)
    reference = torch.special.i1e(x)
    expected = torch.special.i1e(x.float())
    nearer = reference.float()  # correctly rounded: at most eager's distance
    assert closer_than_eager(expected, nearer, reference)
    assert not closer_than_eager(expected, reference.bfloat16().float(), reference)  # computed in bfloat16
    assert not closer_than_eager(expected, expected * (1 + 1e-5), reference)  # 1e-5 relative: far past 2x eager's
    with_nan = nearer.clone()
    with_nan[3] = float("nan")
    assert not closer_than_eager(expected, with_nan, reference)
    assert not closer_than_eager(expected, nearer, None)  # no float64 run: the tolerance alone judges


class _Layer:
    def __init__(self, keys: torch.Tensor) -> None:
        self.keys, self.config = keys, {"heads": 2}


class _UnregisteredCache:
    """A result class pytree does not know (a DynamicCache before its registration)."""

    def __init__(self, keys: torch.Tensor) -> None:
        self.layers, self.seen = [_Layer(keys)], 3


def test_an_unregistered_result_object_is_compared_by_its_tensors():
    """Two such objects are never equal as opaque values: they are judged by the tensors
    their attributes hold, and a wrong tensor inside is found at its attribute's path."""
    keys = torch.arange(6.0).reshape(2, 3)
    assert compare(_UnregisteredCache(keys), _UnregisteredCache(keys.clone())) == []
    [found] = compare(_UnregisteredCache(keys), _UnregisteredCache(keys + 1))
    assert found.kind == "values" and "layers" in str(found.path) and "keys" in str(found.path)
    # A tensor-free object stays one value (an identity comparison says nothing more).
    assert compare(_Layer(None), _Layer(None))[0].kind == "values"
