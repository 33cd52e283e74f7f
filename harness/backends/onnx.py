"""``torch.onnx.export(..., dynamo=True)`` run by ONNX Runtime on the CPU.

The exporter (torch's own, built on onnxscript) converts the case's
``torch.export`` program; ``onnxruntime.InferenceSession`` runs the ONNX model with
the ``CPUExecutionProvider``. An ONNX graph has flat inputs and flat outputs, so the
adapter does what a user of the exported model has to do by hand:

- inputs: the export's flattened user inputs, fed under the ONNX graph's input names
  (``session.get_inputs()``), in order. The names are not always the placeholders':
  an input that is also returned comes in as ``<name>_orig`` (an Identity node feeds
  the output).
- outputs: re-assembled with the ExportedProgram's ``out_spec``. The exporter drops
  ``None`` outputs from the graph (``_core._handle_output_node`` logs "The output is
  ignored in the exported graph"), so each ``None`` the export's output specs name is
  put back where it was; the adapter notes that. A Python scalar output (a constant,
  ``x.shape[d]``) makes the exporter fail (``'int' object has no attribute 'name'``).
- dtypes: tensors cross as numpy arrays; bfloat16, which numpy lacks, crosses as raw
  16-bit words tagged with ONNX's BFLOAT16 type, and comes back through DLPack.

``ctx.exported()`` is shared with the other export-based backends;
``torch.onnx.export`` accepts an ExportedProgram as it is (it runs its own
decompositions on it).

``torch.onnx.export`` builds its table of ATen-to-ONNX functions from torchlib on every
call (about 0.35 s, most of a small model's export), the same table each time: the export
only reads it (only a ``custom_translation_table``, which the adapter never passes, adds
to it). The adapter builds it once per process (``_registry_built_once``).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import torch
from torch.utils import _pytree as pytree

from .base import Backend, CompileContext, Contract, Recipe, plain_leaves, tensor_inputs

__all__ = ["OnnxRuntime"]


def to_ort(tensor):
    """A torch tensor as an ONNX Runtime value (bfloat16 as raw 16-bit words)."""
    import onnxruntime

    tensor = tensor.detach().cpu().contiguous()
    if tensor.dtype == torch.bfloat16:
        return onnxruntime.OrtValue.ortvalue_from_numpy_with_onnx_type(
            tensor.view(torch.uint16).numpy(), onnx_element_type=16)
    return onnxruntime.OrtValue.ortvalue_from_numpy(tensor.numpy())


def from_ort(value):
    """An ONNX Runtime value as a torch tensor that owns its memory."""
    if value.element_type() == 16:  # bfloat16: numpy has none, DLPack does
        return torch.from_dlpack(value).clone()
    return torch.from_numpy(value.numpy().copy())


def user_output_slots(exported):
    """One entry per user output of the export: None for a None output (the exporter
    drops those from the ONNX graph), True for one the graph returns, and the number of
    leading non-user graph outputs (buffer mutations)."""
    from torch.export.graph_signature import ConstantArgument, OutputKind

    specs = exported.graph_signature.output_specs
    skipped = sum(1 for s in specs if s.kind != OutputKind.USER_OUTPUT)
    slots = [None if isinstance(s.arg, ConstantArgument) and s.arg.value is None else True
             for s in specs if s.kind == OutputKind.USER_OUTPUT]
    return slots, skipped


def session_feeds(session, exported, args, kwargs):
    """The user inputs the export takes as tensors, flattened by its in_spec and keyed by
    the ONNX graph's input names, in order (the export specialised the rest: None, flags,
    Python numbers are constants of the graph, not inputs)."""
    flat = tensor_inputs(exported, args, kwargs)
    names = [i.name for i in session.get_inputs()]
    if len(names) != len(flat):
        raise ValueError(f"the ONNX graph has {len(names)} inputs ({names}), the export {len(flat)}")
    return {name: to_ort(t) for name, t in zip(names, flat, strict=True)}


def reassemble(raw, exported):
    """(the flat ONNX outputs as the model's own output tree, with None leaves put back,
    True); (the flat outputs as a tuple, False) when their count does not fit the export."""
    slots, skipped = user_output_slots(exported)
    raw = raw[skipped:]
    if len(raw) != sum(1 for s in slots if s is not None):
        return tuple(raw), False
    outputs = iter(raw)
    leaves = [None if s is None else next(outputs) for s in slots]
    return pytree.tree_unflatten(leaves, exported.call_spec.out_spec), True


def _with_root_cause_first(exc: Exception) -> Exception:
    """The exporter's errors all open with the same advice ("Failed to convert the
    exported program to an ONNX model. This is step 3/3 ..."), which would give every
    exporter bug one signature. Its "## Exception summary" names the root cause first:
    the same error, re-raised with that line first and the full message after it."""
    message = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    _, found, summary = message.partition("## Exception summary")
    cause = next((line.strip() for line in summary.splitlines() if line.strip()), "") if found else ""
    cause = re.sub(r"^<class '(?:[\w.]+\.)?(\w+)'>", r"\1", cause)
    if not cause:
        return exc
    try:
        return type(exc)(f"{cause}\n{message}")
    except Exception:  # an exception type that takes other arguments: keep it as it is
        return exc


def _registry_built_once() -> None:
    """Make ``ONNXRegistry.from_torchlib`` build its table once per opset and process."""
    from torch.onnx._internal.exporter import _registration

    registry = _registration.ONNXRegistry
    if not hasattr(registry, "_built_once"):
        build = functools.cache(registry.from_torchlib.__func__)
        registry.from_torchlib = classmethod(lambda cls, *args, **kwargs: build(cls, *args, **kwargs))
        registry._built_once = build


class OnnxRuntime(Backend):
    name = "onnx"
    contract = Contract.FLAT
    mutation = ("undocumented: the exporter keeps only the user outputs (torch/onnx/_internal/exporter/_core.py, "
                "'TODO: Decide if we should keep mutated buffers as inputs/outputs'); buffers become initializers")
    requires = ("onnx", "onnxscript", "onnxruntime")
    preload = ("onnxscript",)
    distribution = "onnxruntime"
    packages = ("onnxscript", "onnx")
    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        return Recipe((
            ("export", "exported = torch.export.export(model, args, kwargs)"),
            ("onnx-export", "program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)"),
            ("session", "session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), "
                        "providers=['CPUExecutionProvider'])"),
            ("run", "raw = [from_ort(v) for v in session.run_with_ort_values(None, session_feeds(session, exported, "
                    "args, kwargs))]\nactual = reassemble(raw, exported)[0]  # flat: re-assembled as a user would"),
        ), "import onnxruntime\nfrom torch.utils import _pytree as pytree",
            (to_ort, from_ort, user_output_slots, tensor_inputs, session_feeds, reassemble))

    def plain_recipe(self, options: dict[str, Any], inputs: tuple[torch.Tensor, ...], output: Any,
                     kind: str) -> Recipe | None:
        # The slice of the user's outputs below would hide an output too many or too few.
        if kind == "arity" or not plain_leaves(inputs) or not plain_leaves(output, numbers=True):
            return None
        return Recipe((
            ("export", "exported = torch.export.export(model, args, kwargs)"),
            ("onnx-export", "program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)"),
            ("session", "session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), "
                        "providers=['CPUExecutionProvider'])"),
            ("run", "feeds = {i.name: t.numpy() for i, t in zip(session.get_inputs(), pytree.tree_leaves((args, kwargs)))}"
                    "\nraw = [torch.from_numpy(v) for v in session.run(None, feeds)]"
                    "\nout_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs"
                    "\nactual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)"),
        ), "import onnxruntime\nfrom torch.utils import _pytree as pytree")

    def version(self) -> str:
        from importlib.metadata import version

        return f"torch {version('torch')}, onnxscript {version('onnxscript')}, onnxruntime {version('onnxruntime')}"

    def compile(self, ctx: CompileContext) -> Any:
        import onnxruntime

        _registry_built_once()
        exported = ctx.exported()
        with ctx.stage("onnx-export"):
            try:
                program = torch.onnx.export(exported, ctx.args, kwargs=ctx.kwargs, dynamo=True, verbose=False)
            except Exception as exc:
                raise _with_root_cause_first(exc) from exc
            model_bytes = program.model_proto.SerializeToString()
        with ctx.stage("session"):
            options = onnxruntime.SessionOptions()
            options.log_severity_level = 3  # errors only: warnings go nowhere useful
            # One thread: the suite runs one case per core already (pytest -n).
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            session = onnxruntime.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])
        return session, exported

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        session, exported = compiled
        feeds = session_feeds(session, exported, ctx.args, ctx.kwargs)
        raw = [from_ort(v) for v in session.run_with_ort_values(None, feeds)]
        tree, fits = reassemble(raw, exported)
        if not fits:
            ctx.notes.append(f"returned {len(raw)} outputs, the export's out_spec has "
                             f"{exported.call_spec.out_spec.num_leaves} leaves")
            return tree
        ctx.notes.append("flat ONNX outputs re-assembled with out_spec")
        if any(slot is None for slot in user_output_slots(exported)[0]):
            ctx.notes.append("None outputs dropped from the ONNX graph, put back from the export's output specs")
        return tree
