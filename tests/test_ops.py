"""Every op in the registry against eager PyTorch: what ``infer`` records (dtype, shape,
Python type) is what eager returns, every value lies in the range the generator claims
for it, and no value is NaN or infinite unless its type says it may be (an ``extreme``
input's, moved or compared). Each op is drawn inside programs, so it is
checked on the outputs of other ops too, not only on inputs."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest
import torch
from hypothesis import HealthCheck, Phase, find, given, note, settings

from strategies import OPS, Case, Container, Ref, cases, materialize
from strategies.ops import COMPANIONS, PyType, TensorType, TupleType
from strategies.ops.base import UNIT, fits
from strategies.render import program_types

FAST = settings(deadline=None, database=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])



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
    # 40 random programs can miss), then 40 more (6 for a sampled op), each checked value by value.
    with_op = find(strategy, lambda case: any(v.op == name for v in case.values),
                   settings=settings(FAST, max_examples=2000, phases=[Phase.generate]))
    try:
        run_program(with_op, log=lambda _: None)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\ncase: {all_values(with_op)!r}") from None

    # A sampled op (``strategies.ops.samples``, some 440 of them) has one calling form per
    # sample and no operand but the one its tensors are cut from: fewer programs show it.
    # An OpInfo function's range is measured on the whole interval its operand is clamped
    # into, not derived per operand: a dozen programs hold it to eager.
    examples = 6 if name.startswith("sample_") else 12 if OPS[name].family.startswith("opinfo") else 40

    @settings(FAST, max_examples=examples)
    @given(strategy)
    def check(case: Case) -> None:
        run_program(case)

    check()


def test_registry_has_the_vocabulary_of_real_models() -> None:
    assert len(OPS) >= 95, len(OPS)


def test_ranges_are_finite_ordered_and_under_the_cap() -> None:
    """Every float value stays under its dtype's ``CAP``: a value past it may be inf in
    eager, where the program's
    ranges say finite (an int64 of 1e12 moved into float16 by ``maximum``, ``where``,
    ``cat`` or a true division once was)."""
    @settings(FAST, max_examples=300)
    @given(cases(max_ops=16))
    def check(case: Case) -> None:
        for name, t in program_types(case).items():
            if isinstance(t, TensorType):
                assert math.isfinite(t.lo) and math.isfinite(t.hi) and t.lo <= t.hi and t.err >= 0, (name, t)
                slack = 1 + 2 * UNIT.get(t.dtype, 0)  # an extreme input is its bound rounded to the dtype
                assert not t.is_float or fits(t.dtype, t.lo / slack, t.hi / slack), (name, t)

    check()


# -- wrap-around, bool operands, scalar rounding modes ------------------------------------

#: Ops whose integer result may wrap modulo 2^n (``strategies.ops.base.result_range``):
#: unsigned arithmetic and integer-to-integer casts.
WRAPPING = ("add", "sub", "mul", "neg", "square", "add_scalar", "sub_scalar", "mul_scalar", "pow_scalar",
            "lshift_scalar", "cast")
_INT_DTYPES = ("uint8", "int8", "int16", "int32", "int64")


def eager_and_exact(case: Case) -> list[tuple[str, torch.Tensor, torch.Tensor, TensorType]]:
    """(name, eager result, exact integer result, claimed type) of each integer value of a
    ``WRAPPING`` op with integer or bool operands. The exact result is the op on the
    operands widened to int64 (a cast's is its operand): exact for every signed result
    (none overflows), and right modulo 2^64, so modulo 2^8, for a uint8 one (an
    ``extreme`` int64 times a uint8 is past int64)."""
    whole = all_values(case)
    model, args, kwargs = materialize(whole)
    feeds = {**dict(zip([i.name for i in whole.inputs if not i.keyword], args)), **kwargs}
    with torch.no_grad():
        outs = model(*(a.clone() for a in args), **{k: v.clone() for k, v in kwargs.items()})
    types = program_types(whole)
    found = []
    for k, (value, out) in enumerate(zip(whole.values, outs)):
        if value.op not in WRAPPING or out.dtype not in tuple(getattr(torch, d) for d in _INT_DTYPES):
            continue
        operands = [outs[int(o[1:])] if o.startswith("v") else feeds[o] for o in value.operands]
        if any(o.is_floating_point() or o.is_complex() for o in operands):
            continue
        names = tuple(f"a{i}" for i in range(len(operands)))
        if value.op == "cast":
            exact = operands[0].long()
        else:
            source = OPS[value.op].render(names, {**dict(value.attrs), "_types": tuple(types[o] for o in value.operands)},
                                          "state")
            exact = eval(source, {"torch": torch, **{n: o.long() for n, o in zip(names, operands)}})  # noqa: S307
        found.append((f"v{k} = {value.op}{dict(value.attrs)}{value.operands}", out, exact, types[f"v{k}"]))
    return found


def _wraps(case: Case, *, cast: bool) -> bool:
    return any(not torch.equal(out.long(), exact) for name, out, exact, _ in eager_and_exact(case)
               if (" = cast" in name) == cast)


@pytest.mark.parametrize("kind", ["arithmetic", "cast"])
def test_wrap_around_is_drawn_and_agrees_with_eager(kind: str) -> None:
    """A drawn program really leans on wrap-around (eager's result is not the exact integer
    one), and eager's result is the exact one modulo 2^n, within the claimed range; only
    uint8 arithmetic wraps (signed overflow is kept out), and casts to any integer."""
    ops = ["cast"] if kind == "cast" else [op for op in WRAPPING if op != "cast"]
    case = find(cases(ops=ops, dtypes=_INT_DTYPES, max_ops=4), lambda c: _wraps(c, cast=kind == "cast"),
                settings=settings(FAST, max_examples=2000, phases=[Phase.generate]))
    run_program(case, log=lambda _: None)
    for name, out, exact, claimed in eager_and_exact(case):
        bits = torch.iinfo(out.dtype).bits
        modular = exact % 2**bits
        if out.dtype != torch.uint8:
            modular = torch.where(modular >= 2 ** (bits - 1), modular - 2**bits, modular)
        assert torch.equal(out.long(), modular), f"{name}: eager {out}, exact {exact} modulo 2^{bits} is {modular}"
        if not torch.equal(out.long(), exact):
            assert out.dtype == torch.uint8 or " = cast" in name, f"{name}: signed {out.dtype} result wraps"
            info = torch.iinfo(out.dtype)
            assert (claimed.lo, claimed.hi) == (info.min, info.max), f"{name} wraps: its range is the type's, {claimed}"


#: Ops eager defines on a bool operand (``torch.abs``, ``neg``, ``relu`` and the roundings raise).
BOOL_OPS = ("sign", "square", "clamp", "pow_scalar", "floordiv_scalar", "mod_scalar", "minimum", "maximum", "amax",
            "amin", "aminmax")


def _has_op_on(case: Case, name: str, dtype: str, attrs: Callable[[dict], bool] = lambda a: True) -> bool:
    types = program_types(case)
    return any(v.op == name and attrs(dict(v.attrs)) and all(types[o].dtype == dtype for o in v.operands)
               for v in case.values)


@pytest.mark.parametrize("name", BOOL_OPS)
def test_bool_operands_agree_with_eager(name: str) -> None:
    case = find(cases(ops=[name], dtypes=["bool", "float32"], max_ops=4), lambda c: _has_op_on(c, name, "bool"),
                settings=settings(FAST, max_examples=2000, phases=[Phase.generate]))
    run_program(case, log=lambda _: None)


@pytest.mark.parametrize("mode", ["trunc", "floor"])
@pytest.mark.parametrize("dtype", ["int64", "int8", "uint8", "float32", "float64", "bool"])
def test_div_by_a_python_scalar_with_a_rounding_mode_agrees_with_eager(dtype: str, mode: str) -> None:
    # A negative quotient where it can be (trunc and floor differ on it), else any.
    def wanted(c: Case) -> bool:
        return _has_op_on(c, "div_mode_scalar", dtype,
                          lambda a: a["mode"] == mode and (dtype in ("uint8", "bool") or a["value"] < 0))

    case = find(cases(ops=["div_mode_scalar"], dtypes=[dtype], max_ops=4), wanted,
                settings=settings(FAST, max_examples=2000, phases=[Phase.generate]))
    run_program(case, log=lambda _: None)


def _form_cases() -> list[tuple[str, int]]:
    from strategies.ops import samples

    return [(name, i) for name, entry in sorted(json.loads(samples.TABLE.read_text())["ops"].items())
            if entry["kind"] == "function" for i, s in enumerate(entry["samples"])
            if len(samples.forms_of(entry["call"], s)) > 1]


def test_every_call_form_of_a_function_computes_what_the_sample_does() -> None:
    """A keyword passed as a position, or a position by keyword, is the same call to eager:
    a difference between forms on a frontend is the frontend's (``samples.FORMS``)."""
    from strategies.ops import samples

    table = json.loads(samples.TABLE.read_text())["ops"]
    checked = 0
    for name, i in _form_cases():
        op_name = samples.op_name(name)
        if op_name not in OPS:
            continue
        entry = table[name]
        sample = entry["samples"][i]
        t = TensorType("float64", (64,), -1.0, 1.0)
        x = torch.linspace(-1, 1, 64, dtype=torch.float64)
        outs = []
        for form in samples.forms_of(entry["call"], sample):
            source = samples._call(entry, sample, "x", t, False, form)
            outs.append(eval(source, {"torch": torch, "x": x, "float": float}))  # noqa: S307 - the suite's own render
        for other in outs[1:]:
            torch.testing.assert_close(other, outs[0], equal_nan=True, msg=lambda m, n=name: f"{n}: {m}")
        checked += 1
    assert checked >= 100, checked
