"""OpInfo's and ModuleInfo's sample calls as ops: every function, Tensor method and
``torch.nn`` module of PyTorch's own database that eager defines on a program's values.

``samples.json`` is harvested by ``scripts/harvest_samples.py``, which says by what rules
a sample qualifies (it runs, is finite, well conditioned, deterministic and continuous
on the values below, and its result's shape does not follow the values). Per sample it
keeps the calling form: the shapes of the float tensors it passes, its integer tensors
as literals, its other arguments as they are.

In a program, a sample op takes one float operand and cuts every float tensor of the
call from it: flattened, repeated where it is too small, sliced to the tensor's size
(each tensor from its own offset, so two operands differ) and reshaped. An operand
whose values leave the sample's *domain* ([-3, 3], or [0.5, 3] for a sample that needs
positive values) is clamped into it first. A module is built once, as the state of the
program (``make_model`` draws its parameters as every other module's), in the operand's
dtype.

One result is kept (``pick``: a float one; a complex one through ``torch.view_as_real``).
Its range and error are not derived: the harvest's largest result (``bound``) and
steepest slope (``slope``) give a claim with a margin, and a float result is clamped to
the claimed range, which the harvest never saw eager's values reach: the claim holds
on values the harvest did not meet too. The ``fp64_ref`` rule judges the values
(``harness.oracle``).

The entries split into families by where PyTorch keeps them, so that each is drawn as
often as one family of the hand-written vocabulary: ``opinfo_torch`` (``torch.<name>``),
``opinfo_functional`` (``torch.nn.functional``), ``opinfo_module`` (``torch.nn``
modules) and ``opinfo_math`` (``torch.linalg``, ``torch.special``, ``torch.fft``,
``torch.masked``).
"""

from __future__ import annotations

import functools
import inspect
import json
import math
from pathlib import Path
from typing import Any

import torch

from ..choices import sampled
from .base import CAP, UNIT, Op, TensorType, Type, dt, finish, real

TABLE = Path(__file__).with_name("samples.json")
#: Where a sample's float tensors lie (``scripts/harvest_samples.py`` keeps a sample on
#: the first where eager defines it): an operand outside it is clamped into it.
DOMAINS = {"real": (-3.0, 3.0), "positive": (0.5, 3.0)}
#: The claimed range is the harvest's largest result times this, plus one.
MARGIN = 2.0
#: Units of roundoff of the result's scale that its own evaluation may add.
EVALUATION_ULPS = 64


def _load() -> dict[str, dict[str, Any]]:
    return json.loads(TABLE.read_text())["ops"] if TABLE.exists() else {}


def op_name(entry: str) -> str:
    """``nn.functional.max_pool2d`` -> ``sample_max_pool2d``; ``nn.MaxPool2d`` ->
    ``sample_nn_MaxPool2d``; ``linalg.det`` -> ``sample_linalg_det``."""
    return "sample_" + entry.removeprefix("nn.functional.").replace(".", "_").replace("-", "_")


def family(entry: str, kind: str) -> str:
    if kind == "module":
        return "opinfo_module"
    if entry.startswith("nn.functional."):
        return "opinfo_functional"
    if entry.split(".")[0] in ("linalg", "special", "fft", "masked"):
        return "opinfo_math"
    return "opinfo_torch"


def _claimed(sample: dict[str, Any]) -> float:
    return MARGIN * sample["bound"] + 1.0


def _clamped(sample: dict[str, Any], t: TensorType) -> bool:
    lo, hi = DOMAINS[sample["domain"]]
    return not (lo <= t.lo - t.err and t.hi + t.err <= hi)


def _cut(x: str, shape: list[int], offset: int, t: TensorType) -> str:
    """A tensor of ``shape`` cut from the operand ``x``: from element ``offset`` of it
    flattened (repeated where it is too small)."""
    n = math.prod(shape)
    flat, length = f"{x}.reshape(-1)", t.numel
    if length < offset + n:
        copies = -(-(offset + n) // length)
        flat, length = f"{flat}.repeat({copies})", length * copies
    if length != n:
        flat += f"[{offset}:{offset + n}]" if offset else f"[:{n}]"
    return f"{flat}.reshape({tuple(shape)!r})"


def _source(enc: Any, cuts: list[str]) -> str:
    if isinstance(enc, list):
        return "[" + ", ".join(_source(v, cuts) for v in enc) + "]"
    if isinstance(enc, dict):
        if "float" in enc:
            return cuts[enc["float"]]
        if "literal" in enc:
            return f"torch.tensor({enc['literal']!r}, dtype={dt(enc['dtype'])}).reshape({tuple(enc['shape'])!r})"
        if "dtype_of" in enc:
            return dt(enc["dtype_of"])
        if "tuple" in enc:
            items = [_source(v, cuts) for v in enc["tuple"]]
            return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"
        if "float_literal" in enc:
            return f'float("{enc["float_literal"]}")'
    return repr(enc)


#: How a function's arguments are passed (``FORMS``): as the sample writes them; every
#: keyword that can be a position as one (``F.pad(x, (1, 1), "constant", 0.5)``); every
#: position after the first that has a name as a keyword (``F.pad(x, pad=(1, 1))``). A
#: converter that reads an argument by position, or ignores a keyword, gets one of them
#: wrong; model code writes all three.
FORMS = ("as sampled", "keywords as positions", "positions as keywords")


@functools.cache
def _parameters(call: str) -> tuple[tuple[str, bool], ...] | None:
    """(name, may be passed by position) of each parameter of a Python function, in
    order; None for a builtin (no signature to read) or a method."""
    if call.startswith("Tensor."):
        return None
    target: Any = torch
    try:
        for part in call.removeprefix("torch.").split("."):
            target = getattr(target, part)
        parameters = inspect.signature(target).parameters.values()
    except (AttributeError, ValueError, TypeError):
        return None
    return tuple((p.name, p.kind == p.POSITIONAL_OR_KEYWORD) for p in parameters
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))


def _placed(call: str, sample: dict[str, Any], form: int) -> tuple[list[Any], list[tuple[str, Any]]]:
    """The sample's arguments, (positional, keyword), in ``FORMS[form]``."""
    args, kwargs = list(sample["args"]), sorted(sample["kwargs"].items())
    params = _parameters(call)
    if form == 0 or params is None or len(args) > len(params):
        return args, kwargs
    if form == 1:  # the keywords that continue the positions, in the signature's order
        given = dict(kwargs)
        for name, positional in params[len(args):]:
            if not positional or name not in given:
                break
            args.append(given.pop(name))
        return args, sorted(given.items())
    # Positions after the first (the input, as model code keeps it) that have a name.
    named = [i for i in range(1, len(args)) if params[i][1] and all(params[j][1] for j in range(i, len(args)))]
    first = named[0] if named else len(args)
    return args[:first], [*((params[i][0], args[i]) for i in range(first, len(args))), *kwargs]


def forms_of(call: str, sample: dict[str, Any]) -> tuple[int, ...]:
    """The forms (``FORMS`` indices) that write ``sample``'s call differently; 0 always."""
    found, seen = [0], [_placed(call, sample, 0)]
    for form in range(1, len(FORMS)):
        placed = _placed(call, sample, form)
        if placed not in seen:
            found.append(form)
            seen.append(placed)
    return tuple(found)


def _arguments(entry: dict[str, Any], sample: dict[str, Any], x: str, t: TensorType, form: int = 0) -> list[str]:
    """The arguments of the call, positional then keywords (placed as ``FORMS[form]``
    says), every float tensor cut from ``x``. A loss's other tensors (its target, its
    weights) are data, as labels are: detached, or torch.export (which traces with grad
    on) refuses a target computed from a parameter that eager, under no_grad, takes."""
    if sample["shapes"] and _clamped(sample, t):
        lo, hi = DOMAINS[sample["domain"]]
        x = f"{x}.clamp({lo!r}, {hi!r})"
    data = ".detach()" if "loss" in entry["call"].lower() else ""
    cuts = [_cut(x, shape, i, t) + (data if i else "") for i, shape in enumerate(sample["shapes"])]
    args, kwargs = _placed(entry["call"], sample, form)
    return [_source(a, cuts) for a in args] + [f"{k}={_source(v, cuts)}" for k, v in kwargs]


def _call(entry: dict[str, Any], sample: dict[str, Any], x: str, t: TensorType, inplace: bool, form: int = 0) -> str:
    """The call, or its in-place form on a fresh copy of its first tensor (``inplace``)."""
    parts = _arguments(entry, sample, x, t, form)
    if entry["call"].startswith("Tensor."):  # a method: of its first tensor, a fresh copy where it writes
        name = entry["call"].removeprefix("Tensor.") + ("_" if inplace else "")
        first = f"{parts[0]}.clone()" if name.endswith("_") else parts[0]
        return f"{first}.{name}({', '.join(parts[1:])})"
    if not inplace:
        return f"{entry['call']}({', '.join(parts)})"
    if sample["inplace"] == "method":
        return f"{parts[0]}.clone().{entry['call'].split('.')[-1]}_({', '.join(parts[1:])})"
    return f"{entry['call']}({', '.join([f'{parts[0]}.clone()', *parts[1:], 'inplace=True'])})"


def _pick(sample: dict[str, Any]) -> str:
    return "".join(f"[{i}]" for i in sample["pick"] or ())


def _op(entry_name: str, entry: dict[str, Any], inplace: bool = False) -> Op:
    """The entry's op; with ``inplace``, its in-place form (``sample_<name>_``), drawn on
    the samples that have one."""
    samples = [s for s in entry["samples"] if s.get("inplace")] if inplace else entry["samples"]
    module = entry["kind"] == "module"

    def fitting(t: TensorType) -> list[int]:
        return [i for i, s in enumerate(samples) if t.dtype in s["dtypes"] and _claimed(s) <= CAP[t.dtype]]

    def accepts(t: Type) -> bool:
        return (isinstance(t, TensorType) and t.is_float and real(t) and not t.nonfinite and t.numel > 0
                and bool(fitting(t)))

    def render(o: tuple[str, ...], a: dict, s: str) -> str:
        sample = samples[a["sample"]]
        if module:
            out = f"{s}({', '.join(_arguments(entry, sample, o[0], a['_types'][0]))}){_pick(sample)}"
        else:
            out = f"{_call(entry, sample, o[0], a['_types'][0], inplace, a.get('form', 0))}{_pick(sample)}"
        if sample.get("as_real"):
            out = f"torch.view_as_real({out})"
        if sample["shapes"]:  # a float result: held to the claimed range, which eager's values never reach
            bound = _claimed(sample)
            out = f"{out}.clamp({-bound!r}, {bound!r})"
        return out

    def state(types: tuple[TensorType, ...], a: dict) -> str:
        sample, t = samples[a["sample"]], types[0]
        args = [_source(v, []) for v in sample["ctor_args"]]
        args += [f"{k}={_source(v, [])}" for k, v in sorted(sample["ctor_kwargs"].items())]
        built = f"{entry['call']}({', '.join(args)})"
        return built if t.dtype == "float32" else f"{built}.to({dt(t.dtype)})"

    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        sample, t = samples[attrs["sample"]], types[0]
        bound = _claimed(sample)
        carried = 2 * sample["slope"] * t.err  # clamping is continuous: the operand's error carries

        def leaf(o: Type) -> Type:
            if not isinstance(o, TensorType):
                return o
            own = EVALUATION_ULPS * UNIT[o.dtype] * bound if o.is_float else 0.0
            return finish(o, -bound, bound, carried + own)

        return leaf(out)

    # A Python function's arguments are drawn in each form that writes them differently
    # (a method's and an in-place call's keep the sample's: their signatures differ).
    placed = not module and not inplace and _parameters(entry["call"]) is not None

    def draw_attrs(draw: Any, types: tuple[TensorType, ...]) -> dict:
        chosen = draw(sampled(fitting(types[0])))  # the simplest sample first: a shrink goes there
        forms = forms_of(entry["call"], samples[chosen]) if placed else (0,)
        return {"sample": chosen, **({"form": draw(sampled(forms))} if len(forms) > 1 else {})}

    return Op(op_name(entry_name) + ("_" if inplace else ""), family(entry_name, entry["kind"]), 1, accepts, render,
              derive, draw_attrs, state=state if module else None)


_TABLE = sorted(_load().items())
OPS = [_op(name, entry) for name, entry in _TABLE]
OPS += [_op(name, entry, inplace=True) for name, entry in _TABLE if any(s.get("inplace") for s in entry["samples"])]

__all__ = ["FORMS", "OPS", "TABLE", "forms_of", "op_name"]
