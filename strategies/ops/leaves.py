"""Leaves that are returned as they are: inputs, views, state, Python values, tuple items."""

from __future__ import annotations

from collections.abc import Callable

from ..choices import booleans, integers, sampled
from .base import Op, TensorType, TupleType, Type, derive_same, domain_type, draw_dim, empty

_CONSTANTS = {"int": integers(-3, 3), "float": sampled([0.5, -1.25, 2.0, 0.1, 1 / 3]), "bool": booleans()}

_VIEWS = {
    "slice_last": ("x[..., :1]", lambda t: t.rank >= 1),
    "select_first": ("x[0]", lambda t: t.rank >= 1 and t.shape[0] > 0),
    "transpose": ("x.transpose(0, -1)", lambda t: t.rank >= 2),
    "flatten": ("x.reshape(-1)", lambda t: True),
    "unsqueeze": ("x.unsqueeze(0)", lambda t: True),
}


def _draw_view(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    kinds = [k for k, (_, ok) in _VIEWS.items() if ok(types[0])]
    return {"kind": draw(sampled(kinds))}


def _draw_param(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(sampled(("float32", "float16", "bfloat16", "float64"))),
            "shape": draw(sampled(((), (1,), (2,), (2, 3))))}


def _draw_buffer(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dtype": draw(sampled(("float32", "int64", "bool", "float16", "int32"))),
            "shape": draw(sampled(((), (1,), (2,), (2, 3))))}


def _derive_state(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    return domain_type(attrs["dtype"], attrs["shape"])


def _derive_python(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    return out


def _draw_item(draw: Callable, types: tuple[TupleType, ...]) -> dict:
    t = types[0]
    index = draw(integers(0, len(t.items) - 1))
    # A structseq's item is read by field name as often as by position.
    return {"index": index, "by_name": bool(t.fields) and draw(booleans())}


def _render_item(operands: tuple[str, ...], attrs: dict, state: str) -> str:
    t = attrs["_types"][0]
    return f"{operands[0]}.{t.fields[attrs['index']]}" if attrs.get("by_name") else f"{operands[0]}[{attrs['index']}]"


OPS = [
    # Leaves that are not computed: returned as they are.
    Op("input", "leaf", 1, lambda t: True, lambda o, a, s: o[0], derive_same, complex_ok=True, inputs_only=True),
    Op("view", "leaf", 1, lambda t: any(ok(t) for _, ok in _VIEWS.values()),
       lambda o, a, s: _VIEWS[a["kind"]][0].replace("x", o[0]), derive_same, _draw_view, complex_ok=True),
    # Outputs that are not tensors: their own family, so they are drawn often.
    Op("none", "none", 0, lambda: True, lambda o, a, s: "None", _derive_python),
    *[
        Op(f"const_{kind}", "special", 0, lambda: True, lambda o, a, s: repr(a["value"]), _derive_python,
           lambda draw, t, values=values: {"value": draw(values)})
        for kind, values in _CONSTANTS.items()
    ],
    Op("shape", "special", 1, lambda t: t.rank >= 1, lambda o, a, s: f"{o[0]}.shape[{a['dim']}]", _derive_python,
       draw_dim(lambda t: list(range(t.rank)), keepdim=False), complex_ok=True),
    Op("parameter", "leaf", 0, lambda: True, lambda o, a, s: s, _derive_state, _draw_param,
       state=lambda t, a: f"torch.nn.Parameter({empty(a['shape'], a['dtype'])})"),
    Op("buffer", "leaf", 0, lambda: True, lambda o, a, s: s, _derive_state, _draw_buffer,
       state=lambda t, a: empty(a["shape"], a["dtype"]), state_is_buffer=True),
    # One item of what a tuple-returning op gave (topk(...).values, split(...)[1]).
    Op("item", "leaf", 1, lambda t: len(t.items) > 0, _render_item,
       lambda types, attrs, out: types[0].items[attrs["index"]], _draw_item, takes_tuples=True),
]

__all__ = ["OPS"]
