"""Users' models in the forms of upstream bug threads, each failing for a cause a row of
the known table names: what ``check`` must tell from a new bug.

Each factory returns ``(model, args)`` built from a fixed seed. ``EXPECTED`` says, per
factory, the row each frontend's verdict is to be counted under: the row a person
triaging the thread would file it under (a frontend left out passes, or fails for a
cause not in this list's scope). ``benchmarks/bench_check.py`` runs ``check`` on all of
them and counts the verdicts named by their row; ``tests/test_check.py`` runs a few.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812 - as users write it

__all__ = ["EXPECTED"]


def _g() -> torch.Generator:
    return torch.Generator().manual_seed(0)


def _floats(*shape: int) -> torch.Tensor:
    return torch.randn(*shape, generator=_g())


def _ints(*shape: int, dtype: torch.dtype = torch.int64, high: int = 9) -> torch.Tensor:
    return torch.randint(0, high, shape, generator=_g(), dtype=dtype)


def _with_nan(*shape: int) -> torch.Tensor:
    x = _floats(*shape)
    x[0, 0] = float("nan")
    return x


class Unary(nn.Module):
    """A forward written as one expression of its input, as a thread's snippet is."""

    def __init__(self, fn, name: str) -> None:
        super().__init__()
        self.fn, self.name = fn, name

    def forward(self, x):
        return self.fn(x)

    def extra_repr(self) -> str:
        return self.name


class Binary(Unary):
    def forward(self, x, y):
        return self.fn(x, y)


# -- integer arithmetic and promotion (scalar promotion, integer division) ----------------

def position_ids_halved():
    """``torch.div(positions, 2, rounding_mode="floor")`` on int64 position ids."""
    return Unary(lambda p: torch.div(p, 2, rounding_mode="floor"), "div floor"), (_ints(2, 8, high=512),)


def keep_flags_floor_divided():
    """``torch.div(keep, 1, rounding_mode="floor")`` of a bool mask: eager computes in int64."""
    return Unary(lambda keep: torch.div(keep, 1, rounding_mode="floor"), "bool div floor"), (
        torch.tensor([True, False, True]),)


def token_counts_int8_cumsum():
    """A running count of int8 flags along a row: eager counts in int64."""
    return Unary(lambda f: f.cumsum(-1), "int8 cumsum"), (_ints(3, 40, dtype=torch.int8, high=2),)


def mask_positions_cumsum():
    """Positions from a uint8 attention mask by ``cumsum`` (GPT-2's position ids)."""
    return Unary(lambda m: m.cumsum(-1) * m, "uint8 cumsum"), (_ints(2, 7, dtype=torch.uint8, high=2),)


def int32_ratio_true_divide():
    """A ratio of two int32 counts with ``/``: eager returns float32."""
    return Binary(lambda a, b: a / (b + 1), "int32 / int32"), (_ints(4, 5, dtype=torch.int32),
                                                             _ints(4, 5, dtype=torch.int32))


def int_reciprocal():
    """``torch.reciprocal`` of int64 lengths: eager promotes to float32."""
    return Unary(lambda n: torch.reciprocal(n + 1), "int reciprocal"), (_ints(6),)


def bitwise_with_zero_dim_flag():
    """An int32 tensor ``&`` a 0-d int64 flag: the dimensioned operand's dtype wins."""
    return Binary(lambda x, flag: x & flag, "int32 & 0-d int64"), (_ints(4, 4, dtype=torch.int32, high=64),
                                                                     torch.tensor(5))


def pixels_above_zero_dim_offset():
    """uint8 pixels compared with a 0-d int64 offset that is negative."""
    return Binary(lambda px, t: t <= px, "0-d int64 <= uint8"), (_ints(3, 5, dtype=torch.uint8), torch.tensor(-1))


def ids_below_float_scalar():
    """int32 ids compared with a Python float between two of them."""
    return Unary(lambda ids: ids < 4.5, "int < float"), (torch.arange(10, dtype=torch.int32).reshape(2, 5),)


def uint8_any():
    """``any`` over a uint8 mask: eager keeps uint8."""
    return Unary(lambda m: m.any(-1), "uint8 any"), (_ints(3, 4, dtype=torch.uint8, high=2),)


def uint8_pixels_shifted():
    """uint8 pixels shifted left by a Python int."""
    return Unary(lambda px: px << 2, "uint8 << 2"), (_ints(2, 6, dtype=torch.uint8, high=60),)


def int8_prod():
    """A product of small int8 factors: eager multiplies into int64."""
    return Unary(lambda x: x.prod(-1), "int8 prod"), (_ints(2, 4, dtype=torch.int8, high=3) + 1,)


# -- NaN through max and min -------------------------------------------------------------

def relu_of_nan():
    return nn.Sequential(nn.ReLU()), (_with_nan(3, 4),)


def clamp_of_nan():
    return Unary(lambda x: torch.clamp(x, 0.0, 6.0), "clamp"), (_with_nan(3, 4),)


def maximum_of_nan():
    return Binary(lambda a, b: torch.maximum(a, b), "maximum"), (_with_nan(3, 4), _floats(3, 4))


# -- floats: reductions, rounding, low precision ------------------------------------------

def float_floor_divide():
    """``x // 0.3`` on float32: eager floors the exact quotient."""
    x = torch.tensor([[0.9, 0.6, 1.5, -0.3], [2.1, 0.3, -0.9, 1.2]])
    return Unary(lambda x: x // 0.3, "float // 0.3"), (x,)


def float_remainder():
    """``x % 0.7`` on float32, where the rounded quotient differs from the exact one."""
    x = torch.tensor([[2.1, 1.4, 0.7, -2.1], [3.5, 4.9, -1.4, 0.35]])
    return Unary(lambda x: x % 0.7, "float % 0.7"), (x,)


def variance_per_row():
    """``x.var(dim=-1)``: Bessel's correction, as eager defaults."""
    return Unary(lambda x: x.var(dim=-1), "var"), (_floats(3, 8),)


def half_sum():
    """A float16 row sum: eager returns float16."""
    return Unary(lambda x: x.sum(-1), "float16 sum"), (_floats(3, 8).half(),)


def half_logits_softmax_in_float32():
    """``F.softmax(half_logits, -1, dtype=torch.float32)``, as mixed-precision models do."""
    return Unary(lambda x: F.softmax(x, -1, dtype=torch.float32), "softmax dtype"), (_floats(2, 5).half(),)


def double_features():
    """A float64 regression head: eager keeps float64."""
    torch.manual_seed(0)
    return nn.Linear(4, 2).double(), (_floats(3, 4).double(),)


def half_gram_matrix():
    """``x @ x.T`` in float16 (a similarity matrix): eager keeps float16."""
    return Unary(lambda x: x @ x.transpose(-1, -2), "float16 matmul"), (_floats(3, 4).half(),)


def double_gram_matrix():
    """``x @ x.T`` in float64: eager keeps float64."""
    return Unary(lambda x: x @ x.transpose(-1, -2), "float64 matmul"), (_floats(3, 4).double(),)


def float_any():
    """``any`` of float activations along a dim: eager returns bool."""
    return Unary(lambda x: (x * 0).any(-1), "float any"), (_floats(3, 4),)


def max_pool_with_indices():
    """``max_pool2d(..., return_indices=True)``, as unpooling decoders take it."""
    return Unary(lambda x: F.max_pool2d(x, 2, return_indices=True), "max_pool2d indices"), (_floats(1, 2, 4, 4),)


# -- indexing, shapes, state ---------------------------------------------------------------

def last_token():
    """``hidden[:, -1]``: the last token's state, as a classifier head reads it."""
    return Unary(lambda h: h[:, -1] * 2, "last token"), (_floats(2, 5, 3),)


def empty_prefix_cumsum():
    """A ``cumsum`` over an empty prefix of the sequence (no past tokens yet)."""
    return Unary(lambda x: x[:, :0].cumsum(-1), "cumsum of empty"), (_floats(2, 6),)


class StepCounter(nn.Module):
    """Counts its calls in a buffer, as a running statistic does."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))

    def forward(self, x):
        self.steps += 1
        return x * 2


def step_counter():
    return StepCounter(), (_floats(2, 3),)


def upsample_nearest():
    """Nearest upsampling by 2 of a feature map (FPN's top-down path)."""
    return Unary(lambda x: F.interpolate(x, scale_factor=2, mode="nearest"), "nearest"), (
        torch.tensor([[[[0.0, 0.0, 1.0]]]]),)


TVM = ("tvm-ep", "tvm-fx", "tvm-dynamo")
FX = ("tvm-fx", "tvm-dynamo")

#: factory -> {backend: the row its verdict is counted under}; ``""``: a cause no row
#: names, which must stay a new finding (a row taking it would hide it).
EXPECTED: dict[str, dict[str, str]] = {
    # TVM divides the int64 ids by an int32 constant: its binary operators do not promote.
    "position_ids_halved": dict.fromkeys(TVM, "tvm-binary-op-no-type-promotion"),
    "keep_flags_floor_divided": dict.fromkeys(TVM, "tvm-div-mode-scalar-int32"),
    "token_counts_int8_cumsum": {**dict.fromkeys(TVM, "tvm-int-reduction-not-promoted"),
                                 "openvino": "openvino-int-cumsum-not-promoted"},
    "mask_positions_cumsum": {**dict.fromkeys(TVM, "tvm-int-reduction-not-promoted"),
                              "openvino": "openvino-int-cumsum-not-promoted"},
    "int32_ratio_true_divide": dict.fromkeys(TVM, "tvm-int-true-divide-not-promoted"),
    "int_reciprocal": dict.fromkeys(TVM, "tvm-reciprocal-int-not-promoted"),
    "bitwise_with_zero_dim_flag": dict.fromkeys(TVM, "tvm-bitwise-zero-dim-promotion"),
    "pixels_above_zero_dim_offset": dict.fromkeys(TVM, "tvm-compare-zero-dim-operand-promoted"),
    "ids_below_float_scalar": dict.fromkeys(TVM, "tvm-compare-int-float-scalar-truncated"),
    "uint8_any": {**dict.fromkeys(FX, "tvm-unsupported-op"), "inductor": "inductor-any-uint8-returns-bool",
                  "onnx": "onnx-any-uint8-returns-bool"},
    "float_any": {"tvm-ep": "tvm-any-not-bool", **dict.fromkeys(FX, "tvm-unsupported-op")},
    "uint8_pixels_shifted": {"tvm-ep": "tvm-unsupported-op", "onnx": "onnx-uint8-shift-signed",
                             "openvino": "openvino-unconverted-op"},
    "int8_prod": {"tvm-ep": "tvm-unsupported-op", **dict.fromkeys(FX, "tvm-int-reduction-not-promoted"),
                  "openvino": "openvino-int-prod-not-promoted"},
    "relu_of_nan": {**dict.fromkeys(TVM, "tvm-max-min-nan-lost"), "openvino": "openvino-max-min-nan-lost"},
    "clamp_of_nan": {**dict.fromkeys(TVM, "tvm-max-min-nan-lost"), "openvino": "openvino-max-min-nan-lost"},
    "maximum_of_nan": {"tvm-ep": "tvm-max-min-nan-lost", **dict.fromkeys(FX, "tvm-unsupported-op"),
                       "openvino": "openvino-max-min-nan-lost"},
    # Eager floors the exact quotient (0.9 // 0.3 is 2); these floor the rounded one. Rows
    # name it for Inductor and ONNX (``%``); on TVM, ONNX (``//``) and OpenVINO no row does.
    "float_floor_divide": {"inductor": "inductor-float-floor-divide-rounded-quotient",
                           **dict.fromkeys((*TVM, "onnx", "openvino"), "")},
    "float_remainder": {"onnx": "onnx-float-remainder-rounded-quotient", **dict.fromkeys((*TVM, "openvino"), "")},
    "variance_per_row": dict.fromkeys(FX, "tvm-fx-var-std-no-correction"),
    "half_sum": {"onnx": "onnx-low-precision-output-cast-dropped"},
    "half_logits_softmax_in_float32": dict.fromkeys(FX, "tvm-fx-softmax-dtype-ignored"),
    "half_gram_matrix": dict.fromkeys(TVM, "tvm-low-precision-widened"),
    "double_gram_matrix": dict.fromkeys(TVM, "tvm-float64-narrowed"),
    # nn.Linear in float64: TVM adds a float32 bias to the float64 product (its own row).
    "double_features": {**dict.fromkeys(("tvm-ep", "tvm-dynamo"), "tvm-binary-op-no-type-promotion"),
                        "tvm-fx": "tvm-fx-low-precision-params", "openvino": "openvino-float64-computed-in-float32"},
    "last_token": {"tvm-ep": "tvm-ep-take-negative-index", **dict.fromkeys(FX, "tvm-fx-getitem-negative-int")},
    # A cumsum over an empty dim fails TVM's build with a division by zero: not the row of
    # an integer divided by a float scalar below 1, whose message is the same (the row
    # names the scalar divisions; a user's model is named by its graph's ops).
    "empty_prefix_cumsum": dict.fromkeys(TVM, ""),
    "step_counter": {"tvm-ep": "tvm-ep-mutations-dropped", "onnx": "onnx-mutations-dropped",
                     "openvino": "openvino-mutations-dropped"},
    "upsample_nearest": dict.fromkeys(FX, "tvm-interpolate-values"),
    "max_pool_with_indices": {},
}
