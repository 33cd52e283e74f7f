"""Layers of real models: matmuls, modules with weights (linear, convolutions, norms,
embeddings, attention), pooling and resampling.

Weights and buffers are drawn by ``make_model`` within [-3, 3] (a BatchNorm running
variance within [0.5, 3.5]), so every bound here is the operand's magnitude times the
number of terms a result sums times 3. Float ops cast their operand to a drawn dtype;
only dtypes in which the bound stays under the dtype's cap are drawn, and the cast's
rounding is part of the propagated error.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from ..choices import booleans, integers, sampled
from .base import (
    UNIT,
    Op,
    TensorType,
    TupleType,
    Type,
    derive_same,
    dt,
    empty,
    finish,
    fits,
    real,
    result_range,
    rounding,
    wrapped,
)

#: Weights, biases and running means lie within [-W, W] (``make_model``).
W = 3.0
#: LayerNorm, GroupNorm and BatchNorm add this to the variance by default.
EPS = 1e-5
#: The lowest BatchNorm running variance ``make_model`` draws (|u| + 0.5).
MIN_VAR = 0.5

_LOW_PRECISION = ("float32", "float16", "bfloat16", "float64")


def _cast_err(t: TensorType, dtype: str) -> float:
    """The operand's error after ``.to(dtype)``: a cast to another float dtype may round."""
    return t.err + (0.0 if dtype == t.dtype else UNIT[dtype] * t.mag)


def _fits_all(t: TensorType, bound: float) -> list[str]:
    """The dtypes the operand can be cast to with a result bounded by ``bound``."""
    return [d for d in _LOW_PRECISION if fits(d, -t.mag, t.mag) and fits(d, -bound, bound)]


def _draw_dtype(bound: Callable[[TensorType], float]) -> Callable:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        return {"dtype": draw(sampled(_fits_all(types[0], bound(types[0]))))}

    return draw_attrs


def _products(out: Type, mag: float, err: float, k: int) -> tuple[float, float]:
    """(bound, error) of a sum of ``k`` products of two values of magnitude ``mag``, error ``err``."""
    m = k * mag * mag
    return m, k * (2 * mag * err + err * err) + rounding(out, -m, m, k + 1)


def _norm_err(out: Type, dtype: str, err: float, mag: float, n: int, bound: float, eps: float) -> float:
    """Error of ``w * (x - mean) / sqrt(var + eps) + b`` over groups of ``n`` elements.

    In the max norm the normalization has Lipschitz constant (2 + sqrt(n)) / sqrt(eps);
    the mean and variance are rounded as if the input erred by n units."""
    lipschitz = (2 + math.sqrt(n)) / math.sqrt(eps)
    return W * lipschitz * (err + n * UNIT[dtype] * mag) + rounding(out, -bound, bound, 4)


# -- matmul ------------------------------------------------------------------------------


def _matmul_bound(t: TensorType) -> float:
    return t.shape[-1] * t.mag * t.mag


def _derive_matmul(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    m, err = _products(out, t.mag, _cast_err(t, attrs["dtype"]), t.shape[-1])
    return finish(out, -m, m, err)


# -- linear, conv ------------------------------------------------------------------------


def _affine_bound(terms: int, mag: float, bias: bool = True) -> float:
    """|sum of ``terms`` weights times values of magnitude ``mag``, plus a bias|."""
    return terms * W * mag + (W if bias else 0.0)


def _derive_affine(terms: Callable[[TensorType, dict], int]) -> Callable:
    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        t = types[0]
        n = terms(t, attrs)
        m = _affine_bound(n, t.mag, attrs.get("bias", True))
        return finish(out, -m, m, n * W * _cast_err(t, attrs["dtype"]) + rounding(out, -m, m, n + 1))

    return derive


def _draw_linear(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    dtype = draw(sampled(_fits_all(t, _affine_bound(t.shape[-1], t.mag))))
    return {"dtype": dtype, "out": draw(integers(1, 3)), "bias": draw(booleans())}


def _conv_ok(t: TensorType) -> bool:
    return t.is_float and t.rank in (3, 4) and min(t.shape) > 0


def _conv_terms(t: TensorType, kernel: int) -> int:
    return t.shape[1] * kernel ** (t.rank - 2)


def _draw_conv(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    spatial = min(t.shape[2:])
    # The largest kernel bounds every draw: the dtype is drawn for it.
    dtype = draw(sampled(_fits_all(t, _affine_bound(_conv_terms(t, spatial), t.mag))))
    return {"dtype": dtype, "out": draw(integers(1, 2)), "kernel": draw(integers(1, spatial))}


def _draw_conv_strided(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    channels = t.shape[1]
    padding = draw(integers(0, 1))
    spatial = min(t.shape[2:]) + 2 * padding
    dtype = draw(sampled(_fits_all(t, _affine_bound(_conv_terms(t, spatial), t.mag))))
    groups = draw(sampled([g for g in range(1, channels + 1) if channels % g == 0]))
    return {"dtype": dtype, "out": groups * draw(integers(1, 2)), "kernel": draw(integers(1, spatial)),
            "stride": draw(integers(1, 2)), "padding": padding, "groups": groups}


def _conv_strided_terms(t: TensorType, a: dict) -> int:
    # Each output sums over its group's channels only; padding adds zeros.
    return t.shape[1] // a["groups"] * a["kernel"] ** (t.rank - 2)


def _draw_conv_transpose(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    dtype = draw(sampled(_fits_all(t, _affine_bound(_conv_terms(t, 3), t.mag))))
    return {"dtype": dtype, "out": draw(integers(1, 2)), "kernel": draw(integers(1, 3)),
            "stride": draw(integers(1, 2))}


def _conv_transpose_terms(t: TensorType, a: dict) -> int:
    # An output position gathers at most ceil(kernel / stride) inputs per spatial dim.
    return t.shape[1] * math.ceil(a["kernel"] / a["stride"]) ** (t.rank - 2)


def _conv_render(o: tuple[str, ...], a: dict, s: str) -> str:
    return f"{s}({o[0]}.to({dt(a['dtype'])}))"


# -- norms -------------------------------------------------------------------------------


def _normalized_bound(n: int) -> float:
    """|w * (x - mean) / sqrt(var + eps) + b|: a deviation is at most sqrt(n - 1) deviations."""
    return W * math.sqrt(max(n - 1, 0)) + W


def _norm_bound(t: TensorType, n: int) -> float:
    """What a norm computes on the way: the result, and the sum of squared deviations."""
    squares = (2 * t.mag) ** 2 * n if t.mag < 1e150 else math.inf  # a Python float's ** raises past 1e308
    return max(_normalized_bound(n), squares)


def _norm_ok(t: TensorType, n: int) -> bool:
    return t.is_float and bool(_fits_all(t, _norm_bound(t, n)))


def _derive_layer_norm(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    n = t.shape[-1]
    m = _normalized_bound(n)
    return finish(out, -m, m, _norm_err(out, attrs["dtype"], _cast_err(t, attrs["dtype"]), t.mag, n, m, EPS))


def _group_counts(t: TensorType) -> list[int]:
    """Group counts that divide the channels and that F.group_norm takes: it rejects
    (in eval too) a split where batch x group size x spatial size is one value."""
    channels, spatial = t.shape[1], math.prod(t.shape[2:])
    return [g for g in range(1, channels + 1) if channels % g == 0 and t.shape[0] * channels // g * spatial != 1]


def _group_size(t: TensorType, groups: int) -> int:
    return t.shape[1] // groups * math.prod(t.shape[2:])


def _fitting_group_counts(t: TensorType) -> list[int]:
    """The group counts with a dtype that holds the norm of a group (of a 0-batch
    tensor too, whose groups are not empty)."""
    return [g for g in _group_counts(t) if _fits_all(t, _norm_bound(t, _group_size(t, g)))]


def _group_norm_ok(t: TensorType) -> bool:
    return t.rank >= 2 and t.shape[1] > 0 and t.is_float and bool(_fitting_group_counts(t))


def _draw_group_norm(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    groups = draw(sampled(_fitting_group_counts(t)))
    return {"dtype": draw(sampled(_fits_all(t, _norm_bound(t, _group_size(t, groups))))), "groups": groups}


def _derive_group_norm(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    # A group of zero elements leaves an empty result: nothing is divided by zero.
    n = max(t.shape[1] // attrs["groups"] * math.prod(t.shape[2:]), 1)
    m = _normalized_bound(n)
    return finish(out, -m, m, _norm_err(out, attrs["dtype"], _cast_err(t, attrs["dtype"]), t.mag, n, m, EPS))


def _batch_norm_bound(t: TensorType) -> float:
    # Eval mode: (x - running_mean) / sqrt(running_var + eps) * w + b, running_var >= 0.5.
    return (t.mag + W) / math.sqrt(MIN_VAR) * W + W


def _batch_norm_ok(t: TensorType) -> bool:
    return t.is_float and t.rank in (2, 3, 4) and t.shape[1] > 0 and bool(_fits_all(t, _batch_norm_bound(t)))


def _derive_batch_norm(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    m = _batch_norm_bound(t)
    err = W / math.sqrt(MIN_VAR) * _cast_err(t, attrs["dtype"]) + rounding(out, -m, m, 6)
    return finish(out, -m, m, err)


# -- embedding ---------------------------------------------------------------------------


def _draw_embedding(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(sampled(_LOW_PRECISION)), "num": draw(integers(1, 4)),
            "dim": draw(integers(1, 3))}


def _render_embedding(o: tuple[str, ...], a: dict, s: str) -> str:
    t = a["_types"][0]
    if t.dtype in ("int32", "int64") and t.lo >= 0 and t.hi < a["num"]:
        return f"{s}({o[0]})"
    # Embedding takes int32/int64 indices only; `%` on tensors takes the divisor's sign,
    # so every index lands in [0, num).
    return f"{s}({o[0]}.long() % {a['num']})"


def _derive_weights(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    return finish(out, -W, W, 0.0)


# -- pooling and resampling --------------------------------------------------------------


def _spatial_ok(t: TensorType) -> bool:
    return t.is_float and t.rank in (3, 4) and min(t.shape) > 0


def _draw_pool(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    kernel = draw(integers(1, min(t.shape[2:])))
    return {"kernel": kernel, "stride": draw(integers(1, kernel))}


def _render_pool(kind: str) -> Callable:
    def render(o: tuple[str, ...], a: dict, s: str) -> str:
        d = a["_types"][0].rank - 2
        return f"torch.nn.functional.{kind}_pool{d}d({o[0]}, {a['kernel']}, stride={a['stride']})"

    return render


def _derive_mean_of(ulps: Callable[[TensorType, dict], float]) -> Callable:
    """A convex combination of operand values: within its range, plus the rounding of the sum."""

    def derive(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
        t = types[0]
        return finish(out, t.lo, t.hi, t.err + rounding(out, t.lo, t.hi, ulps(t, attrs)))

    return derive


def _interpolate_ok(t: TensorType) -> bool:
    return t.is_float and t.rank in (3, 4, 5) and min(t.shape) > 0


def _draw_interpolate(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    modes = ["nearest", "bilinear"] if types[0].rank == 4 else ["nearest"]
    return {"mode": draw(sampled(modes))}


def _derive_interpolate(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    if attrs["mode"] == "nearest":
        return derive_same(types, attrs, out)
    return _derive_mean_of(lambda t, a: 8)(types, attrs, out)


# -- attention ---------------------------------------------------------------------------


def _attention_err(out: Type, dtype: str, q: TensorType, v: TensorType, e: int, s: int, eq: float, ev: float) -> float:
    """Error of softmax(q k^T / sqrt(e)) v for keys of ``s`` rows, q and k of error ``eq``.

    The logits err by (2 e |q| eq + rounding) / sqrt(e); softmax moves the weights by at
    most twice that in the 1-norm, and the weighted values by |v| times as much."""
    u = UNIT[dtype]
    logits = (2 * e * q.mag * eq + e * q.mag * q.mag * u * (e + 2)) / math.sqrt(max(e, 1))
    weights = 2 * logits + u * (s + 2)
    return ev + v.mag * weights + rounding(out, -v.mag, v.mag, s + 2)


def _sdpa_ok(t: TensorType) -> bool:
    e = t.shape[-1] if t.rank else 0
    return t.is_float and t.rank >= 2 and fits(t.dtype, -e * t.mag * t.mag, e * t.mag * t.mag)


def _derive_sdpa(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    q, v = types[0], types[-1]
    e, s = v.shape[-1], v.shape[-2]
    return finish(out, v.lo, v.hi, _attention_err(out, v.dtype, q, v, e, s, max(q.err, v.err), v.err))


def _cross_ok(q: TensorType, kv: TensorType) -> bool:
    if not (q.is_float and q.dtype == kv.dtype and q.shape == kv.shape and q.rank >= 2):
        return False
    m = q.shape[-1] * q.mag * kv.mag
    return fits(q.dtype, -m, m)


def _derive_cross(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    q, kv = types
    # The logits' bound uses the larger magnitude for both factors.
    big = q if q.mag >= kv.mag else kv
    e, s = kv.shape[-1], kv.shape[-2]
    return finish(out, kv.lo, kv.hi, _attention_err(out, kv.dtype, big, kv, e, s, max(q.err, kv.err), kv.err))


def _mha_bounds(t: TensorType, heads: int) -> tuple[float, float, float]:
    """(projection bound, logit bound, output bound) of self-attention on ``t``."""
    e = t.shape[-1]
    proj = _affine_bound(e, t.mag)
    head = e // heads
    return proj, math.sqrt(head) * proj * proj, _affine_bound(e, proj)


def _mha_ok(t: TensorType) -> bool:
    return t.is_float and t.rank in (2, 3) and t.shape[-1] > 0 and bool(_mha_dtypes(t, 1))


def _mha_dtypes(t: TensorType, heads: int) -> list[str]:
    _, logits, output = _mha_bounds(t, heads)
    return _fits_all(t, max(logits, output))


def _draw_mha(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    e = t.shape[-1]
    heads = draw(sampled([h for h in range(1, e + 1) if e % h == 0]))
    # One head has the largest logits: its dtypes fit every head count.
    return {"dtype": draw(sampled(_mha_dtypes(t, 1))), "heads": heads}


def _derive_mha(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t, dtype = types[0], attrs["dtype"]
    assert isinstance(out, TupleType)
    u = UNIT[dtype]
    e, s, head = t.shape[-1], t.shape[-2], t.shape[-1] // attrs["heads"]
    proj, _, bound = _mha_bounds(t, attrs["heads"])
    proj_err = e * W * _cast_err(t, dtype) + u * proj * (e + 1)
    logits = (2 * head * proj * proj_err + head * proj * proj * u * (head + 2)) / math.sqrt(head)
    weights = 2 * logits + u * (s + 2)
    attended = proj_err + proj * weights + u * proj * (s + 2)
    output, probs = out.items
    return replace(out, items=(
        finish(output, -bound, bound, e * W * attended + u * bound * (e + 1)),
        finish(probs, 0.0, 1.0, weights),
    ))


# -- batched matmul, einsum --------------------------------------------------------------


def _bmm_ok(t: TensorType) -> bool:
    return t.is_float and t.rank == 3 and fits(t.dtype, -_matmul_bound(t), _matmul_bound(t))


def _derive_bmm(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    m, err = _products(out, t.mag, t.err, t.shape[-1])
    return finish(out, -m, m, err)


def _baddbmm_ok(a: TensorType, b: TensorType) -> bool:
    if not (b.is_float and b.rank == 3 and a.dtype == b.dtype and a.rank <= 3):
        return False
    target = (b.shape[0], b.shape[1], b.shape[1])
    if not all(x == y or x == 1 for x, y in zip(reversed(a.shape), reversed(target))):
        return False
    m = a.mag + _matmul_bound(b)
    return fits(b.dtype, -m, m)


def _derive_baddbmm(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    a, b = types
    alpha = attrs["alpha"]
    m, err = _products(out, b.mag, b.err, b.shape[-1])
    lo, hi = a.lo - alpha * m, a.hi + alpha * m
    return finish(out, lo, hi, a.err + alpha * err + rounding(out, lo, hi, 2))


_EINSUM = {
    2: (("ij,kj->ik", lambda s: True), ("ij,ij->i", lambda s: True), ("ij,jk->ik", lambda s: s[0] == s[1])),
    3: (("bij,bkj->bik", lambda s: True), ("bij,bjk->bik", lambda s: s[1] == s[2])),
}


def _einsum_ok(t: TensorType) -> bool:
    return t.is_float and t.rank in _EINSUM and fits(t.dtype, -_einsum_bound(t), _einsum_bound(t))


def _einsum_bound(t: TensorType) -> float:
    # Every equation sums at most max(shape) products of two operand values.
    return max(t.shape) * t.mag * t.mag


def _draw_einsum(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    return {"equation": draw(sampled([eq for eq, ok in _EINSUM[t.rank] if ok(t.shape)]))}


def _derive_einsum(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    m, err = _products(out, t.mag, t.err, max(t.shape))
    return finish(out, -m, m, err)


# -- add_buffer --------------------------------------------------------------------------


def _buffer_range(t: TensorType) -> tuple[float, float]:
    """What ``make_model`` fills a buffer of ``t``'s dtype with."""
    if t.is_float:
        return -W, W
    return (0.0, 10.0) if t.dtype == "uint8" else (-5.0, 5.0)


def _add_buffer_ok(t: TensorType) -> bool:
    if not real(t) or t.is_bool:
        return False
    lo, hi = _buffer_range(t)
    return result_range(t.dtype, t.lo + lo, t.hi + hi) is not None  # uint8 wraps


def _derive_add_buffer(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    lo, hi = _buffer_range(t)
    err = t.err + rounding(out, t.lo + lo, t.hi + hi, 1)
    return finish(out, *wrapped(out, t.lo + lo, t.hi + hi), err)


OPS = [
    # Corpus reproducers hold these ops' render text: a change to it changes them too.
    Op("matmul", "matmul", 1, lambda t: t.is_float and t.rank >= 2 and bool(_fits_all(t, _matmul_bound(t))),
       lambda o, a, s: f"torch.matmul({o[0]}.to({dt(a['dtype'])}), {o[0]}.transpose(-1, -2).to({dt(a['dtype'])}))",
       _derive_matmul, _draw_dtype(_matmul_bound)),
    Op("linear", "module", 1,
       lambda t: t.is_float and t.rank >= 1 and t.shape[-1] > 0 and bool(_fits_all(t, _affine_bound(t.shape[-1], t.mag))),
       lambda o, a, s: f"{s}({o[0]}.to({dt(a['dtype'])}))", _derive_affine(lambda t, a: t.shape[-1]), _draw_linear,
       state=lambda t, a: f"torch.nn.Linear({t[0].shape[-1]}, {a['out']}, bias={a['bias']}, dtype={dt(a['dtype'])})"),
    Op("conv", "module", 1, _conv_ok, _conv_render, _derive_affine(lambda t, a: _conv_terms(t, a["kernel"])),
       _draw_conv,
       state=lambda t, a: f"torch.nn.Conv{t[0].rank - 2}d({t[0].shape[1]}, {a['out']}, {a['kernel']}, dtype={dt(a['dtype'])})"),
    Op("layer_norm", "module", 1,
       lambda t: t.rank >= 1 and t.shape[-1] > 0 and _norm_ok(t, t.shape[-1]),
       lambda o, a, s: f"{s}({o[0]}.to({dt(a['dtype'])}))", _derive_layer_norm,
       _draw_dtype(lambda t: _norm_bound(t, t.shape[-1])),
       state=lambda t, a: f"torch.nn.LayerNorm({t[0].shape[-1]}, dtype={dt(a['dtype'])})"),
    Op("add_buffer", "module", 1, _add_buffer_ok, lambda o, a, s: f"{o[0]} + {s}", _derive_add_buffer, None,
       state=lambda t, a: empty(t[0].shape, t[0].dtype), state_is_buffer=True),
    # Modules with weights.
    Op("embedding", "module", 1, lambda t: t.is_int, _render_embedding, _derive_weights, _draw_embedding,
       state=lambda t, a: f"torch.nn.Embedding({a['num']}, {a['dim']}, dtype={dt(a['dtype'])})"),
    Op("batch_norm", "module", 1, _batch_norm_ok, _conv_render, _derive_batch_norm,
       _draw_dtype(_batch_norm_bound),
       # Built in eval mode: meta inference runs it before make_model's .eval(), and a
       # training-mode BatchNorm rejects a single value per channel.
       state=lambda t, a: f"torch.nn.BatchNorm{1 if t[0].rank < 4 else 2}d({t[0].shape[1]}, dtype={dt(a['dtype'])}).eval()"),
    Op("group_norm", "module", 1, _group_norm_ok, _conv_render, _derive_group_norm, _draw_group_norm,
       state=lambda t, a: f"torch.nn.GroupNorm({a['groups']}, {t[0].shape[1]}, dtype={dt(a['dtype'])})"),
    Op("conv_strided", "module", 1, _conv_ok, _conv_render, _derive_affine(_conv_strided_terms), _draw_conv_strided,
       state=lambda t, a: (f"torch.nn.Conv{t[0].rank - 2}d({t[0].shape[1]}, {a['out']}, {a['kernel']}, "
                           f"stride={a['stride']}, padding={a['padding']}, groups={a['groups']}, dtype={dt(a['dtype'])})")),
    Op("conv_transpose", "module", 1, _conv_ok, _conv_render, _derive_affine(_conv_transpose_terms),
       _draw_conv_transpose,
       state=lambda t, a: (f"torch.nn.ConvTranspose{t[0].rank - 2}d({t[0].shape[1]}, {a['out']}, {a['kernel']}, "
                           f"stride={a['stride']}, dtype={dt(a['dtype'])})")),
    # Pooling and resampling: values selected or averaged, so the range is the operand's.
    Op("max_pool", "module", 1, _spatial_ok, _render_pool("max"), derive_same, _draw_pool),
    Op("avg_pool", "module", 1, _spatial_ok, _render_pool("avg"),
       _derive_mean_of(lambda t, a: a["kernel"] ** (t.rank - 2) + 2), _draw_pool),
    Op("interpolate", "module", 1, _interpolate_ok,
       lambda o, a, s: f"torch.nn.functional.interpolate({o[0]}, scale_factor=2, mode={a['mode']!r})",
       _derive_interpolate, _draw_interpolate),
    # Attention: softmax-weighted averages of the values.
    Op("scaled_dot_product_attention", "attention", 1, _sdpa_ok,
       lambda o, a, s: f"torch.nn.functional.scaled_dot_product_attention({o[0]}, {o[0]}, {o[0]}, is_causal={a['causal']})",
       _derive_sdpa, lambda draw, t: {"causal": draw(booleans())}),
    Op("cross_attention", "attention", 2, _cross_ok,
       lambda o, a, s: f"torch.nn.functional.scaled_dot_product_attention({o[0]}, {o[1]}, {o[1]})", _derive_cross),
    Op("multihead_attention", "module", 1, _mha_ok,
       lambda o, a, s: f"{s}({o[0]}.to({dt(a['dtype'])}), {o[0]}.to({dt(a['dtype'])}), {o[0]}.to({dt(a['dtype'])}))",
       _derive_mha, _draw_mha,
       state=lambda t, a: (f"torch.nn.MultiheadAttention({t[0].shape[-1]}, {a['heads']}, batch_first=True, "
                           f"dtype={dt(a['dtype'])})")),
    # Batched matmuls of an operand with itself.
    Op("bmm", "matmul", 1, _bmm_ok, lambda o, a, s: f"torch.bmm({o[0]}, {o[0]}.transpose(1, 2))", _derive_bmm),
    Op("baddbmm", "matmul", 2, _baddbmm_ok,
       lambda o, a, s: f"torch.baddbmm({o[0]}, {o[1]}, {o[1]}.transpose(1, 2), alpha={a['alpha']!r})",
       _derive_baddbmm, lambda draw, t: {"alpha": draw(sampled((1, 0.5)))}),
    Op("einsum", "matmul", 1, _einsum_ok, lambda o, a, s: f"torch.einsum({a['equation']!r}, {o[0]}, {o[0]})",
       _derive_einsum, _draw_einsum),
]

__all__ = ["OPS"]
