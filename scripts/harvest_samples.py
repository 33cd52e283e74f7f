"""Harvest OpInfo's and ModuleInfo's sample calls into the generator's table of sampled ops.

    python scripts/harvest_samples.py     # writes strategies/ops/samples.json (about 3 minutes)

``scripts/harvest_opinfo.py`` keeps the unary elementwise functions, whose range and
error the generator measures itself. This keeps the rest: every OpInfo function and
every ``torch.nn`` module of ModuleInfo whose sample call eager defines on the values a
program feeds it. A sample is kept as its calling form: the float tensors it passes
(shapes only: in a program they are cut from an operand, ``strategies.ops.samples``),
its integer and bool tensors as literals (at most ``LITERAL`` elements: indices, masks),
and its other arguments as literals. By rule, a sample is kept when, on float tensors
drawn from a *domain* (``real``: [-3, 3]; else ``positive``: [0.5, 3]), for random
values, constant values and a repeated pattern (what a small operand cut to a larger
shape gives), all of these hold:

* it runs in float64 and float32, and every float result is finite and at most 1e4;
* float32 agrees with float64 to 1e-4 of the result's scale (well conditioned: no
  near-singular matrix, no cancellation eager itself gets wrong);
* two float32 calls agree bit for bit, no overload it calls is tagged
  ``nondeterministic_seeded``, and its inputs are left as they were;
* nudging the inputs by 1e-7 moves the result by at most 1e-2 (continuous: no step a
  compiler's valid rounding may cross, no index that a tie decides).

One result is kept (``pick`` names it in a tuple): a float one where the operands are
cut from a float operand (indices and masks are left out), a complex one as
``torch.view_as_real`` sees it (``as_real``). Per sample the table records the largest float
result seen (``bound``) and the steepest slope (``slope``), from which the generator
claims a range and an error; the ``fp64_ref`` rule (``harness.oracle``) judges values.
Every entry that keeps no sample is listed under ``left_out`` with the rule it failed.
"""

from __future__ import annotations

import functools
import inspect
import json
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import torch
from torch.utils import _pytree as pytree

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))
from harvest_opinfo import public, seeded  # noqa: E402 - the same rules as the unary harvest

from strategies.ops.samples import DOMAINS  # noqa: E402 - where the generator clamps an operand to

OUT = Path(__file__).resolve().parents[1] / "strategies" / "ops" / "samples.json"
FLOATS = ("float16", "bfloat16", "float32", "float64")
#: The most elements of a float tensor a sample passes, and of a literal integer tensor.
NUMEL, LITERAL = 1024, 24
#: Samples kept per entry (``choose``), and tried.
KEEP, TRY = 3, 24
CAP, AGREE, NUDGE, MOVE = 1e4, 1e-4, 1e-7, 1e-2
#: The walk that finds a step: this many points over a path this long from a random start.
WALK, WALK_LENGTH = 400, 1.2
#: Factorisations: eager's result is one of several valid ones (signs, orders of columns
#: or eigenvectors are the algorithm's choice), so no frontend can be held to it.
FACTORISATIONS = ("qr", "geqrf", "ormqr", "householder_product", "linalg.qr", "linalg.svd", "svd", "linalg.eig",
                  "linalg.eigh", "linalg.lu", "linalg.lu_factor", "lu", "linalg.ldl_factor", "linalg.householder_product")
#: Ops that may hand back memory no value was written to (a resize that grows, ``empty``):
#: eager does not define what it holds.
UNINITIALISED = ("resize_", "resize_as_", "new_empty", "new_empty_strided", "empty_like", "empty", "empty_strided")
#: Float16 and bfloat16 agree with float64 to this many units of their roundoff of the scale.
LOW_ULPS = 64
UNIT = {"float16": 2.0**-11, "bfloat16": 2.0**-8, "float32": 2.0**-24, "float64": 2.0**-53}


class Unsupported(Exception):
    """A sample this table cannot hold: the reason."""


# -- a sample's calling form as data ------------------------------------------------------


def encode(value: Any, floats: list[tuple[int, ...]]) -> Any:
    """JSON for ``value``: a float tensor as {"float": i} (its shape appended to ``floats``),
    an integer or bool tensor as a literal, tuples and dtypes tagged, literals as they are."""
    if isinstance(value, torch.Tensor):
        if value.layout != torch.strided or value.is_complex() or value.is_quantized:
            raise Unsupported("a tensor that is not dense and real")
        if value.is_floating_point():
            if value.dtype != torch.float32:
                raise Unsupported("a float tensor of another dtype")
            if not 1 <= value.numel() <= NUMEL:
                raise Unsupported(f"a float tensor of {value.numel()} elements (kept: 1 to {NUMEL})")
            floats.append(tuple(value.shape))
            return {"float": len(floats) - 1}
        if value.numel() > LITERAL:
            raise Unsupported(f"an integer tensor of over {LITERAL} elements")
        if value.dtype != torch.bool and value.unique().numel() < value.numel():
            # An index met twice: where a write lands twice eager leaves the order unspecified.
            raise Unsupported("an integer tensor with a repeated value")
        return {"literal": value.tolist(), "dtype": str(value.dtype).removeprefix("torch."),
                "shape": list(value.shape)}
    if isinstance(value, torch.dtype):
        return {"dtype_of": str(value).removeprefix("torch.")}
    if isinstance(value, torch.Size):
        return {"tuple": [int(v) for v in value]}
    if isinstance(value, tuple):
        return {"tuple": [encode(v, floats) for v in value]}
    if isinstance(value, list):
        return [encode(v, floats) for v in value]
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        return {"float_literal": str(value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise Unsupported(f"an argument of type {type(value).__name__}")


def decode(enc: Any, floats: list[torch.Tensor]) -> Any:
    if isinstance(enc, list):
        return [decode(v, floats) for v in enc]
    if isinstance(enc, dict):
        if "float" in enc:
            return floats[enc["float"]]
        if "literal" in enc:
            return torch.tensor(enc["literal"], dtype=getattr(torch, enc["dtype"])).reshape(enc["shape"])
        if "dtype_of" in enc:
            return getattr(torch, enc["dtype_of"])
        if "tuple" in enc:
            return tuple(decode(v, floats) for v in enc["tuple"])
        if "float_literal" in enc:
            return float(enc["float_literal"])
    return enc


# -- trials --------------------------------------------------------------------------------


def fills(shapes: list[tuple[int, ...]], domain: str) -> Iterator[list[torch.Tensor]]:
    """float64 operands a program may feed: random; every element at one end or the other
    (where a ratio, a determinant or a product peaks); one operand at each end against
    the others at the other; constant at each end and the middle; nearly constant (a
    nearly singular matrix, a nearly zero variance); and last, a short random pattern
    repeated (a small operand cut to a larger shape)."""
    lo, hi = DOMAINS[domain]
    g = torch.Generator().manual_seed(0)
    for _ in range(4):
        yield [torch.rand(s, generator=g, dtype=torch.float64) * (hi - lo) + lo for s in shapes]
    for _ in range(4):
        yield [torch.where(torch.rand(s, generator=g) < 0.5, lo, hi).double() for s in shapes]
    for first, rest in ((lo, hi), (hi, lo)):
        yield [torch.full(s, first if i == 0 else rest, dtype=torch.float64) for i, s in enumerate(shapes)]
    for c in (lo, hi, (lo + hi) / 2):
        yield [torch.full(s, c, dtype=torch.float64) for s in shapes]
    yield [torch.rand(s, generator=g, dtype=torch.float64) * 1e-3 + (lo + hi) / 2 for s in shapes]
    for length in (1, 2, 2, 3, 4, 4, 3):
        pattern = torch.rand(length, generator=g, dtype=torch.float64) * (hi - lo) + lo
        if length % 2 == 0:  # at the ends, as a clamp leaves a small operand
            pattern = torch.where(pattern < (lo + hi) / 2, lo, hi).double()
        yield [_repeated(pattern, s) for s in shapes]


def _repeated(pattern: torch.Tensor, shape: tuple[int, ...]) -> torch.Tensor:
    n = torch.Size(shape).numel()
    return pattern.repeat(-(-max(1, n) // pattern.numel()))[:n].reshape(shape)


def leaves(out: Any) -> list[tuple[tuple[int, ...], torch.Tensor]]:
    """(index path, tensor) of every tensor in a result; raises on anything else."""
    found = []
    for path, leaf in pytree.tree_flatten_with_path(out)[0]:
        if not isinstance(leaf, torch.Tensor):
            raise Unsupported(f"a result holding a {type(leaf).__name__}")
        found.append((tuple(k.idx for k in path), leaf))
    return found


def pick_of(out: Any, adapted: bool) -> list[int] | None:
    """The path to the one result kept (None: the result is one tensor): a float one
    (complex: seen as real, ``chosen``) where the operands are cut from a float operand;
    any where the call takes none (its result is a constant)."""
    found = leaves(out)
    if len(found) == 1 and not found[0][0] and found[0][1].numel() and (
            not adapted or found[0][1].is_floating_point() or found[0][1].is_complex()):
        return None
    for path, t in found:
        if t.numel() and (not adapted or t.is_floating_point() or t.is_complex()):
            return list(path)
    raise Unsupported("no float result of float operands")


def picked(out: Any, pick: list[int] | None) -> Any:
    """The result ``pick`` names in ``out``."""
    for i in pick or ():
        out = out[i]
    return out


def chosen(out: Any, pick: list[int] | None) -> list[torch.Tensor]:
    """The result kept: a complex one as ``torch.view_as_real`` sees it."""
    out = picked(out, pick)
    return [torch.view_as_real(out) if out.is_complex() else out]


def trial(call: Callable[..., Any], enc: dict[str, Any], pick: list[int] | None, domain: str,
          dtypes: list[str], meta_types: Callable[[torch.dtype], Any] | None) -> tuple[float, float, list[str]]:
    """(bound, slope, dtypes that agree) of a sample over its trials; raises Unsupported.
    A dtype agrees where its results are near float64's, and ``meta_types`` (the result's
    dtypes and shapes on meta tensors, which the generator reads for a large operand)
    says what the CPU does."""
    bound = slope = 0.0
    agreeing = set(dtypes)
    shapes: list[tuple[int, ...]] | None = None
    for operands in fills(enc["shapes"], domain):
        def run(ts: list[torch.Tensor], _operands: list[torch.Tensor] = operands) -> list[torch.Tensor]:
            args, kwargs = decode(enc["args"], ts), decode(enc["kwargs"], ts)
            before = [t.clone() for t in ts]
            with torch.no_grad():
                got = chosen(call(ts[0].dtype if ts else torch.float64, args, kwargs), pick)
            if any(not torch.equal(a, b) for a, b in zip(ts, before)):
                raise Unsupported("writes its input")
            return got
        try:
            want = run(operands)
            single = run([t.float() for t in operands])
            again = run([t.float() for t in operands])
            g = torch.Generator().manual_seed(1)
            nudged = run([t + (torch.rand(t.shape, generator=g, dtype=torch.float64) * 2 - 1) * NUDGE
                          for t in operands])
        except Unsupported:
            raise
        except Exception as exc:  # noqa: BLE001 - a domain, a shape or a dtype it rejects
            raise Unsupported(f"raises on {domain} values: {type(exc).__name__}") from exc
        if shapes is None:
            shapes = [tuple(w.shape) for w in want]
        elif shapes != [tuple(w.shape) for w in want]:
            raise Unsupported("a result whose shape follows the values")
        for w, s, a, n in zip(want, single, again, nudged):
            if w.is_floating_point() != s.is_floating_point() or w.shape != s.shape:
                raise Unsupported("float64 and float32 results differ in kind or shape")
            if not w.is_floating_point():
                if not (torch.equal(w, s) and torch.equal(w, n)):
                    raise Unsupported("an exact result that rounding changes")
                bound = max(bound, float(w.abs().max()) if w.numel() else 0.0)
                continue
            if not (torch.isfinite(w).all() and torch.isfinite(s).all()):
                raise Unsupported(f"not finite on {domain} values")
            if not torch.equal(s, a):
                raise Unsupported("not deterministic")
            scale = max(1.0, float(w.abs().max()))
            if scale > CAP:
                raise Unsupported(f"results past {CAP:g} on {domain} values")
            if float((s.double() - w).abs().max()) > AGREE * scale:
                raise Unsupported("float32 strays from float64: ill-conditioned")
            moved = float((n - w).abs().max())
            if moved > MOVE * scale:
                raise Unsupported("discontinuous: a nudge of the inputs moves it")
            bound, slope = max(bound, scale), max(slope, moved / NUDGE)
        for d in sorted(agreeing):
            try:
                low = run([t.to(getattr(torch, d)) for t in operands])
                if meta_types is not None and meta_types(getattr(torch, d)) != [(v.dtype, v.shape) for v in low]:
                    raise Unsupported("meta tensors say another dtype or shape")
                if d in ("float32", "float64"):
                    continue
                ok = all(torch.isfinite(v).all() and float((v.double() - w).abs().max())
                         <= LOW_ULPS * UNIT[d] * max(1.0, float(w.abs().max()))
                         for v, w in zip(low, want) if v.is_floating_point())
            except Exception:  # noqa: BLE001 - no kernel for it
                ok = False
            if not ok:
                agreeing.discard(d)
    if enc["shapes"]:
        walk(call, enc, pick, domain)
    return bound, slope, sorted(agreeing, key=FLOATS.index)


def walk(call: Callable[..., Any], enc: dict[str, Any], pick: list[int] | None, domain: str) -> None:
    """Raises where a result steps: walking the float operands along straight paths, an
    element of the result moves 50 times more in one step than in both steps beside it
    (a rounding, a threshold, a sign, a count, a tie that picks another value): a step a
    compiler's valid rounding may cross. One walk sweeps every element across the whole
    domain (where thresholds and signs are), one starts at a repeated pattern (where ties are)."""
    lo, hi = DOMAINS[domain]
    g = torch.Generator().manual_seed(3)
    lows = [torch.full(s, lo, dtype=torch.float64) for s in enc["shapes"]]
    # The sweep: every element across the whole domain, each a little after the last.
    lags = [torch.rand(s, generator=g, dtype=torch.float64) * 0.2 * (hi - lo) for s in enc["shapes"]]
    for start, ways, length in ((lows, [torch.full(s, 1.2 * (hi - lo), dtype=torch.float64) for s in enc["shapes"]], 1.0),
                                (list(fills(enc["shapes"], domain))[-1],
                                 [torch.rand(s, generator=g, dtype=torch.float64) * 2 - 1 for s in enc["shapes"]],
                                 WALK_LENGTH)):
        if start is lows:
            start = [low - lag for low, lag in zip(lows, lags)]
        path = []
        for t in torch.linspace(0, length, WALK, dtype=torch.float64):
            ts = [(b + t * w).clamp(lo, hi) for b, w in zip(start, ways)]
            with torch.no_grad():
                got = chosen(call(torch.float64, decode(enc["args"], ts), decode(enc["kwargs"], ts)), pick)
            path.append(torch.cat([v.double().reshape(-1) for v in got]))
        y = torch.stack(path)
        d = (y[1:] - y[:-1]).abs()
        around = torch.maximum(torch.cat([d[1:2], d[:-1]]), torch.cat([d[1:], d[-2:-1]]))
        scale = max(1.0, float(y.abs().max()))
        if bool(((d > 1e-6 * scale) & (d > 50 * around)).any()):
            raise Unsupported("discontinuous: a step along a walk of the inputs")


def _meta_types(call: Callable[..., Any], enc: dict[str, Any], pick: list[int] | None) -> Callable[..., Any]:
    @functools.cache
    def types(dtype: torch.dtype) -> Any:
        try:
            with torch.device("meta"):
                ts = [torch.empty(s, dtype=dtype) for s in enc["shapes"]]
                return [(v.dtype, v.shape) for v in chosen(getattr(call, "meta", call)(dtype, decode(enc["args"], ts),
                                                                decode(enc["kwargs"], ts)), pick)]
        except Exception:  # noqa: BLE001 - no meta kernel: the generator could not read its type
            return None

    return types


def is_seeded(call: Callable[..., Any], enc: dict[str, Any]) -> bool:
    floats = [torch.rand(s, dtype=torch.float64) for s in enc["shapes"]]
    call(torch.float64, decode(enc["args"], floats), decode(enc["kwargs"], floats))  # a module is built unwatched
    return seeded(lambda _x: call(torch.float64, decode(enc["args"], floats), decode(enc["kwargs"], floats)), {})


def keep_samples(key: str, calls: Iterator[tuple[dict[str, Any], Callable[..., Any]]],
                 dtypes: list[str], left_out: dict[str, str]) -> list[dict[str, Any]]:
    """The samples of one entry that pass every rule (at most KEEP, simplest first)."""
    passed: dict[str, dict[str, Any]] = {}
    why: dict[str, int] = {}
    for enc, call in calls:
        if call is None:
            why[enc["unsupported"]] = why.get(enc["unsupported"], 0) + 1
            continue
        if json.dumps(enc, sort_keys=True) in passed:
            continue
        try:
            sample_floats = [torch.rand(s, dtype=torch.float32) + 0.5 for s in enc["shapes"]]
            with torch.no_grad():
                out = call(torch.float32, decode(enc["args"], sample_floats), decode(enc["kwargs"], sample_floats))
            pick = pick_of(out, bool(enc["shapes"]))
            if is_seeded(call, enc):
                raise Unsupported("random: calls a nondeterministic_seeded overload")
            for domain in DOMAINS:
                try:
                    bound, slope, agreeing = trial(call, enc, pick, domain, dtypes,
                                                   _meta_types(call, enc, pick))
                    break
                except Unsupported:
                    if domain == list(DOMAINS)[-1] or not enc["shapes"]:
                        raise
            if "float32" not in agreeing:
                raise Unsupported("float32 does not agree (or meta tensors cannot say its result's type)")
            passed[json.dumps(enc, sort_keys=True)] = {**enc, "pick": pick, "domain": domain, "bound": bound,
                                                       "slope": slope, "dtypes": agreeing,
                                                       "as_real": bool(picked(out, pick).is_complex())}
        except Unsupported as exc:
            why[str(exc)] = why.get(str(exc), 0) + 1
        except Exception as exc:  # noqa: BLE001 - a sample the public callable does not take
            why[f"raises: {type(exc).__name__}"] = why.get(f"raises: {type(exc).__name__}", 0) + 1
    if not passed:
        left_out[key] = max(why, key=why.get) if why else "no sample"
    return choose(list(passed.values()))


def size(sample: dict[str, Any]) -> tuple[int, int]:
    return sum(torch.Size(x).numel() for x in sample["shapes"]), len(json.dumps(sample, sort_keys=True))


def choose(passed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """At most KEEP samples, simplest first (a shrink goes there): the smallest whose
    operands have a dimension (a 0-d sample passes rules a vector fails), then the largest."""
    passed.sort(key=size)
    ranked = [s for s in passed if any(len(x) for x in s["shapes"])] or passed
    if not ranked:
        return []
    return [ranked[0], *ranked[1:][::-1][: KEEP - 1]]


def _cast_call(f: Callable[..., Any]) -> Callable[..., Any]:
    return lambda dtype, args, kwargs: f(*args, **kwargs)


def function_entries(skip: set[str], left_out: dict[str, str]) -> dict[str, dict[str, Any]]:
    from torch.testing._internal.common_methods_invocations import op_db

    table: dict[str, dict[str, Any]] = {}
    for info in op_db:
        key = info.name + (f".{info.variant_test_name}" if info.variant_test_name else "")
        f, call_name = public(info.name), f"torch.{info.name}"
        # A reflected operator (x.__rpow__(y) is y ** x) is Python's to call, not a model's.
        if f is None and "." not in info.name and not info.name.startswith("__r") \
                and callable(getattr(torch.Tensor, info.name, None)):
            # A Tensor method only (x.expand_as(y), x.new_ones(s), x.contiguous()); one
            # that writes (x.zero_()) writes a fresh copy of its tensor.
            f, call_name = _method(info.name), f"Tensor.{info.name}"
        if f is None or info.name in skip or info.name in FACTORISATIONS or info.name in UNINITIALISED:
            left_out[key] = ("no public torch.<name> callable or Tensor method" if f is None
                             else "drawn as a unary float function" if info.name in skip
                             else "uninitialised memory: eager does not define it" if info.name in UNINITIALISED
                             else "a factorisation: eager's is one of several valid results")
            continue
        dtypes = [d for d in FLOATS if getattr(torch, d) in info.supported_dtypes("cpu")]
        if "float32" not in dtypes:
            left_out[key] = "no float32 on the CPU"
            continue

        def calls(info: Any = info, f: Any = f) -> Iterator[tuple[dict[str, Any], Callable[..., Any]]]:
            try:
                samples = info.sample_inputs("cpu", torch.float32)
                for n, s in enumerate(samples):
                    if n == TRY:
                        return
                    shapes: list[tuple[int, ...]] = []
                    try:
                        args = encode([s.input, *s.args], shapes)
                        # A device keyword names the harvest's device: a program runs on its own.
                        kwargs = {k: encode(v, shapes) for k, v in s.kwargs.items() if k != "device"}
                    except Unsupported as exc:
                        yield {"unsupported": str(exc)}, None
                        continue
                    # The public callable must do what the test's own calling form does.
                    with torch.no_grad():
                        if not _same(f(s.input, *s.args, **s.kwargs), info.op(s.input, *s.args, **s.kwargs)):
                            continue
                    yield {"args": args, "kwargs": kwargs, "shapes": shapes}, _cast_call(f)
            except Exception:  # noqa: BLE001, S110 - samples that raise end the entry's samples
                return

        kept = keep_samples(key, calls(), dtypes, left_out)
        if kept:
            for sample in kept:
                form = inplace_form(f, info.name, sample)
                if form:
                    sample["inplace"] = form
            table[key] = {"call": call_name, "kind": "function", "samples": kept}
    return table


def _method(name: str) -> Callable[..., Any]:
    def call(tensor: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(tensor, torch.Tensor):
            raise Unsupported("a method of no tensor")
        return getattr(tensor.clone() if name.endswith("_") else tensor, name)(*args, **kwargs)

    return call


def inplace_form(f: Callable[..., Any], name: str, sample: dict[str, Any]) -> str:
    """How the sample's call writes its first tensor in place, where it can: "method"
    (``x.clone().add_(y)``, the Tensor method named for the function) or "inplace"
    (``F.relu(x.clone(), inplace=True)``); empty where neither gives the same result.
    Export keeps such a write in its graph (aten.add_.Tensor, aten.relu_.default)."""
    if sample["pick"] is not None or sample.get("as_real") or sample["args"][:1] != [{"float": 0}]:
        return ""
    g = torch.Generator().manual_seed(4)
    lo, hi = DOMAINS[sample["domain"]]
    drawn = [torch.rand(s, generator=g, dtype=torch.float64) * (hi - lo) + lo for s in sample["shapes"]]
    method = getattr(torch.Tensor, name.split(".")[-1] + "_", None)
    for form in ("method", "inplace"):
        if (method is None) if form == "method" else ("inplace" not in _parameters(f)):
            continue
        # In every dtype it is drawn in: float_power_ of a float32 tensor refuses its float64 result.
        if all(_writes_alike(f, method, form, sample, [t.to(getattr(torch, d)) for t in drawn])
               for d in sample["dtypes"]):
            return form
    return ""


def _writes_alike(f: Callable[..., Any], method: Any, form: str, sample: dict[str, Any],
                  floats: list[torch.Tensor]) -> bool:
    args, kwargs = decode(sample["args"], floats), decode(sample["kwargs"], floats)
    try:
        with torch.no_grad():
            want = f(*args, **kwargs)
            got = (method(args[0].clone(), *args[1:], **kwargs) if form == "method"
                   else f(args[0].clone(), *args[1:], **{**kwargs, "inplace": True}))
    except Exception:  # noqa: BLE001 - not in this form
        return False
    # A write that resizes its tensor (addbmm_ into a 0-d self) runs on the CPU only: the
    # meta function, which export and the generator's inference use, refuses it.
    return (isinstance(got, torch.Tensor) and got.dtype == want.dtype and got.shape == args[0].shape
            and torch.equal(got, want))


def _parameters(f: Callable[..., Any]) -> tuple[str, ...]:
    try:
        return tuple(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        return ()


def _same(a: Any, b: Any) -> bool:
    try:
        la, lb = pytree.tree_leaves(a), pytree.tree_leaves(b)
        return len(la) == len(lb) and all(
            torch.equal(x, y) if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) else x == y
            for x, y in zip(la, lb))
    except Exception:  # noqa: BLE001
        return False


def module_entries(left_out: dict[str, str]) -> dict[str, dict[str, Any]]:
    from torch.testing._internal.common_modules import module_db

    table: dict[str, dict[str, Any]] = {}
    for info in module_db:
        cls = info.module_cls
        key = f"nn.{cls.__name__}"
        if getattr(torch.nn, cls.__name__, None) is not cls or info.is_lazy:
            left_out[key] = "not a public torch.nn module" if not info.is_lazy else "lazy: shapes read at the first call"
            continue
        dtypes = [d for d in FLOATS if getattr(torch, d) in info.dtypes]
        if "float32" not in dtypes:
            left_out[key] = "no float32 on the CPU"
            continue

        def calls(info: Any = info, cls: Any = cls) -> Iterator[tuple[dict[str, Any], Callable[..., Any]]]:
            try:
                inputs = info.module_inputs_func(info, device="cpu", dtype=torch.float32, requires_grad=False,
                                                 training=False)
            except Exception:  # noqa: BLE001
                return
            for n, mi in enumerate(inputs):
                if n == TRY or mi.forward_input is None:
                    return
                shapes: list[tuple[int, ...]] = []
                try:
                    ctor_args = encode(list(mi.constructor_input.args), [])
                    ctor_kwargs = {k: encode(v, []) for k, v in mi.constructor_input.kwargs.items()}
                    args = encode(list(mi.forward_input.args), shapes)
                    kwargs = {k: encode(v, shapes) for k, v in mi.forward_input.kwargs.items()}
                except Unsupported as exc:
                    yield {"unsupported": str(exc)}, None
                    continue

                built: dict[torch.dtype, torch.nn.Module] = {}

                def call(dtype: torch.dtype, a: list, k: dict, _ca: Any = ctor_args, _ck: Any = ctor_kwargs,
                         _built: dict = built) -> Any:
                    # Built once per dtype: its initialisation draws random weights, the call does not.
                    if dtype not in _built:
                        _built[dtype] = module(cls, decode(_ca, []), decode(_ck, []), dtype)
                    return _built[dtype](*a, **k)

                # On meta tensors (as the generator reads a large operand's type), built there.
                call.meta = lambda dtype, a, k, _ca=ctor_args, _ck=ctor_kwargs: cls(  # type: ignore[attr-defined]
                    *decode(_ca, []), **decode(_ck, [])).to(dtype).eval()(*a, **k)

                yield {"args": args, "kwargs": kwargs, "shapes": shapes, "ctor_args": ctor_args,
                       "ctor_kwargs": ctor_kwargs}, call

        kept = keep_samples(key, calls(), dtypes, left_out)
        if kept:
            table[key] = {"call": f"torch.nn.{cls.__name__}", "kind": "module", "samples": kept}
    return table


def module(cls: type, args: list, kwargs: dict, dtype: torch.dtype) -> torch.nn.Module:
    """The module as a program's ``make_model`` gives it: parameters and buffers drawn in
    [-3, 3] (a running variance in [0.5, 3.5]), in ``dtype``, in eval mode."""
    m = cls(*args, **kwargs).to(dtype)
    g = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for name, t in [*m.named_parameters(), *m.named_buffers()]:
            if t.is_floating_point():
                t.copy_(torch.rand(t.shape, generator=g, dtype=torch.float64) * 6 - 3)
                if name.endswith("running_var"):
                    t.abs_().add_(0.5)
    return m.eval()


def main() -> None:
    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)
    start = time.perf_counter()
    unary = set(json.loads((OUT.parent / "opinfo.json").read_text())["ops"])
    left_out: dict[str, str] = {}
    table = function_entries(unary, left_out) | module_entries(left_out)
    OUT.write_text(json.dumps({"torch": torch.__version__, "ops": table, "left_out": dict(sorted(left_out.items()))},
                              indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(table)} entries, {sum(len(e['samples']) for e in table.values())} samples; "
          f"{len(left_out)} entries left out; {time.perf_counter() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
