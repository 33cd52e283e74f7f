"""Every op in the registry against eager PyTorch: what ``infer`` records (dtype, shape,
Python type) is what eager returns, every value lies in the range the generator claims
for it, and no value is NaN or infinite unless its type says it may be (an ``extreme``
input's, moved or compared). Each op is drawn inside programs, so it is
checked on the outputs of other ops too, not only on inputs."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
import torch
from hypothesis import HealthCheck, Phase, find, given, note, settings

from strategies import OPS, Case, Container, Ref, cases, materialize
from strategies.ops import PyType, TensorType, TupleType
from strategies.render import program_types

FAST = settings(deadline=None, database=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])

#: Ops an op needs beside it to be drawn at all (``item`` reads what a tuple op returns).
COMPANIONS = {"item": ("topk", "sort", "split", "var_mean", "aminmax")}


def all_values(case: Case) -> Case:
    """The same program returning every value it computes, in order."""
    return Case(case.inputs, case.values, Container("tuple", tuple(Ref(i) for i in range(len(case.values)))), case.seed)


def check_value(name: str, out: Any, claimed: Any) -> None:
    if isinstance(claimed, PyType):
        assert type(out).__name__ == claimed.name, f"{name}: eager gives {type(out).__name__}, infer says {claimed}"
        return
    if isinstance(claimed, TupleType):
        assert type(out).__name__ == claimed.kind and len(out) == len(claimed.items), (
            f"{name}: eager gives {type(out).__name__} of {len(out)}, infer says {claimed}")
        for item, item_type in zip(out, claimed.items):
            check_value(name, item, item_type)
        return
    assert isinstance(out, torch.Tensor), f"{name}: eager gives {type(out).__name__}, infer says a tensor"
    got = (str(out.dtype).removeprefix("torch."), tuple(out.shape))
    assert got == (claimed.dtype, claimed.shape), f"{name}: eager gives {got}, infer says {claimed}"
    if out.numel() == 0 or out.is_complex():
        return
    values = out.detach().double()
    finite = torch.isfinite(values)
    assert claimed.nonfinite or finite.all(), f"{name}: non-finite values {out}, infer says finite"
    if not finite.any():
        return
    values = values[finite]  # an extreme input's inf and NaN may pass, the rest stays in range
    lo, hi = values.min().item(), values.max().item()
    # The claimed range is exact maths; eager's rounding may step past it by the error.
    slack = claimed.err + 1e-6 * max(1.0, abs(claimed.lo), abs(claimed.hi))
    assert claimed.lo - slack <= lo and hi <= claimed.hi + slack, (
        f"{name}: values in [{lo}, {hi}], outside the claimed range [{claimed.lo}, {claimed.hi}] (err {claimed.err})")


def run_program(case: Case, log: Callable[[str], None] = note) -> None:
    whole = all_values(case)
    log(f"case: {whole!r}")
    model, args, kwargs = materialize(whole)
    with torch.no_grad():
        outs = model(*args, **kwargs)
    types = program_types(whole)
    for k, (value, out) in enumerate(zip(whole.values, outs)):
        check_value(f"v{k} = {value.op}{dict(value.attrs)}{value.operands}", out, types[f"v{k}"])


@pytest.mark.parametrize("name", sorted(OPS))
def test_op_agrees_with_eager_inside_programs(name: str) -> None:
    strategy = cases(ops=[name, *COMPANIONS.get(name, ())], max_ops=4, include_complex=OPS[name].complex_ok)
    # One program that surely has the op (some need a bool mask or a float32 input, which
    # 40 random programs can miss), then 40 more, each checked value by value.
    with_op = find(strategy, lambda case: any(v.op == name for v in case.values),
                   settings=settings(FAST, max_examples=2000, phases=[Phase.generate]))
    try:
        run_program(with_op, log=lambda _: None)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\ncase: {all_values(with_op)!r}") from None

    @settings(FAST, max_examples=40)
    @given(strategy)
    def check(case: Case) -> None:
        run_program(case)

    check()


def test_registry_has_the_vocabulary_of_real_models() -> None:
    assert len(OPS) >= 95, len(OPS)


def test_ranges_are_finite_and_ordered() -> None:
    @settings(FAST, max_examples=100)
    @given(cases(max_ops=16))
    def check(case: Case) -> None:
        for name, t in program_types(case).items():
            if isinstance(t, TensorType):
                assert math.isfinite(t.lo) and math.isfinite(t.hi) and t.lo <= t.hi and t.err >= 0, (name, t)

    check()
