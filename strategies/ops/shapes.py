"""Shape and data movement (views, copies, joins and splits that return tuples), and
tensors created inside ``forward`` (``arange``, ``full``, ``eye``, constants).

Nothing here computes: values are moved, so a result keeps its operands' range and
error (a join of two dtypes is promoted, and may round into the narrower float).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from hypothesis import strategies as st

from ..choices import integers, sampled
from .base import FLOATS, Op, TensorType, Type, derive_same, dt, finish, fits, moved_fits, real

_CREATE_DTYPES = ("float32", "int64", "float16", "bfloat16", "float64", "int32", "int8", "uint8", "bool")
_FILLS = {"float": (0.5, -1.25, 2.0, 0.0), "int": (0, 1, 2, -3), "bool": (True, False)}


def _fills(dtype: str) -> tuple:
    return _FILLS["bool"] if dtype == "bool" else _FILLS["float"] if dtype in FLOATS else \
        tuple(v for v in _FILLS["int"] if fits(dtype, v, v))


def _derive_tuple(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    """Each piece of a split holds values of the whole."""
    return replace(out, items=tuple(derive_same(types, attrs, item) for item in out.items))


def _draw_reshape(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    n = types[0].numel
    shapes = [(-1,), (1, n), (n, 1), (1, -1, 1)]
    shapes += [(a, n // a) for a in range(2, n) if n % a == 0]
    return {"shape": draw(sampled(shapes))}


def _draw_permutation(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"dims": tuple(draw(st.permutations(range(types[0].rank))))}


def _draw_expand(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    sizes = tuple(draw(sampled((1, 2, 3))) if s == 1 else s for s in t.shape)
    lead = tuple(draw(st.lists(st.integers(1, 2), max_size=1)))
    return {"sizes": lead + sizes}


def _draw_repeat(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    rank = types[0].rank
    return {"repeats": tuple(draw(st.lists(st.integers(1, 2), min_size=max(rank, 1), max_size=rank + 1)))}


def _draw_dims_subset(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    rank = types[0].rank
    return {"dims": tuple(draw(st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank, unique=True)))}


def _draw_roll(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    dim = draw(integers(0, types[0].rank - 1))
    return {"shift": draw(sampled((1, -1, 2))), "dim": dim}


def _join_ok(kind: str) -> Callable[[TensorType, TensorType], bool]:
    def ok(a: TensorType, b: TensorType) -> bool:
        if not (real(a) and real(b)) or a.rank != b.rank or not moved_fits(a, b):
            return False
        if kind == "stack":
            return a.shape == b.shape
        # cat: every dim but one agrees (0-d tensors cannot be concatenated).
        return a.rank >= 1 and sum(x != y for x, y in zip(a.shape, b.shape)) <= 1

    return ok


def _draw_join(kind: str) -> Callable:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        a, b = types
        if kind == "stack":
            return {"dim": draw(integers(0, a.rank))}
        differ = [d for d, (x, y) in enumerate(zip(a.shape, b.shape)) if x != y]
        return {"dim": differ[0] if differ else draw(integers(0, a.rank - 1))}

    return draw_attrs


def _nonempty_dims(t: TensorType) -> list[int]:
    return [d for d, s in enumerate(t.shape) if s > 0]


def _draw_split(kind: str) -> Callable:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        t = types[0]
        dim = draw(sampled(_nonempty_dims(t)))
        size = t.shape[dim]
        if kind == "unbind":
            return {"dim": dim}
        return {"dim": dim, "n": draw(integers(1, size))}

    return draw_attrs


def _draw_squeeze(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    return {"dim": draw(sampled((None, *range(t.rank))))}


def _draw_narrow(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    dim = draw(sampled(_nonempty_dims(t)))
    start = draw(integers(0, t.shape[dim] - 1))
    return {"dim": dim, "start": start, "length": draw(integers(0, t.shape[dim] - start))}


def _draw_slice(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    return {"dim": draw(integers(0, t.rank - 1)), "start": draw(integers(0, 1)), "step": draw(integers(2, 3))}


def _render_slice(o: tuple[str, ...], a: dict, s: str) -> str:
    lead = ":, " * a["dim"]
    return f"{o[0]}[{lead}{a['start']}::{a['step']}]"


def _draw_diagonal(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    rank = types[0].rank
    d1, d2 = draw(st.lists(st.integers(0, rank - 1), min_size=2, max_size=2, unique=True))
    return {"offset": draw(integers(-1, 1)), "dim1": d1, "dim2": d2}


def _derive_with_zero(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    return finish(out, min(t.lo, 0), max(t.hi, 0), t.err)


def _draw_pad(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    t = types[0]
    widths = tuple(draw(st.lists(st.integers(0, 2), min_size=2, max_size=2 * min(t.rank, 2))))
    return {"pad": widths if len(widths) % 2 == 0 else widths[:-1], "value": draw(sampled(_fills(t.dtype)))}


def _derive_pad(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    t = types[0]
    v = float(attrs["value"])
    return finish(out, min(t.lo, v), max(t.hi, v), t.err)


# -- created in forward -------------------------------------------------------------------------


def _draw_created_shape(draw: Callable) -> tuple[int, ...]:
    return tuple(draw(st.lists(st.integers(1, 3), max_size=3)))


def _draw_full(kind: str) -> Callable:
    def draw_attrs(draw: Callable, types: tuple[TensorType, ...]) -> dict:
        dtype = draw(sampled(_CREATE_DTYPES))
        attrs = {"dtype": dtype}
        if kind != "full_like":
            attrs["shape"] = _draw_created_shape(draw)
        if kind in ("full", "full_like"):
            attrs["value"] = draw(sampled(_fills(dtype)))
        return attrs

    return draw_attrs


def _render_full(kind: str) -> Callable:
    def render(o: tuple[str, ...], a: dict, s: str) -> str:
        dtype = f"dtype={dt(a['dtype'])}"
        if kind == "full_like":
            return f"torch.full_like({o[0]}, {a['value']!r}, {dtype})"
        if kind == "full":
            return f"torch.full({tuple(a['shape'])!r}, {a['value']!r}, {dtype})"
        return f"torch.{kind}({tuple(a['shape'])!r}, {dtype})"

    return render


def _derive_constant(types: tuple[TensorType, ...], attrs: dict, out: Type) -> Type:
    if "value" in attrs:
        v = float(attrs["value"])
        return finish(out, v, v, 0)
    if "values" in attrs:
        return finish(out, min(attrs["values"]), max(attrs["values"]), 0)
    if "end" in attrs:
        return finish(out, min(0, attrs["end"] - 1), max(0, attrs["end"] - 1), 0)
    return finish(out, 0, 1, 0)


def _draw_arange(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"end": draw(integers(1, 5)), "dtype": draw(sampled(("int64", "float32", "int32", "float64", "float16")))}


def _draw_eye(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    return {"n": draw(integers(1, 3)), "m": draw(integers(1, 3)), "dtype": draw(sampled(_CREATE_DTYPES))}


def _draw_literal(draw: Callable, types: tuple[TensorType, ...]) -> dict:
    dtype = draw(sampled(_CREATE_DTYPES))
    values = tuple(draw(st.lists(st.sampled_from(_fills(dtype)), min_size=1, max_size=4)))
    return {"dtype": dtype, "values": values}


def _any_real(t: TensorType) -> bool:
    return real(t)


OPS = [
    Op("reshape", "shape", 1, lambda t: real(t) and t.numel > 0,
       lambda o, a, s: f"{o[0]}.reshape({tuple(a['shape'])!r})", derive_same, _draw_reshape),
    Op("permute", "shape", 1, lambda t: real(t) and t.rank >= 2,
       lambda o, a, s: f"{o[0]}.permute({tuple(a['dims'])!r})", derive_same, _draw_permutation),
    Op("expand", "shape", 1, _any_real, lambda o, a, s: f"{o[0]}.expand({tuple(a['sizes'])!r})", derive_same,
       _draw_expand),
    Op("repeat", "shape", 1, _any_real, lambda o, a, s: f"{o[0]}.repeat({tuple(a['repeats'])!r})", derive_same,
       _draw_repeat),
    Op("flip", "shape", 1, lambda t: real(t) and t.rank >= 1, lambda o, a, s: f"torch.flip({o[0]}, {tuple(a['dims'])!r})",
       derive_same, _draw_dims_subset),
    Op("roll", "shape", 1, lambda t: real(t) and t.rank >= 1,
       lambda o, a, s: f"torch.roll({o[0]}, {a['shift']}, {a['dim']})", derive_same, _draw_roll),
    Op("cat", "shape", 2, _join_ok("cat"), lambda o, a, s: f"torch.cat([{o[0]}, {o[1]}], dim={a['dim']})", derive_same,
       _draw_join("cat")),
    Op("stack", "shape", 2, _join_ok("stack"), lambda o, a, s: f"torch.stack([{o[0]}, {o[1]}], dim={a['dim']})",
       derive_same, _draw_join("stack")),
    # Tuples of views: returned as they come, anywhere in the output tree.
    Op("split", "shape", 1, lambda t: real(t) and bool(_nonempty_dims(t)),
       lambda o, a, s: f"torch.split({o[0]}, {a['n']}, dim={a['dim']})", _derive_tuple, _draw_split("split")),
    Op("chunk", "shape", 1, lambda t: real(t) and bool(_nonempty_dims(t)),
       lambda o, a, s: f"torch.chunk({o[0]}, {a['n']}, dim={a['dim']})", _derive_tuple, _draw_split("chunk")),
    Op("unbind", "shape", 1, lambda t: real(t) and bool(_nonempty_dims(t)),
       lambda o, a, s: f"torch.unbind({o[0]}, dim={a['dim']})", _derive_tuple, _draw_split("unbind")),
    Op("tensor_split", "shape", 1, lambda t: real(t) and bool(_nonempty_dims(t)),
       lambda o, a, s: f"torch.tensor_split({o[0]}, {a['n']}, dim={a['dim']})", _derive_tuple,
       _draw_split("tensor_split")),
    Op("squeeze", "shape", 1, _any_real,
       lambda o, a, s: f"{o[0]}.squeeze()" if a["dim"] is None else f"{o[0]}.squeeze({a['dim']})", derive_same,
       _draw_squeeze),
    Op("unsqueeze", "shape", 1, _any_real, lambda o, a, s: f"{o[0]}.unsqueeze({a['dim']})", derive_same,
       lambda draw, t: {"dim": draw(integers(-t[0].rank - 1, t[0].rank))}),
    Op("narrow", "shape", 1, lambda t: real(t) and bool(_nonempty_dims(t)),
       lambda o, a, s: f"{o[0]}.narrow({a['dim']}, {a['start']}, {a['length']})", derive_same, _draw_narrow),
    Op("strided_slice", "shape", 1, lambda t: real(t) and t.rank >= 1, _render_slice, derive_same, _draw_slice),
    Op("diagonal", "shape", 1, lambda t: real(t) and t.rank >= 2,
       lambda o, a, s: f"torch.diagonal({o[0]}, offset={a['offset']}, dim1={a['dim1']}, dim2={a['dim2']})",
       derive_same, _draw_diagonal),
    *[
        Op(name, "shape", 1, lambda t: real(t) and t.rank >= 2,
           lambda o, a, s, name=name: f"torch.{name}({o[0]}, diagonal={a['k']})", _derive_with_zero,
           lambda draw, t: {"k": draw(integers(-1, 1))})
        for name in ("tril", "triu")
    ],
    Op("pad", "shape", 1, lambda t: real(t) and not t.is_bool and t.rank >= 1,
       lambda o, a, s: f"torch.nn.functional.pad({o[0]}, {tuple(a['pad'])!r}, value={a['value']!r})", _derive_pad,
       _draw_pad),
    Op("transpose", "shape", 1, lambda t: real(t) and t.rank >= 2,
       lambda o, a, s: f"{o[0]}.transpose({a['dims'][0]}, {a['dims'][1]})", derive_same,
       lambda draw, t: {"dims": tuple(draw(st.lists(st.integers(0, t[0].rank - 1), min_size=2, max_size=2,
                                                    unique=True)))}),
    Op("flatten", "shape", 1, lambda t: real(t) and t.rank >= 1,
       lambda o, a, s: f"torch.flatten({o[0]}, start_dim={a['start']})", derive_same,
       lambda draw, t: {"start": draw(integers(0, t[0].rank - 1))}),
    # Tensors created in forward, with explicit dtypes.
    Op("arange", "create", 0, lambda: True, lambda o, a, s: f"torch.arange({a['end']}, dtype={dt(a['dtype'])})",
       _derive_constant, _draw_arange),
    *[Op(kind, "create", 0, lambda: True, _render_full(kind), _derive_constant, _draw_full(kind))
      for kind in ("zeros", "ones", "full")],
    Op("full_like", "create", 1, _any_real, _render_full("full_like"), _derive_constant, _draw_full("full_like")),
    Op("eye", "create", 0, lambda: True, lambda o, a, s: f"torch.eye({a['n']}, {a['m']}, dtype={dt(a['dtype'])})",
       _derive_constant, _draw_eye),
    Op("tensor", "create", 0, lambda: True,
       lambda o, a, s: f"torch.tensor({list(a['values'])!r}, dtype={dt(a['dtype'])})", _derive_constant, _draw_literal),
]

__all__ = ["OPS"]
