"""Torch-TensorRT's PyTorch frontends (written against torch-tensorrt 2.14.0).

- ``trt-dynamo``: ``torch_tensorrt.compile(model, ir="dynamo", arg_inputs=..., kwarg_inputs=...)``.
  Traces with ``torch.export`` and returns a partitioned ``fx.GraphModule`` whose
  forward re-assembles the eager pytree from the export's ``out_spec``.
- ``trt-torch-compile``: ``torch_tensorrt.compile(model, ir="torch_compile", ...)``, which
  is ``torch.compile(backend=torch_tensorrt_backend, dynamic=False, options=...)``
  (``_compile.py`` L457-470). Lazy: TensorRT builds the engines on the first call.
- ``trt-exported-program``: ``torch_tensorrt.dynamo.compile`` on the case's own
  ``torch.export`` program.
- ``trt-saved``: as ``trt-dynamo``, then ``torch_tensorrt.save`` as an ExportedProgram
  and ``torch.export.load``; the loaded program's ``.module()`` restores the pytree.

Torch-TensorRT needs a CUDA GPU even to be imported: ``CompilationSettings`` asks
``torch.cuda.current_device()`` for a default argument at import time
(``dynamo/_defaults.py`` L110-111). So nothing here imports it at module level, and
``unavailable_reason`` checks the GPU before trying. The case runs on ``DEVICE``; its
outputs are copied back to the CPU with their containers rebuilt exactly.
"""

from __future__ import annotations

import copy
import functools
import os
import tempfile
from typing import Any

import torch
from hypothesis import strategies as st
from torch.utils import _pytree as pytree

from .base import (
    Backend,
    CompileContext,
    Contract,
    HarnessError,
    Recipe,
    dynamo_smallest_dynamic_size,
    mark_dynamic,
    missing_modules,
)

__all__ = [
    "DEVICE",
    "OPTIONS",
    "REQUIRED_OPTIONS",
    "TrtDynamo",
    "TrtExportedProgram",
    "TrtSaveLoad",
    "TrtTorchCompile",
    "compile_kwargs",
    "option_strategy",
    "ranged_inputs",
    "to_cpu",
    "to_device",
]

#: Where the case runs. Module-level so the CPU self-tests can point it at "cpu".
DEVICE = "cuda"

#: Passed on every compile, whatever was drawn.
REQUIRED_OPTIONS: dict[str, Any] = {
    # Without it the torch.compile backend catches AssertionError/RuntimeError/TypeError
    # from the build and silently runs the eager graph instead (dynamo/backend/backends.py
    # L383-391), which would pass as a TensorRT result. dynamo.compile raises
    # conversion errors either way.
    "pass_through_build_failures": True,
}

#: Every compile option an adapter may draw, with its non-default value. Each one can
#: change what comes back. A drawn key means "set to this"; an absent key means
#: Torch-TensorRT's default, so a failing case shrinks to the defaults.
#:
#: Not drawn: ``enabled_precisions`` and ``use_explicit_typing`` no longer exist in
#: 2.14's dynamo path; networks are always STRONGLY_TYPED (conversion/_TRTInterpreter.py
#: L108-114) and both keys would be dropped silently (``_compile.py`` L256 comment,
#: ``dynamo/utils.py`` L730-732), so drawing them would only pretend to test precision.
#: ``enable_autocast``/``autocast_low_precision_type`` deliberately lower precision and
#: may change output dtypes (lowering/passes/rule_based_autocast.py); that is opt-in
#: behaviour the oracle's float32 tolerances cannot judge.
OPTIONS: dict[str, Any] = {
    # Default True. False selects the global partitioner, which changes the partition
    # layout and once changed the return type (pytorch/TensorRT#2647).
    "use_fast_partitioner": False,
    # Default False. True: any op TensorRT cannot convert is an error, not a fallback.
    "require_full_compilation": True,
    # Default False. True casts float64 engine inputs and constants to float32 and
    # casts back afterwards (conversion/truncate_double.py; pytorch/TensorRT#4624).
    "truncate_double": True,
    # Deprecated in 2.14: only a DeprecationWarning, "has no effect" (dynamo/_compiler.py
    # L632-640). Drawn to check that it really changes nothing.
    "use_python_runtime": True,
    # Default True. False builds refittable engines (a different builder config).
    "immutable_weights": False,
    # Default False, i.e. TensorRT may run float32 matmuls/convolutions in TF32
    # (conversion/_TRTInterpreter.py L329-330 clears the flag only when asked).
    "disable_tf32": True,
    # Default False. Float32 accumulation for float16 matmuls (conversion/impl/matmul.py).
    "use_fp32_acc": True,
}

# parse_dynamo_kwargs forces require_full_compilation to False on the torch.compile
# path (dynamo/utils.py L744-750), so drawing it there would test nothing.
_TORCH_COMPILE_OPTIONS = tuple(k for k in OPTIONS if k != "require_full_compilation")


def option_strategy(names: tuple[str, ...] = tuple(OPTIONS)) -> st.SearchStrategy[dict[str, Any]]:
    """The compile options drawn with each case; they shrink to
    ``{"min_block_size": 1, "pass_through_build_failures": True}``."""
    return st.fixed_dictionaries(
        {
            # The default, 5, builds no engine at all for a graph with fewer supported
            # ops (dynamo/_compiler.py L1296-1302): every small case would run in
            # PyTorch and pass without testing TensorRT. 1 puts everything in engines.
            "min_block_size": st.integers(1, 3),
            **{name: st.just(value) for name, value in REQUIRED_OPTIONS.items()},
        },
        optional={name: st.just(OPTIONS[name]) for name in names},
    )


def compile_kwargs(options: dict[str, Any]) -> dict[str, Any]:
    """Drawn options -> the keyword arguments of the Torch-TensorRT compile call.

    Unknown keys are a harness error: Torch-TensorRT itself drops unknown keys without
    a word on the torch.compile path (dynamo/utils.py L730-732).
    """
    unknown = sorted(set(options) - set(OPTIONS) - set(REQUIRED_OPTIONS) - {"min_block_size"})
    if unknown:
        raise HarnessError(f"unknown Torch-TensorRT option(s) {unknown}; known: {sorted(OPTIONS)}")
    # A replayed case from before min_block_size was drawn still gets engines.
    return {"min_block_size": 1, **options, **REQUIRED_OPTIONS}


def to_device(tree: Any, device: str | torch.device) -> Any:
    """Every tensor in ``tree`` moved to ``device``; containers rebuilt as they were."""
    return _map_tensors(lambda t: t.to(device), tree)


def to_cpu(tree: Any) -> Any:
    """Every tensor in ``tree`` copied to the CPU; None/int/float/bool and the exact
    container types (namedtuple, OrderedDict, registered dict subclasses) kept."""
    return _map_tensors(lambda t: t.cpu(), tree)


def _map_tensors(fn: Any, tree: Any) -> Any:
    def leaf(value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            return fn(value)
        # pytree treats a dict or list subclass it does not know as a leaf; a frontend
        # may still return one (torch.compile keeps them), so copy it with its type.
        if isinstance(value, dict):
            out = copy.copy(value)
            for key, item in value.items():
                out[key] = _map_tensors(fn, item)
            return out
        if isinstance(value, list):
            out = copy.copy(value)
            out[:] = [_map_tensors(fn, item) for item in value]
            return out
        return value

    return pytree.tree_map(leaf, tree)


def ranged_inputs(torch_tensorrt: Any, tree: Any, dynamic_dims: list[dict[int, tuple[int, int]]] | None) -> Any:
    """``tree`` (the call's args or kwargs) with each tensor that has dynamic dims replaced
    by ``torch_tensorrt.Input(min_shape=, opt_shape=, max_shape=, dtype=)``: the range's
    edges, the example as the optimum (the documented dynamic-shapes call, "Dynamic shapes
    with Torch-TensorRT"). ``dynamic_dims`` follows the tensors of ``(args, kwargs)`` in
    pytree order; ``None``: the tree as it is."""
    if not dynamic_dims:
        return tree
    ranges = iter(dynamic_dims)

    def leaf(t: torch.Tensor) -> Any:
        dims = next(ranges)
        if not dims:
            return t
        shape = list(t.shape)
        low = [dims[k][0] if k in dims else side for k, side in enumerate(shape)]
        high = [dims[k][1] if k in dims else side for k, side in enumerate(shape)]
        return torch_tensorrt.Input(min_shape=low, opt_shape=shape, max_shape=high, dtype=t.dtype)

    return pytree.tree_map_only(torch.Tensor, leaf, tree)


@functools.cache
def _import_error() -> str | None:
    """``import torch_tensorrt``'s failure, once per process.

    It fails with a bare ``Exception`` (libnvinfer not found), ``OSError`` (libtorchtrt.so
    against a torch for another CUDA), ``RuntimeError``/``AssertionError`` (no CUDA
    device) or ``ModuleNotFoundError``, hence the broad except.
    """
    try:
        import torch_tensorrt  # noqa: F401
    except Exception as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return f"{type(exc).__name__}: {message}"
    return None


class _TrtBackend(Backend):
    contract = Contract.EXACT  # the dynamo paths rebuild the pytree from out_spec
    mutation = ("written back for buffers: 2.14's compile() lifts mutated buffers and keeps their state on the "
                "compiled module (py/torch_tensorrt/dynamo/lowering/_buffer_lifting.py); inputs: undocumented")
    requires = ("torch_tensorrt", "tensorrt")
    distribution = "torch-tensorrt"
    packages = ("tensorrt",)
    tracker = "pytorch/TensorRT"
    dynamic = "torch_tensorrt.Input(min_shape=, opt_shape=, max_shape=) from the declared ranges"
    _option_names: tuple[str, ...] = tuple(OPTIONS)
    #: How the reproducer compiles, after moving the model and inputs to the GPU.
    _recipe_compile = ('compiled = torch_tensorrt.compile(model, ir="dynamo", arg_inputs=list(args), '
                       'kwarg_inputs=kwargs, **{options!r})')

    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        return Recipe((
            ("compile", f"model, args, kwargs = model.to({DEVICE!r}), to_device(args, {DEVICE!r}), "
                        f"to_device(kwargs, {DEVICE!r})\n" + self._recipe_compile.format(options=compile_kwargs(options))),
            ("run", "actual = to_cpu(compiled(*args, **kwargs))"),
        ), "import torch_tensorrt\nfrom torch.utils import _pytree as pytree", (_map_tensors, to_device, to_cpu))

    def unavailable_reason(self) -> str | None:
        if not torch.cuda.is_available():
            return f"{self.name}: needs a CUDA GPU; torch sees none"
        missing = missing_modules(*self.requires)
        if missing:
            return f"{self.name}: not installed ({', '.join(missing)} missing)"
        error = _import_error()
        if error is not None:
            hint = ""
            if not str(torch.version.cuda or "").startswith("13"):
                hint = (f" (torch {torch.__version__} is built for CUDA {torch.version.cuda or 'none'}; "
                        "torch-tensorrt 2.14 needs torch 2.14 built for CUDA 13)")
            return f"{self.name}: import torch_tensorrt failed: {error}{hint}"
        return None

    def option_strategy(self) -> st.SearchStrategy[dict[str, Any]]:
        return option_strategy(self._option_names)

    @staticmethod
    def _import(ctx: CompileContext) -> Any:
        with ctx.stage("import"):
            import torch_tensorrt

        return torch_tensorrt

    @staticmethod
    def _to_device(ctx: CompileContext) -> None:
        """The case, on ``DEVICE``: the model moved in place, the inputs replaced, so
        that ``ctx.exported()`` exports what TensorRT will run."""
        ctx.model = ctx.model.to(DEVICE)
        ctx.args = to_device(ctx.args, DEVICE)
        ctx.kwargs = to_device(ctx.kwargs, DEVICE)

    def _compile_dynamo(self, ctx: CompileContext) -> Any:
        torch_tensorrt = self._import(ctx)
        self._to_device(ctx)
        arg_inputs, kwarg_inputs = ranged_inputs(torch_tensorrt, (list(ctx.args), dict(ctx.kwargs)), ctx.dynamic_dims)
        return torch_tensorrt.compile(
            ctx.model,
            ir="dynamo",
            arg_inputs=arg_inputs,
            kwarg_inputs=kwarg_inputs,
            **compile_kwargs(ctx.options),
        )

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        return to_cpu(compiled(*to_device(ctx.args, DEVICE), **to_device(ctx.kwargs, DEVICE)))

    def state(self, compiled: Any, ctx: CompileContext) -> tuple[dict[str, torch.Tensor], tuple, dict]:
        # A lifted buffer's state lives on the compiled module ("the buffer storage lives
        # on gm so subsequent calls reuse the mutated state", _buffer_lifting.py): read
        # it there where the compiled module has a buffer of that name.
        buffers, args, kwargs = super().state(compiled, ctx)
        if isinstance(compiled, torch.nn.Module):
            buffers.update((n, b) for n, b in compiled.named_buffers() if n in buffers)
        return buffers, args, kwargs


class TrtDynamo(_TrtBackend):
    name = "trt-dynamo"

    def compile(self, ctx: CompileContext) -> Any:
        return self._compile_dynamo(ctx)


class TrtTorchCompile(_TrtBackend):
    name = "trt-torch-compile"
    _option_names = _TORCH_COMPILE_OPTIONS
    _recipe_compile = 'compiled = torch_tensorrt.compile(model, ir="torch_compile", **{options!r})'

    def compile(self, ctx: CompileContext) -> Any:
        torch_tensorrt = self._import(ctx)
        torch._dynamo.reset()  # no cache or recompile limit carried over between cases
        self._to_device(ctx)
        # arg_inputs/kwarg_inputs are ignored on this path: it compiles on the first call.
        return torch_tensorrt.compile(ctx.model, ir="torch_compile", **compile_kwargs(ctx.options))

    dynamic = "torch._dynamo.mark_dynamic on the declared dims (this path compiles with dynamic=False)"

    def smallest_dynamic_size(self, options: dict[str, Any]) -> int:
        return dynamo_smallest_dynamic_size(options)

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        args, kwargs = to_device(ctx.args, DEVICE), to_device(ctx.kwargs, DEVICE)
        mark_dynamic(ctx, (args, kwargs))
        with ctx.stage("compile-on-call"):
            return to_cpu(compiled(*args, **kwargs))


class TrtExportedProgram(_TrtBackend):
    name = "trt-exported-program"
    _recipe_compile = ("compiled = torch_tensorrt.dynamo.compile(torch.export.export(model, args, kwargs), "
                       "arg_inputs=list(args), kwarg_inputs=kwargs, **{options!r})")

    def compile(self, ctx: CompileContext) -> Any:
        torch_tensorrt = self._import(ctx)
        self._to_device(ctx)
        exported = ctx.exported()
        arg_inputs, kwarg_inputs = ranged_inputs(torch_tensorrt, (list(ctx.args), dict(ctx.kwargs)), ctx.dynamic_dims)
        return torch_tensorrt.dynamo.compile(
            exported,
            arg_inputs=arg_inputs,
            kwarg_inputs=kwarg_inputs,
            **compile_kwargs(ctx.options),
        )


class TrtSaveLoad(_TrtBackend):
    name = "trt-saved"
    _recipe_compile = _TrtBackend._recipe_compile + (
        '\ntorch_tensorrt.save(compiled, "model.pt2", output_format="exported_program", arg_inputs=list(args), '
        'kwarg_inputs=kwargs, retrace=True)\ncompiled = torch.export.load("model.pt2").module()')

    def compile(self, ctx: CompileContext) -> Any:
        torch_tensorrt = self._import(ctx)
        compiled = self._compile_dynamo(ctx)
        with tempfile.TemporaryDirectory(prefix="roundtrip-trt-") as tmp:
            # .pt2: torch.export.load warns about, then falls back from, any other suffix.
            path = os.path.join(tmp, "model.pt2")
            with ctx.stage("save"):
                # retrace=True re-exports the TensorRT module through the engines' meta
                # kernels; that is the path users take and where they report bugs. It retraces at
                # the example inputs: whether the saved program keeps a dynamic case's ranges is
                # what the dynamic search checks on the GPU job.
                torch_tensorrt.save(
                    compiled,
                    path,
                    output_format="exported_program",
                    arg_inputs=list(ctx.args),
                    kwarg_inputs=dict(ctx.kwargs),
                    retrace=True,
                )
            with ctx.stage("load"):
                # Not torch_tensorrt.load: it swallows torch.export.load's error and
                # raises a generic ValueError after trying torch.jit.load (_compile.py
                # L646-684). The import above registered the engine ops and types.
                loaded = torch.export.load(path)
        return loaded.module()
