"""Harvest PyTorch's OpInfo database into the generator's table of unary float functions.

    python scripts/harvest_opinfo.py      # writes strategies/ops/opinfo.json

``torch.testing._internal.common_methods_invocations.op_db`` (needs ``expecttest``; 4 s
to import) holds, for each op, its supported dtypes and sample inputs. The generator
reads the table this writes, never the database: a draw costs no import, and a
reproducer stays torch alone. Run it again when torch moves.

An entry becomes drawable as a unary float function when, by rule, all of these hold on
float64 vectors: it is reached by a public name (``torch.<name>``: ``torch.acos``,
``torch.nn.functional.softplus``, ``torch.special.i1``); a sample of it takes one tensor
and literal keywords; its result has the input's shape and dtype; it is elementwise
(permuting, reshaping or slicing the input does the same to the result, and equal
values keep the length), leaves its input as it was, is deterministic (two calls agree, and no overload it calls is
tagged ``nondeterministic_seeded``, as dropouts and ``rrelu`` are)
and continuous (no step: ``discontinuous``). Each keyword set of its samples is kept, the simplest first (a
shrink goes there). Its *interval* is the longest stretch of [-8, 8] where, on a grid
of step 1e-3 (its ends rounded inward to multiples of 1/256), the function is finite, at most 1e4 in magnitude (float16's cap) and
changes by at most 1e3 per unit (no pole, no jump): the generator clamps an operand
into it, so that eager defines every value, and a compiler's valid rounding never
crosses a step. Where the function also writes its operand in place (a Tensor method
``sin_``, or ``inplace=True``) with the same result, the table says how. Every other
entry is listed under ``left_out`` with the rule it failed.
"""

from __future__ import annotations

import inspect
import json
import math
import sys
import warnings
from pathlib import Path
from typing import Any

import torch

OUT = Path(__file__).resolve().parents[1] / "strategies" / "ops" / "opinfo.json"
FLOATS = ("float16", "bfloat16", "float32", "float64")
#: The grid: [-SPAN, SPAN] in steps of STEP; the cap on |f| and on its slope.
SPAN, STEP, CAP, SLOPE = 8.0, 1e-3, 1e4, 1e3


def public(name: str) -> Any:
    """``torch.<name>``, where it is a public callable, else None."""
    target: Any = torch
    for part in name.split("."):
        target = getattr(target, part, None)
        if target is None:
            return None
    return target if callable(target) and not isinstance(target, torch.dtype) else None


def literal(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def elementwise(f: Any, kwargs: dict[str, Any]) -> str:
    """Empty if ``f(x, **kwargs)`` is a deterministic elementwise float function, else why not."""
    x = torch.linspace(-2.5, 2.5, 24, dtype=torch.float64) + 0.013
    try:
        y = f(x, **kwargs)
    except Exception as exc:  # noqa: BLE001 - float64 or this calling form unsupported
        return f"raises on a float64 vector: {type(exc).__name__}"
    if not torch.equal(x, torch.linspace(-2.5, 2.5, 24, dtype=torch.float64) + 0.013):
        return "writes its input"
    if not isinstance(y, torch.Tensor) or y.shape != x.shape or y.dtype != x.dtype:
        return "not shape- and dtype-preserving"
    again = f(x, **kwargs)
    if not torch.equal(torch.nan_to_num(y), torch.nan_to_num(again)):
        return "not deterministic"
    perm = torch.randperm(24, generator=torch.Generator().manual_seed(0))
    try:
        checks = (
            (f(x[perm], **kwargs), y[perm]),
            (f(x.reshape(4, 6), **kwargs), y.reshape(4, 6)),
            (f(x[:7], **kwargs), y[:7]),
        )
    except Exception:  # noqa: BLE001 - a vector only, or a fixed length
        return "not elementwise"
    for got, want in checks:
        # Close, not equal: a vectorised kernel and its scalar tail round differently.
        if got.shape != want.shape or not torch.allclose(got, want, rtol=1e-10, atol=1e-12, equal_nan=True):
            return "not elementwise"
    ties = x.round()  # equal neighbours: a result whose length follows the values is not elementwise
    try:
        tied = f(ties, **kwargs)
    except Exception:  # noqa: BLE001
        return "not elementwise"
    return "" if tied.shape == ties.shape else "not elementwise"


def seeded(f: Any, kwargs: dict[str, Any]) -> bool:
    """It calls an overload PyTorch tags ``nondeterministic_seeded`` (``rrelu``, dropouts):
    random by nature, whatever the keywords make of it here."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Watch(TorchDispatchMode):
        found = False

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kw: Any = None) -> Any:
            Watch.found |= torch.Tag.nondeterministic_seeded in func.tags
            return func(*args, **(kw or {}))

    with Watch():
        f(torch.linspace(-2.5, 2.5, 24, dtype=torch.float64), **kwargs)
    return Watch.found


def keeps_shape(f: Any, kwargs: dict[str, Any]) -> bool:
    """Unit dims and a 0-d tensor keep their shape too (``squeeze_copy`` and ``atleast_1d``
    change them: drawn, but their types are inferred per shape)."""
    x = torch.tensor([[0.5]], dtype=torch.float64)
    try:
        return all(f(t, **kwargs).shape == t.shape for t in (x, x[0, 0]))
    except Exception:  # noqa: BLE001
        return False


def discontinuous(f: Any, kwargs: dict[str, Any]) -> bool:
    """A step where the function is finite: one grid step moving it 50 times more than
    both neighbours' steps do (a floor, a sign, a shrink's threshold), which a compiler's
    valid rounding of the operand may cross."""
    x = torch.arange(-SPAN, SPAN + STEP / 2, STEP, dtype=torch.float64)
    with torch.no_grad():
        y = f(x, **kwargs)
    d = (y[1:] - y[:-1]).abs()
    finite = torch.isfinite(d)
    around = torch.maximum(torch.cat([d[:1], d[:-1]]), torch.cat([d[1:], d[-1:]]))
    inner = finite & torch.isfinite(around) & (y[1:].abs() <= CAP) & (y[:-1].abs() <= CAP)
    return bool((inner & (d > 1e-6) & (d > 50 * around.clamp(min=1e-12))).any())


def interval(f: Any, kwargs: dict[str, Any]) -> tuple[float, float] | None:
    """The longest stretch of the grid where f is finite, capped and without a steep step."""
    x = torch.arange(-SPAN, SPAN + STEP / 2, STEP, dtype=torch.float64)
    with torch.no_grad():
        y = f(x, **kwargs)
    good = torch.isfinite(y) & (y.abs() <= CAP)
    slope = (y[1:] - y[:-1]).abs() / STEP
    steady = torch.cat([slope <= SLOPE, torch.tensor([True])]) & torch.cat([torch.tensor([True]), slope <= SLOPE])
    ok = (good & steady).tolist()
    best, start = (0, -1, -1), None
    for i, flag in enumerate([*ok, False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            best = max(best, (i - start, start, i - 1))
            start = None
    length, lo, hi = best
    if length < 100:  # under 0.1 wide: nothing to draw from
        return None
    # One step in from each end, rounded inward to a multiple of 1/256: a bound that
    # float16 and float32 hold exactly, so the clamp that draws into the interval is the
    # same constant in a frontend that writes a Python float through float32 (ONNX's
    # scalar bug is drawn by the scalar ops, where it is named, not by every function).
    a, b = float(x[lo + 1]), float(x[hi - 1])
    return math.ceil(a * 256) / 256, math.floor(b * 256) / 256


def inplace_form(f: Any, name: str, dtypes: list[str], kept: list[dict[str, Any]]) -> str:
    """How every kept sample writes its operand in place: "method" (``x.clone().sin_()``,
    the Tensor method named for the function), "inplace" (``F.silu(x.clone(),
    inplace=True)``), or empty where neither gives the out-of-place result bit for bit in
    every dtype. Export keeps such a write in its graph (aten.sin_, aten.silu_): a
    converter of its own."""
    method = getattr(torch.Tensor, name.split(".")[-1] + "_", None)
    try:
        takes_inplace = "inplace" in inspect.signature(f).parameters
    except (TypeError, ValueError):
        takes_inplace = False
    for form, call in (("method", method and (lambda x, k: method(x, **k))),
                       ("inplace", takes_inplace and (lambda x, k: f(x, inplace=True, **k)))):
        if not call:
            continue
        try:
            with torch.no_grad():
                if all(torch.equal(call(x.clone(), k), f(x, **k))
                       for d in dtypes for k in kept
                       for x in [torch.linspace(*interval(f, k), 33, dtype=torch.float64).to(getattr(torch, d))]):
                    return form
        except Exception:  # noqa: BLE001 - not in this form
            continue
    return ""


def main() -> None:
    warnings.filterwarnings("ignore")
    from torch.testing._internal.common_methods_invocations import op_db

    table: dict[str, dict[str, Any]] = {}
    left_out: dict[str, str] = {}
    for info in op_db:
        key = info.name + (f".{info.variant_test_name}" if info.variant_test_name else "")
        f = public(info.name)
        if f is None:
            left_out[key] = "no public torch.<name> callable"
            continue
        if info.variant_test_name:
            left_out[key] = "a variant: its calling form is the test's own"
            continue
        dtypes = [d for d in FLOATS if getattr(torch, d) in info.supported_dtypes("cpu")]
        if "float32" not in dtypes:
            left_out[key] = "no float32 on the CPU"
            continue
        kwargs_sets: list[dict[str, Any]] = []
        try:
            samples = list(info.sample_inputs("cpu", torch.float32))
        except Exception as exc:  # noqa: BLE001
            left_out[key] = f"samples raise: {type(exc).__name__}"
            continue
        for s in samples:
            if isinstance(s.input, torch.Tensor) and not s.args and all(literal(v) for v in s.kwargs.values()):
                if dict(s.kwargs) not in kwargs_sets:
                    kwargs_sets.append(dict(s.kwargs))
        if not kwargs_sets:
            left_out[key] = "no sample of one tensor and literal keywords"
            continue
        kwargs_sets.sort(key=lambda k: (len(k), json.dumps(k, sort_keys=True)))
        why = elementwise(f, kwargs_sets[0]) or ("random: calls a nondeterministic_seeded overload"
                                                 if any(seeded(f, k) for k in kwargs_sets) else "")
        if why:
            left_out[key] = why
            continue
        kept = [k for k in kwargs_sets if not elementwise(f, k) and interval(f, k) and not discontinuous(f, k)]
        if not kept:
            left_out[key] = ("discontinuous: a step a valid rounding may cross" if discontinuous(f, kwargs_sets[0])
                             else "no stretch of [-8, 8] where it is finite and steady")
            continue
        table[info.name] = {"call": f"torch.{info.name}", "dtypes": dtypes, "keeps_shape": keeps_shape(f, kept[0]),
                            # A view's in-place form (squeeze_) rewrites metadata, not values.
                            "inplace": inplace_form(f, info.name, dtypes, kept) if keeps_shape(f, kept[0]) else "",
                            "samples": [{"kwargs": k, "interval": interval(f, k)} for k in kept]}
    OUT.write_text(json.dumps({"torch": torch.__version__, "ops": table, "left_out": dict(sorted(left_out.items()))},
                              indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(table)} unary float functions; {len(left_out)} entries left out", file=sys.stderr)


if __name__ == "__main__":
    main()
