"""Apache TVM's PyTorch frontends (``tvm.relax.frontend.torch``).

- ``tvm-ep``: ``from_exported_program`` -> ``relax.build`` -> ``relax.VirtualMachine``.
  Returns a flat tuple of leaves; we re-assemble it with the export's ``out_spec``.
- ``tvm-fx``: ``from_fx`` on ``torch.fx.symbolic_trace``. Keeps the nesting, but
  every container comes back as a TVM Array.
- ``tvm-dynamo``: ``torch.compile(backend=relax_dynamo())``. Dynamo keeps the pytree.

The target is the run's ``tvm_target`` (``--tvm-target`` or ``ROUNDTRIP_TVM_TARGET``:
``llvm`` by default, ``cuda`` on the GPU job). Tensors cross over through DLPack.
"""

from __future__ import annotations

import inspect
from typing import Any

import torch
from hypothesis import strategies as st
from torch.utils import _pytree as pytree

from .base import (
    Backend,
    CompileContext,
    Contract,
    Recipe,
    compile_dynamic_options,
    dynamo_smallest_dynamic_size,
    mark_dynamic,
    plain_leaves,
    tensor_inputs,
)

__all__ = ["TvmDynamo", "TvmExportedProgram", "TvmFx"]


def to_torch(value):
    """TVM objects to torch: a Tensor through DLPack (copied: the VM owns the memory), an
    Array as a tuple, anything else as it came."""
    if hasattr(value, "__dlpack__"):
        return torch.from_dlpack(value).clone().cpu()
    is_array = isinstance(value, (tuple, list)) or type(value).__name__ == "Array"  # tvm_ffi's, imported lazily
    return tuple(map(to_torch, value)) if is_array else value


def reassemble(raw, out_spec):
    """(from_exported_program's flat tuple of leaves as the model's own output tree, True);
    (the outputs as they came, False) when their count does not fit the export."""
    leaves = list(raw) if isinstance(raw, tuple) else [raw]
    fits = len(leaves) == out_spec.num_leaves
    return (pytree.tree_unflatten(leaves, out_spec) if fits else raw), fits


class _TvmBackend(Backend):
    requires = ("tvm",)
    preload = ("tvm.relax.frontend.torch",)
    distribution = "apache-tvm"
    tracker = "apache/tvm"
    settings = ("tvm_target",)
    #: TVM's target string (``configure``).
    target = "llvm"

    def configure(self, config: Any) -> None:
        self.target = config.tvm_target

    def _torch_device(self) -> torch.device:
        return torch.device("cuda" if self.target.startswith("cuda") else "cpu")

    def unavailable_reason(self) -> str | None:
        reason = super().unavailable_reason()
        if reason is None and self._torch_device().type == "cuda" and not torch.cuda.is_available():
            reason = f"{self.name}: target {self.target!r} needs a CUDA GPU, and torch sees none"
        return reason

    def _device(self) -> Any:
        import tvm

        return tvm.cuda(0) if self._torch_device().type == "cuda" else tvm.cpu(0)

    def _build(self, ctx: CompileContext, mod: Any) -> Any:
        import tvm
        from tvm import relax

        with ctx.stage("build"):
            executable = relax.build(mod, target=tvm.target.Target(self.target))
            return relax.VirtualMachine(executable, self._device())

    def _to_tvm(self, value: Any) -> Any:
        import tvm

        return tvm.runtime.from_dlpack(value.detach().to(self._torch_device()).contiguous())

    def _recipe_build(self, imported: str, options: dict[str, Any]) -> list[tuple[str, str]]:
        device = "tvm.cuda(0)" if self._torch_device().type == "cuda" else "tvm.cpu()"
        lines = [f"mod = {imported}"]
        if options.get("keep_params_as_input"):
            lines.append("mod, params = relax.frontend.detach_params(mod)")
        return [("import", "\n".join(lines)),
                ("build", f"vm = relax.VirtualMachine(relax.build(mod, target={self.target!r}), {device})")]

    @staticmethod
    def _recipe_params(options: dict[str, Any]) -> str:
        return ", *params.get('main', [])" if options.get("keep_params_as_input") else ""

    def _importer_options(self) -> st.SearchStrategy[dict[str, Any]]:
        # Each shrinks to False, the importer's default.
        return st.fixed_dictionaries(
            {},
            optional={
                "keep_params_as_input": st.booleans(),
                "unwrap_unit_return_tuple": st.booleans(),
                "no_bind_return_tuple": st.booleans(),
            },
        )

    def _params(self, ctx: CompileContext, mod: Any) -> tuple[Any, list[Any]]:
        """With ``keep_params_as_input`` the weights become trailing inputs of main."""
        if not ctx.options.get("keep_params_as_input"):
            return mod, []
        from tvm import relax

        mod, params = relax.frontend.detach_params(mod)
        return mod, list(params.get("main", []))


def _on_device(backend: _TvmBackend) -> str:
    """The reproducer's line that moves the inputs to the target's device, if not the CPU."""
    return "inputs = [t.cuda().contiguous() for t in inputs]\n" if backend._torch_device().type == "cuda" else ""


def _keywords(options: dict[str, Any]) -> str:
    return "".join(f", {k}={v!r}" for k, v in sorted(options.items()))


def _tvm_imports(importer: str, *more: str) -> str:
    return "\n".join([*more, "import tvm", "from tvm import relax",
                      f"from tvm.relax.frontend.torch import {importer}"])


def flat_tensor_module(model, args, kwargs):
    """(a module whose forward takes the tensors of the inputs' tree as positional
    arguments and calls ``model`` with the whole tree rebuilt, the tensors in order):
    from_fx describes each placeholder by shape and dtype, so a tree, ``None`` or a Python
    flag cannot be one. The rest of the tree is a constant of the traced graph, as
    torch.export specialises it."""
    leaves, spec = pytree.tree_flatten((args, kwargs))
    tensors = [i for i, leaf in enumerate(leaves) if isinstance(leaf, torch.Tensor)]

    class FlatInputs(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def call(self, inputs):
            tree = list(leaves)
            for i, tensor in zip(tensors, inputs):
                tree[i] = tensor
            call_args, call_kwargs = pytree.tree_unflatten(tree, spec)
            return self.model(*call_args, **call_kwargs)

    # One named parameter per tensor: fx makes a placeholder of each (not of *args).
    names = ", ".join(f"input{i}" for i in range(len(tensors)))
    namespace = {}
    exec(f"def forward(self, {names}):\n    return self.call([{names}])", namespace)  # noqa: S102
    FlatInputs.forward = namespace["forward"]
    return FlatInputs(), [leaves[i] for i in tensors]


def _traces_itself(ctx: CompileContext) -> bool:
    """from_fx traces the model itself where every argument the call passes is a tensor, as
    its users do (``torch.fx.symbolic_trace(model)``: a placeholder of each of forward's
    parameters, those with a default too), else ``flat_tensor_module``."""
    return all(isinstance(a, torch.Tensor) for a in (*ctx.args, *ctx.kwargs.values()))


def _placeholder_inputs(ctx: CompileContext) -> list[torch.Tensor]:
    """The tensors the traced module's placeholders take, in their order: forward's
    parameters' where the model itself is traced (a call by keyword need not follow it:
    ``model(attention_mask=m, input_ids=i)``), else the inputs' tree's."""
    if _traces_itself(ctx):
        bound = inspect.signature(ctx.model.forward).bind(*ctx.args, **ctx.kwargs).arguments
        return [t for t in bound.values() if isinstance(t, torch.Tensor)]
    return [leaf for leaf in pytree.tree_leaves((ctx.args, ctx.kwargs)) if isinstance(leaf, torch.Tensor)]


def _traced_module(ctx: CompileContext) -> tuple[torch.nn.Module, list[torch.Tensor]]:
    """What from_fx traces (``_traces_itself``), and the tensors its placeholders take."""
    if _traces_itself(ctx):
        return ctx.model, _placeholder_inputs(ctx)
    return flat_tensor_module(ctx.model, ctx.args, ctx.kwargs)


class TvmExportedProgram(_TvmBackend):
    name = "tvm-ep"
    contract = Contract.FLAT
    mutation = ("dropped, as documented: from_exported_program returns only the user outputs ('Only user-facing "
                "outputs should be returned', tvm/relax/frontend/torch/exported_program_translator.py, "
                "ExportedProgramImporter.from_exported_program) and binds buffers as constants")
    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        return Recipe((
            ("export", "exported = torch.export.export(model, args, kwargs)"),
            *self._recipe_build(f"from_exported_program(exported{_keywords(options)})", options),
            ("run", "inputs = tensor_inputs(exported, args, kwargs)\n" + _on_device(self) +
                    f"raw = to_torch(vm['main'](*map(tvm.runtime.from_dlpack, inputs){self._recipe_params(options)}))\n"
                    "actual = reassemble(raw, exported.call_spec.out_spec)[0]  # flat: re-assembled as a user would"),
        ), _tvm_imports("from_exported_program", "from torch.utils import _pytree as pytree"),
            (to_torch, reassemble, tensor_inputs))

    def plain_recipe(self, options: dict[str, Any], inputs: tuple[torch.Tensor, ...], output: Any,
                     kind: str) -> Recipe | None:
        if options.get("unwrap_unit_return_tuple") or options.get("no_bind_return_tuple"):
            return None  # what the VM returns is then the options' business: the general recipe
        if kind == "leaf_type" or not plain_leaves((inputs, output), bfloat16=True):
            return None  # a leaf the VM returns as no tensor (a shape, an int) needs the adapter's to_torch
        unflatten = "actual = pytree.tree_unflatten(raw, exported.call_spec.out_spec)"
        if kind == "arity":  # as the adapter does: the outputs as they come when they are not as many as eager's
            unflatten = ("out_spec = exported.call_spec.out_spec\n"
                         "actual = pytree.tree_unflatten(raw, out_spec) if len(raw) == out_spec.num_leaves else tuple(raw)")
        return Recipe((
            ("export", "exported = torch.export.export(model, args, kwargs)"),
            *self._recipe_build(f"from_exported_program(exported{_keywords(options)})", options),
            ("run", "inputs = pytree.tree_leaves((args, kwargs))\n" + _on_device(self) +
                    f"raw = [torch.from_dlpack(t).cpu() for t in vm['main'](*map(tvm.runtime.from_dlpack, inputs)"
                    f"{self._recipe_params(options)})]\n" + unflatten),
        ), _tvm_imports("from_exported_program", "from torch.utils import _pytree as pytree"))

    def option_strategy(self) -> st.SearchStrategy[dict[str, Any]]:
        return self._importer_options().flatmap(
            lambda opts: st.fixed_dictionaries({}, optional={"run_ep_decomposition": st.just(False)}).map(
                lambda more: {**opts, **more}
            )
        )

    def compile(self, ctx: CompileContext) -> Any:
        from tvm.relax.frontend.torch import from_exported_program

        exported = ctx.exported()
        with ctx.stage("import"):
            mod = from_exported_program(exported, **ctx.options)
            mod, params = self._params(ctx, mod)
        return self._build(ctx, mod), params, exported

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        vm, params, exported = compiled
        call_spec = exported.call_spec
        inputs = [self._to_tvm(t) for t in tensor_inputs(exported, ctx.args, ctx.kwargs)]
        raw = to_torch(vm["main"](*inputs, *params))
        tree, fits = reassemble(raw, call_spec.out_spec)
        if not fits:
            leaves = len(raw) if isinstance(raw, tuple) else 1
            ctx.notes.append(f"returned {leaves} leaves, the export's out_spec has {call_spec.out_spec.num_leaves}")
            return raw
        ctx.notes.append("flat tuple of leaves re-assembled with out_spec")
        return tree


#: How a reproducer traces a model of tensor arguments for ``from_fx``.
_TRACE = ("graph_module = torch.fx.symbolic_trace(model)\n"
          "inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order")


class TvmFx(_TvmBackend):
    name = "tvm-fx"
    contract = Contract.NESTING
    dynamic = ""  # from_fx takes one (shape, dtype) per input: static only
    mutation = ("undocumented: from_fx rejects __setitem__, add_ and mul_ ('Unsupported function target'); the "
                "in-place ops it maps (copy_, index_put_, fill_) become new values, never written back")

    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        trace = ("flat, inputs = flat_tensor_module(model, args, kwargs)  # the placeholders: the input tensors\n"
                 "graph_module = torch.fx.symbolic_trace(flat)") if input_trees else _TRACE
        return Recipe((
            ("trace", trace),
            *self._recipe_build("from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs]"
                                f"{_keywords(options)})", options),
            ("run", _on_device(self) + "actual = to_torch(vm['main'](*map(tvm.runtime.from_dlpack, inputs)"
                    f"{self._recipe_params(options)}))"),
        ), _tvm_imports("from_fx", "from torch.utils import _pytree as pytree"), (to_torch, flat_tensor_module))

    def plain_recipe(self, options: dict[str, Any], inputs: tuple[torch.Tensor, ...], output: Any,
                     kind: str) -> Recipe | None:
        if options.get("unwrap_unit_return_tuple") or options.get("no_bind_return_tuple") or kind in ("arity", "leaf_type"):
            return None
        call = f"vm['main'](*map(tvm.runtime.from_dlpack, inputs){self._recipe_params(options)})"
        if isinstance(output, torch.Tensor):
            run = f"actual = torch.from_dlpack({call}).cpu()"
        elif type(output) is tuple and all(isinstance(t, torch.Tensor) for t in output):  # a TVM Array of tensors
            run = f"actual = tuple(torch.from_dlpack(t).cpu() for t in {call})"
        else:
            return None  # nested: the adapter's to_torch walks the Arrays
        return Recipe((
            ("trace", _TRACE),
            *self._recipe_build("from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs]"
                                f"{_keywords(options)})", options),
            ("run", _on_device(self) + run),
        ), _tvm_imports("from_fx"))

    def option_strategy(self) -> st.SearchStrategy[dict[str, Any]]:
        return self._importer_options()

    def compile(self, ctx: CompileContext) -> Any:
        from tvm.relax.frontend.torch import from_fx

        flat, inputs = _traced_module(ctx)
        with ctx.stage("trace"):
            graph_module = torch.fx.symbolic_trace(flat)
        returned = graph_module.graph.output_node().args[0]
        if ctx.options.get("unwrap_unit_return_tuple") and isinstance(returned, (tuple, list)) and len(returned) == 1:
            # from_fx's output node: `if unwrap_unit_return_tuple and len(args[0]) == 1`, its documented option
            ctx.notes.append("unwrap_unit_return_tuple: the unit tuple or list is returned bare")
        input_info = [(tuple(t.shape), str(t.dtype).removeprefix("torch.")) for t in inputs]
        with ctx.stage("import"):
            mod = from_fx(graph_module, input_info, **ctx.options)
            mod, params = self._params(ctx, mod)
        return self._build(ctx, mod), params

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        vm, params = compiled
        inputs = [self._to_tvm(t) for t in _placeholder_inputs(ctx)]
        return to_torch(vm["main"](*inputs, *params))


class TvmDynamo(_TvmBackend):
    name = "tvm-dynamo"
    contract = Contract.EXACT
    mutation = "written back: torch.compile's promise (relax_dynamo's own documentation says nothing)"
    dynamic = "torch._dynamo.mark_dynamic on the declared dims, or torch.compile(dynamic=True) (drawn)"

    def dynamic_option_strategy(self) -> st.SearchStrategy[dict[str, Any]]:
        return compile_dynamic_options()

    def smallest_dynamic_size(self, options: dict[str, Any]) -> int:
        return dynamo_smallest_dynamic_size(options)

    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        dynamic = ", dynamic=True" if options.get("dynamic") else ""
        return Recipe((("compile-on-call",
                        f"actual = torch.compile(model, backend=relax_dynamo(){dynamic})(*args, **kwargs)"),),
                      "from tvm.relax.frontend.torch import relax_dynamo")

    def compile(self, ctx: CompileContext) -> Any:
        from tvm.relax.frontend.torch import relax_dynamo

        torch._dynamo.reset()  # no cache or recompile limit carried over between cases
        model = ctx.model.to(self._torch_device())
        dynamic = True if ctx.options.get("dynamic") else None
        return torch.compile(model, backend=relax_dynamo(), fullgraph=False, dynamic=dynamic)

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        device = self._torch_device()
        args, kwargs = pytree.tree_map_only(torch.Tensor, lambda t: t.to(device), (ctx.args, ctx.kwargs))
        if not ctx.options.get("dynamic"):
            mark_dynamic(ctx, (args, kwargs))
        # torch.compile compiles lazily, on the first call (and again on a recompilation).
        with ctx.stage("compile-on-call"):
            return compiled(*args, **kwargs)
