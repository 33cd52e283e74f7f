"""Backends that misbehave on purpose, to prove the suite catches and shrinks them.

Each distortion wraps the eager model (the identity backend) and changes its output
in one way a real frontend has been seen to. Loadable by path, e.g.
``--backend tests.harness_backends:DropDictKey``.
"""

from __future__ import annotations

import collections
import copy
import inspect
import os
import signal
import time
from collections.abc import Callable
from typing import Any

import torch
from torch.utils import _pytree as pytree
from torch.utils._python_dispatch import TorchDispatchMode

from harness.backends.base import CompileContext, Recipe
from harness.backends.reference import Eager
from harness.calls import clone as _clone

__all__ = ["DISTORTIONS", "STATE_DISTORTIONS", "CorruptsTheNextCase", "Distorting", "Hang", "HigherPrecision", "NewCrash",
           "RecompilesPerSize", "SpecializesToExample", "StuckAtMax",
           "HigherPrecision64", "Killed", "NotInstalled", "Segfault", "SegfaultAlways", "contains"]


def _rewrite_first(tree: Any, rewrite: Callable[[Any], Any]) -> tuple[Any, bool]:
    """Apply ``rewrite`` to the first node (pre-order) it changes; (new tree, changed)."""
    replaced = rewrite(tree)
    if replaced is not _UNCHANGED:
        return replaced, True
    if isinstance(tree, dict):
        items = list(tree.items())
        for k, v in items:
            new, changed = _rewrite_first(v, rewrite)
            if changed:
                copy = type(tree)(items)
                copy[k] = new
                return copy, True
    elif isinstance(tree, (tuple, list)):
        for i, v in enumerate(tree):
            new, changed = _rewrite_first(v, rewrite)
            if changed:
                items = [*tree[:i], new, *tree[i + 1:]]
                return (type(tree)(*items) if hasattr(tree, "_fields") else type(tree)(items)), True
    return tree, False


_UNCHANGED = object()


def _drop_dict_key(node: Any) -> Any:
    if isinstance(node, dict) and node:
        items = list(node.items())[1:]
        return type(node)(items)
    return _UNCHANGED


def _ordered_dict_to_dict(node: Any) -> Any:
    return dict(node) if type(node) is collections.OrderedDict else _UNCHANGED


def _list_to_tuple(node: Any) -> Any:
    return tuple(node) if type(node) is list else _UNCHANGED


def _flatten_one_level(node: Any) -> Any:
    if type(node) in (tuple, list) and any(type(c) in (tuple, list) for c in node):
        flat: list[Any] = []
        for c in node:
            flat.extend(c if type(c) in (tuple, list) else [c])
        return type(node)(flat)
    return _UNCHANGED


def _swap_same_shape_leaves(tree: Any) -> tuple[Any, bool]:
    """Swap the first two distinct tensors of one shape and dtype anywhere in the output
    (outputs re-assembled in the wrong order)."""
    leaves, spec = pytree.tree_flatten(tree)
    tensors = [i for i, leaf in enumerate(leaves) if isinstance(leaf, torch.Tensor)]
    for a in tensors:
        for b in tensors:
            x, y = leaves[a], leaves[b]
            if a < b and x.shape == y.shape and x.dtype == y.dtype and not torch.equal(x, y):
                leaves[a], leaves[b] = y, x
                return pytree.tree_unflatten(leaves, spec), True
    return tree, False


def _retype(src: torch.dtype, dst: torch.dtype) -> Callable[[Any], Any]:
    return lambda node: node.to(dst) if isinstance(node, torch.Tensor) and node.dtype == src else _UNCHANGED


def _nudge_one_value(node: Any) -> Any:
    """The first finite value off by 0.5 (NaN + 0.5 is NaN, inf + 0.5 is inf)."""
    if isinstance(node, torch.Tensor) and node.dtype.is_floating_point and node.isfinite().any():
        nudged = node.clone().reshape(-1)
        nudged[int(nudged.isfinite().nonzero()[0])] += 0.5
        return nudged.reshape(node.shape)
    return _UNCHANGED


def _lose_none(node: Any) -> Any:
    if type(node) in (tuple, list) and any(c is None for c in node):
        return type(node)(c for c in node if c is not None)
    return _UNCHANGED


def _round_trip(src: torch.dtype, via: torch.dtype) -> Callable[[Any], Any]:
    """A ``src`` tensor computed in ``via``: right dtype, values only ``via`` can hold."""

    def rewrite(node: Any) -> Any:
        if isinstance(node, torch.Tensor) and node.dtype == src:
            narrowed = node.to(via).to(src)
            if not torch.equal(narrowed, node):
                return narrowed
        return _UNCHANGED

    return rewrite


def _vector_tail(node: Any) -> Any:
    """A vectorized loop that gets the tail wrong: with more than 16 elements and a count
    that 8 lanes do not divide, the last element is off by one."""
    if (isinstance(node, torch.Tensor) and node.dtype.is_floating_point and node.numel() > 16
            and node.numel() % 8 and node.isfinite().all()):
        flat = node.clone().reshape(-1)
        flat[-1] += 1
        return flat.reshape(node.shape)
    return _UNCHANGED


def _nan_to_zero(node: Any) -> Any:
    """NaN lost, as by a relu or max written as ``max(x, 0)``."""
    if isinstance(node, torch.Tensor) and node.dtype.is_floating_point and node.isnan().any():
        return torch.where(node.isnan(), torch.zeros_like(node), node)
    return _UNCHANGED


#: name -> (how the output is distorted, applied to the first node it changes)
DISTORTIONS: dict[str, Callable[[Any], tuple[Any, bool]]] = {
    "drop_dict_key": lambda t: _rewrite_first(t, _drop_dict_key),
    "ordered_dict_to_dict": lambda t: _rewrite_first(t, _ordered_dict_to_dict),
    "list_to_tuple": lambda t: _rewrite_first(t, _list_to_tuple),
    "flatten_one_level": lambda t: _rewrite_first(t, _flatten_one_level),
    "one_tuple_for_bare_tensor": lambda t: ((t,), True) if isinstance(t, torch.Tensor) else (t, False),
    "swap_same_shape_leaves": _swap_same_shape_leaves,
    "int64_to_int32": lambda t: _rewrite_first(t, _retype(torch.int64, torch.int32)),
    "bfloat16_to_float32": lambda t: _rewrite_first(t, _retype(torch.bfloat16, torch.float32)),
    "nudge_one_value": lambda t: _rewrite_first(t, _nudge_one_value),
    "lose_none": lambda t: _rewrite_first(t, _lose_none),
    # Right dtypes, wrong values: what the value domains exist for.
    "float64_via_float32": lambda t: _rewrite_first(t, _round_trip(torch.float64, torch.float32)),
    "int64_via_int32": lambda t: _rewrite_first(t, _round_trip(torch.int64, torch.int32)),
    "nan_to_zero": lambda t: _rewrite_first(t, _nan_to_zero),
    # Only at sizes past the small class: what the large size class exists for.
    "vector_tail": lambda t: _rewrite_first(t, _vector_tail),
}


class Distorting(Eager):
    """Eager PyTorch with one distortion applied to every output."""

    distortion = ""

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        out, _ = DISTORTIONS[self.distortion](super().run(compiled, ctx))
        return out


for _name in DISTORTIONS:
    _cls = type("".join(p.title() for p in _name.split("_")), (Distorting,),
                {"distortion": _name, "name": f"distort-{_name}"})
    globals()[_cls.__name__] = _cls
    __all__.append(_cls.__name__)


# A standalone reproducer for one distortion, so the corpus self-test can run it.
globals()["Int64ToInt32"].recipe = lambda self, options: Recipe((("run", (
    "narrow = lambda t: t.to(torch.int32) if isinstance(t, torch.Tensor) and t.dtype == torch.int64 else t\n"
    "actual = pytree.tree_map(narrow, model(*args, **kwargs))")),), "from torch.utils import _pytree as pytree")


globals()["Float64ViaFloat32"].recipe = lambda self, options: Recipe((("run", (
    "first = [True]\n"
    "def narrow(t):\n"
    "    if isinstance(t, torch.Tensor) and t.dtype == torch.float64 and first:\n"
    "        first.clear()\n"
    "        return t.float().double()\n"
    "    return t\n"
    "actual = pytree.tree_map(narrow, model(*args, **kwargs))")),), "from torch.utils import _pytree as pytree")


def _drop_model_output_field(node: Any) -> Any:
    """transformers' ModelOutput less its last field (a frontend that rebuilds the output
    from a stale out_spec)."""
    if isinstance(node, dict) and len(node) > 1 and any(c.__name__ == "ModelOutput" for c in type(node).__mro__):
        return type(node)(**dict(list(node.items())[:-1]))
    return _UNCHANGED


class DropModelOutputField(Distorting):
    """Drops the last field of the first ModelOutput (the architectures' self-test)."""

    name = "distort-drop_model_output_field"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        return _rewrite_first(Eager.run(self, compiled, ctx), _drop_model_output_field)[0]


class Float16ToFloat32(Distorting):
    """The first float16 output comes back as float32 (a compiler that computes a half
    model in float and never casts back)."""

    name = "distort-float16_to_float32"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        return _rewrite_first(Eager.run(self, compiled, ctx), _retype(torch.float16, torch.float32))[0]


__all__ += ["DropModelOutputField", "Float16ToFloat32"]


def distorting_backend(name: str) -> Distorting:
    return next(cls for cls in Distorting.__subclasses__() if cls.distortion == name)()


class LoseBufferMutations(Eager):
    """Outputs right, buffers never updated: forward runs on a copy of the module (as a
    frontend that binds buffers as constants does)."""

    name = "distort-lose_buffer_mutations"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        return copy.deepcopy(compiled)(*ctx.args, **ctx.kwargs)


class LoseInputMutations(Eager):
    """Outputs right, the caller's inputs never updated: forward runs on copies of them."""

    name = "distort-lose_input_mutations"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        return compiled(*_clone(ctx.args), **_clone(ctx.kwargs))


class ForwardTwice(Eager):
    """Runs forward once more than asked (a converter tracing by running the module): the
    state is updated twice."""

    name = "distort-forward_twice"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        compiled(*_clone(ctx.args), **_clone(ctx.kwargs))
        return compiled(*ctx.args, **ctx.kwargs)


#: Backends that get state wrong (every buffer and input is compared after the call).
STATE_DISTORTIONS = {cls.name.removeprefix("distort-"): cls
                     for cls in (LoseBufferMutations, LoseInputMutations, ForwardTwice)}


class _Widen(TorchDispatchMode):
    """Every aten op on floats of a ``widen`` dtype runs on the wider dtype instead and
    its result stays wide; explicit casts and factories to those dtypes go wide too. A
    view stays a view of its base. An in-place op computes wide and stores into its
    (narrow) target: the one rounding a store cannot avoid."""

    def __init__(self, widen: dict[torch.dtype, torch.dtype]) -> None:
        super().__init__()
        self.widen = widen

    def _wide(self, x: Any) -> Any:
        if isinstance(x, torch.Tensor) and x.dtype in self.widen:
            return x.to(self.widen[x.dtype])
        return self.widen.get(x, x) if isinstance(x, torch.dtype) else x

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if func.is_view:  # computes nothing; widening would copy, and a write through it be lost
            return func(*args, **kwargs)
        wide_args, wide_kwargs = pytree.tree_map(self._wide, (args, kwargs))
        out = func(*wide_args, **wide_kwargs)
        mutated = [i for i, a in enumerate(func._schema.arguments) if a.alias_info is not None and a.alias_info.is_write]
        if not mutated:
            # A float made from operands that are not (int / int) is wide too: every
            # float the compiler holds is (attention checks its operands' dtypes agree).
            return pytree.tree_map(self._wide, out)
        for i in mutated:  # write the wide result back into the caller's (narrow) tensor
            target, wide = (args[i], wide_args[i]) if i < len(args) else (kwargs.get(func._schema.arguments[i].name),
                                                                          wide_kwargs.get(func._schema.arguments[i].name))
            if isinstance(target, torch.Tensor) and target is not wide:
                target.copy_(wide)
        # What the op returns: the caller's own tensor where the schema says a return
        # aliases a written argument (add_, out=), else the op's fresh result, wide.
        arguments = func._schema.arguments
        targets = {str(a.alias_info.before_set): (args[i] if i < len(args) else kwargs.get(a.name))
                   for i, a in enumerate(arguments) if a.alias_info is not None and a.alias_info.is_write}
        returned = [targets.get(str(r.alias_info.before_set)) if r.alias_info is not None else None
                    for r in func._schema.returns]
        if len(returned) == 1:
            return returned[0] if returned[0] is not None else pytree.tree_map(self._wide, out)
        return type(out)(r if r is not None else self._wide(o) for r, o in zip(returned, out))


class IgnoresHardtanhBounds(Eager):
    """A converter of one OpInfo function that drops its keywords: ``F.hardtanh`` always
    clamps to [-1, 1], whatever ``min_val`` and ``max_val`` say. Right on the function's
    default sample, wrong on the others."""

    name = "ignores-hardtanh-bounds"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        original = torch.nn.functional.hardtanh
        torch.nn.functional.hardtanh = lambda x, *args, **kwargs: original(x)
        try:
            return Eager.run(self, compiled, ctx)
        finally:
            torch.nn.functional.hardtanh = original


class IgnoresAlignCorners(Eager):
    """A converter of one op from OpInfo's samples that drops a keyword: ``F.interpolate``
    always resamples with ``align_corners=False``. Right where the sample says False,
    wrong where it says True."""

    name = "ignores-align-corners"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        original = torch.nn.functional.interpolate
        signature = inspect.signature(original)

        def resample(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)  # align_corners by position or by keyword
            linear = bound.arguments.get("mode") in ("bilinear", "bicubic", "linear", "trilinear")
            bound.arguments["align_corners"] = False if linear else None
            return original(*bound.args, **bound.kwargs)

        torch.nn.functional.interpolate = resample
        try:
            return Eager.run(self, compiled, ctx)
        finally:
            torch.nn.functional.interpolate = original


class HigherPrecision(Eager):
    """A valid compiler that keeps more precision than eager: float16 and bfloat16 (and,
    with ``widen_float32``, float32) chains computed in a wider float, each output rounded
    to eager's dtype only at the end, as a fusing compiler does. The suite must pass it:
    flagging it would be a false alarm (``strategies.ops.base``, the ``err`` rule)."""

    name = "higher-precision"
    widen = {torch.float16: torch.float32, torch.bfloat16: torch.float32}

    def __init__(self) -> None:
        #: Runs whose output differed from eager's in some bit: proof that it is not eager.
        self.differed = 0

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        # Eager's output dtypes, from a run on copies: the rounding at the end needs them.
        eager = copy.deepcopy(compiled)(*_clone(ctx.args), **_clone(ctx.kwargs))
        # Inputs, parameters and buffers go wide too: a composite op (attention) checks
        # its operands' dtypes before the mode sees it.
        mode = _Widen(self.widen)
        model = copy.deepcopy(compiled)._apply(mode._wide)
        args, kwargs = pytree.tree_map(mode._wide, (ctx.args, ctx.kwargs))
        with mode:
            wide = model(*args, **kwargs)
        # State is stored at the end, in its own dtype.
        for narrow, stored in zip(compiled.buffers(), model.buffers()):
            narrow.copy_(stored)
        for narrow, stored in zip(pytree.tree_leaves((ctx.args, ctx.kwargs)), pytree.tree_leaves((args, kwargs))):
            # (A tensor forward replaced inside a container, as DynamicCache.update does, is
            # not written back: the state check leaves such tensors out.)
            if isinstance(narrow, torch.Tensor) and narrow is not stored and narrow.shape == stored.shape:
                narrow.copy_(stored)
        out = _round_to(wide, eager)
        pairs = zip(pytree.tree_leaves(out), pytree.tree_leaves(eager))
        self.differed += any(isinstance(a, torch.Tensor) and not torch.equal(a, b) and not (a.isnan() | b.isnan()).any()
                             for a, b in pairs)
        return out


def _round_to(wide: Any, like: Any) -> Any:
    """``wide`` with each tensor cast to the dtype of the same leaf in ``like`` (any
    container, unregistered dict subclasses included)."""
    if isinstance(wide, torch.Tensor):
        return wide.to(like.dtype) if wide.dtype != like.dtype else wide
    if isinstance(wide, dict):
        for key in wide:  # a fresh output: rewritten in place, its type kept
            wide[key] = _round_to(wide[key], like[key])
        return wide
    if isinstance(wide, (list, tuple)):
        items = [_round_to(w, k) for w, k in zip(wide, like)]
        if isinstance(wide, list):
            return items
        return type(wide)(*items) if hasattr(wide, "_fields") else type(wide)(items)
    if type(wide) in pytree.SUPPORTED_NODES:  # another registered node: transformers' DynamicCache
        children, context = pytree.SUPPORTED_NODES[type(wide)].flatten_fn(wide)
        like_children = pytree.SUPPORTED_NODES[type(like)].flatten_fn(like)[0]
        return pytree.SUPPORTED_NODES[type(wide)].unflatten_fn([_round_to(w, k) for w, k in zip(children, like_children)],
                                                               context)
    return wide


class HigherPrecision64(HigherPrecision):
    """The same, every float (float32 too) computed in float64."""

    name = "higher-precision-64"
    widen = {torch.float16: torch.float64, torch.bfloat16: torch.float64, torch.float32: torch.float64}


def contains(tree: Any, container: type) -> bool:
    """Whether an output tree has a ``container`` anywhere in it (itself included)."""
    if isinstance(tree, container):
        return True
    children = tree.values() if isinstance(tree, dict) else tree if isinstance(tree, (tuple, list)) else ()
    return any(contains(child, container) for child in children)


class _Signalled(Eager):
    """Dies by the signal ``dies_by`` when the output tree has a ``container`` in it."""

    container: type
    dies_by: signal.Signals

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        out = super().run(compiled, ctx)
        if contains(out, self.container):
            os.kill(os.getpid(), self.dies_by)
        return out


class Segfault(_Signalled):
    """Dies with SIGSEGV when the output tree has a list in it (as a native crash would)."""

    name = "segfault"
    container = list
    dies_by = signal.SIGSEGV


class SegfaultAlways(_Signalled):
    """Dies with SIGSEGV on every case, whatever it returns (a frontend's native crash)."""

    name = "segfault-always"
    container = object
    dies_by = signal.SIGSEGV


class NotInstalled(Eager):
    """A frontend whose library is missing here."""

    name = "not-installed"
    requires = ("roundtrip_no_such_frontend",)


class CorruptsTheNextCase(Eager):
    """A list output leaves the process poisoned (as a kernel writing out of bounds
    corrupts the heap) and passes; the next case in that process dies with SIGSEGV."""

    name = "corrupts-the-next-case"
    poisoned = False  # per process: a fresh worker starts clean

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        if CorruptsTheNextCase.poisoned:
            os.kill(os.getpid(), signal.SIGSEGV)
        out = super().run(compiled, ctx)
        CorruptsTheNextCase.poisoned = contains(out, list)
        return out


class Hang(Eager):
    """Never answers when the output is a dict."""

    name = "hang"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        out = super().run(compiled, ctx)
        if isinstance(out, dict):
            time.sleep(3600)
        return out


class NewCrash(Eager):
    """Raises at run time on every case: a frontend's failure that no row explains (what a
    replay under any version set must still fail on)."""

    name = "new-crash"

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        raise RuntimeError("planted: a crash that no row of the known table explains")


class Killed(_Signalled):
    """Killed from outside (SIGKILL, as the OOM killer does) when the output has a tuple in it."""

    name = "killed"
    container = tuple
    dies_by = signal.SIGKILL


# -- dynamic shapes: frontends that compile once and are called at many sizes -----------


def _resize_to(tensor: torch.Tensor, shape: tuple[int, ...]) -> torch.Tensor:
    """``tensor`` cut or zero-padded, dim by dim, to ``shape``."""
    for dim, side in enumerate(shape):
        if tensor.shape[dim] > side:
            tensor = tensor.narrow(dim, 0, side)
        elif tensor.shape[dim] < side:
            pad = list(tensor.shape)
            pad[dim] = side - tensor.shape[dim]
            tensor = torch.cat([tensor, torch.zeros(pad, dtype=tensor.dtype)], dim)
    return tensor


class _Resizing(Eager):
    """Runs the eager model on every input tensor cut or padded to the shape ``target``
    gives it (its example shape and its dynamic dims' ranges)."""

    def target(self, example: tuple[int, ...], dims: dict[int, tuple[int, int]]) -> tuple[int, ...]:
        raise NotImplementedError

    def compile(self, ctx: CompileContext) -> Any:
        tensors = [t for t in pytree.tree_leaves((ctx.args, ctx.kwargs)) if isinstance(t, torch.Tensor)]
        dims = ctx.dynamic_dims or [{} for _ in tensors]
        return [self.target(tuple(t.shape), d) for t, d in zip(tensors, dims, strict=True)]

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        shapes = iter(compiled)
        args, kwargs = pytree.tree_map_only(torch.Tensor, lambda t: _resize_to(t, next(shapes)), (ctx.args, ctx.kwargs))
        return ctx.model(*args, **kwargs)


class SpecializesToExample(_Resizing):
    """Declared dynamism baked to the example: right at the example, and at any other
    size the inputs are cut or padded back to it (a reshape frozen at the example's length)."""

    name = "specializes-to-example"

    def target(self, example: tuple[int, ...], dims: dict[int, tuple[int, int]]) -> tuple[int, ...]:
        return example


class StuckAtMax(_Resizing):
    """Every dynamic dim computed at its range's maximum: output shapes stuck there."""

    name = "stuck-at-max"

    def target(self, example: tuple[int, ...], dims: dict[int, tuple[int, int]]) -> tuple[int, ...]:
        return tuple(dims[k][1] if k in dims else side for k, side in enumerate(example))


class RecompilesPerSize(Eager):
    """Ignores the declared dynamism: dynamo with ``dynamic=False`` traces again at every
    new size, with right values. A recompilation is a note, never a failure."""

    name = "recompiles-per-size"

    def compile(self, ctx: CompileContext) -> Any:
        torch._dynamo.reset()
        return torch.compile(ctx.model, backend="eager", dynamic=False)

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        with ctx.stage("compile-on-call"):
            return compiled(*ctx.args, **ctx.kwargs)
