"""OpenVINO: ``openvino.convert_model`` -> ``openvino.compile_model(..., "CPU")``.

``convert_model`` is given the case's ``torch.export`` program (``ctx.exported()``,
shared with the other export-based backends), not the ``nn.Module``. Both are
documented inputs; the module path traces with ``torch.jit.trace``, which gives no
``out_spec`` to rebuild the user's output tree from and cannot trace most of the
trees this suite draws (dicts, ``None``, namedtuples), so it would test TorchScript
more than OpenVINO. The ExportedProgram path is the one that sees the graph the
other frontends see.

A compiled model has flat inputs and outputs, so the adapter does what a user does
by hand: it feeds the export's flattened user inputs by their names (the export's
placeholder names, which ``convert_model`` keeps; an input the graph does not use
may be dropped, so only the inputs the compiled model has are fed), and re-assembles
the outputs with the export's ``out_spec``. ``None`` outputs are not graph outputs:
they are put back from the export's output specs, and the adapter notes it.

Precision: the CPU plugin's default ``EXECUTION_MODE_HINT`` is ``PERFORMANCE``, in
which ``INFERENCE_PRECISION_HINT`` is hardware-dependent (``bf16`` on CPUs with
AVX512-BF16/AMX, this machine included): a float32 model then runs its matmuls in
bfloat16, by design. The suite compiles with ``EXECUTION_MODE_HINT=ACCURACY``, the
documented way to ask the device not to lower floating-point precision, so that a
case gives the same answer on every CPU and a value that differs is a finding, not
the performance trade-off (OpenVINO docs, "Precision Control"). Not drawn as an
option: a verdict's signature does not carry the options, so the trade-off could not
be told apart from a real wrong value.
"""

from __future__ import annotations

from typing import Any

import torch
from torch.utils import _pytree as pytree

from .base import Backend, CompileContext, Contract, Recipe, plain_leaves

__all__ = ["CONFIG", "OpenVino"]

#: Passed to ``compile_model``: see the module docstring. One inference thread: the
#: suite already runs one case per core (pytest -n).
CONFIG = {"EXECUTION_MODE_HINT": "ACCURACY", "INFERENCE_NUM_THREADS": 1}


def to_ov(tensor):
    """A torch tensor as an OpenVINO tensor (bfloat16 as raw 16-bit words)."""
    import openvino

    tensor = tensor.detach().cpu().contiguous()
    if tensor.dtype == torch.bfloat16:
        return openvino.Tensor(tensor.view(torch.int16).numpy(), list(tensor.shape), openvino.Type.bf16)
    return openvino.Tensor(tensor.numpy())


def from_ov(tensor):
    """An OpenVINO tensor as a torch tensor that owns its memory."""
    import openvino

    data = tensor.data.copy()
    if tensor.element_type == openvino.Type.bf16:  # numpy has no bfloat16: raw 16-bit words
        return torch.from_numpy(data.view("int16")).view(torch.bfloat16)
    return torch.from_numpy(data)


def infer(compiled, exported, args, kwargs):
    """Run the compiled model on the flattened user inputs, fed by name; the flat outputs."""
    from torch.export.graph_signature import InputKind
    from torch.fx._pytree import tree_flatten_spec

    names = [s.arg.name for s in exported.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    flat = dict(zip(names, tree_flatten_spec((args, kwargs), exported.call_spec.in_spec), strict=True))
    request = compiled.create_infer_request()
    for position, port in enumerate(compiled.inputs):
        # A port has several names; an input also returned as an output may be named
        # after that output: then it is fed by position (the graph keeps the user's order).
        name = next((n for n in port.get_names() if n in flat), names[position])
        request.set_tensor(port, to_ov(flat[name]))
    request.infer()
    return [from_ov(request.get_tensor(port)) for port in compiled.outputs]


def reassemble(raw, exported):
    """(the flat outputs as the model's own output tree, with None leaves put back, True);
    (the flat outputs as a tuple, False) when their count does not fit the export."""
    from torch.export.graph_signature import ConstantArgument, OutputKind

    specs = [s for s in exported.graph_signature.output_specs if s.kind == OutputKind.USER_OUTPUT]
    raw = raw[len(exported.graph_signature.output_specs) - len(specs):]  # buffer mutations come first
    slots = [not (isinstance(s.arg, ConstantArgument) and s.arg.value is None) for s in specs]
    if len(raw) != sum(slots):
        return tuple(raw), False
    outputs = iter(raw)
    return pytree.tree_unflatten([next(outputs) if s else None for s in slots], exported.call_spec.out_spec), True


class OpenVino(Backend):
    name = "openvino"
    contract = Contract.FLAT
    mutation = ("undocumented: convert_model(ExportedProgram) keeps only the user outputs; buffers become "
                "constants")
    requires = ("openvino",)
    distribution = "openvino"
    tracker = "openvinotoolkit/openvino"
    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        return Recipe((
            ("export", "exported = torch.export.export(model, args, kwargs)"),
            ("convert", "converted = openvino.convert_model(exported)"),
            ("compile-model", f"compiled = openvino.compile_model(converted, 'CPU', {CONFIG!r})"),
            ("run", "actual = reassemble(infer(compiled, exported, args, kwargs), exported)[0]  # re-assembled"),
        ), "import openvino\nfrom torch.utils import _pytree as pytree", (to_ov, from_ov, infer, reassemble))

    def plain_recipe(self, options: dict[str, Any], inputs: tuple[torch.Tensor, ...], output: Any,
                     kind: str) -> Recipe | None:
        # The slice of the user's outputs below would hide an output too many or too few.
        if kind == "arity" or not plain_leaves(inputs, bfloat16=True) or not plain_leaves(output, numbers=True):
            return None
        run, imports = [], "import openvino\nfrom torch.utils import _pytree as pytree"
        if inputs:  # fed by the export's input names: convert_model may drop an input the graph does not use
            feed = "t.numpy()"
            run.append("names = {n for port in compiled.inputs for n in port.get_names()}")
            if any(t.dtype == torch.bfloat16 for t in inputs):  # numpy has none: an openvino.Tensor of its 16-bit words
                feed = "bfloat16(t) if t.dtype == torch.bfloat16 else t.numpy()"
                run.append("bfloat16 = lambda t: openvino.Tensor(t.view(torch.int16).numpy(), list(t.shape), "
                           "openvino.Type.bf16)")
            run.append(f"feeds = {{n: {feed} for n, t in zip(exported.graph_signature.user_inputs, "
                       "pytree.tree_leaves((args, kwargs))) if n in names}")
        call = "compiled(feeds)" if inputs else "compiled({})"
        if not kind:  # a crash or a hang: the call is the reproducer's end
            run.append(call)
            imports = imports if inputs else "import openvino"
        else:
            run += [f"raw = [torch.from_numpy(v.copy()) for v in {call}.to_tuple()]",
                    "out_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs",
                    "actual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)"]
        return Recipe((
            ("export", "exported = torch.export.export(model, args, kwargs)"),
            ("convert", "converted = openvino.convert_model(exported)"),
            ("compile-model", f"compiled = openvino.compile_model(converted, 'CPU', {CONFIG!r})"),
            ("run", "\n".join(run)),
        ), imports)

    def compile(self, ctx: CompileContext) -> Any:
        import openvino

        exported = ctx.exported()
        with ctx.stage("convert"):
            model = openvino.convert_model(exported)
        with ctx.stage("compile-model"):
            compiled = openvino.compile_model(model, "CPU", dict(CONFIG))
        return compiled, exported

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        compiled_model, exported = compiled
        raw = infer(compiled_model, exported, ctx.args, ctx.kwargs)
        tree, fits = reassemble(raw, exported)
        if not fits:
            ctx.notes.append(f"returned {len(raw)} outputs, the export's out_spec has "
                             f"{exported.call_spec.out_spec.num_leaves} leaves")
            return tree
        ctx.notes.append("flat outputs re-assembled with out_spec")
        if any(leaf is None for leaf in pytree.tree_leaves(tree)):
            ctx.notes.append("None outputs are not graph outputs: put back from the export's output specs")
        return tree
