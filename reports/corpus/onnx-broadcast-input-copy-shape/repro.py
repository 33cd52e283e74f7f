# input_update: shape (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import copy

import torch
import onnxruntime
from torch.utils import _pytree as pytree


def to_ort(tensor):
    import onnxruntime

    tensor = tensor.detach().cpu().contiguous()
    if tensor.dtype == torch.bfloat16:
        return onnxruntime.OrtValue.ortvalue_from_numpy_with_onnx_type(
            tensor.view(torch.uint16).numpy(), onnx_element_type=16)
    return onnxruntime.OrtValue.ortvalue_from_numpy(tensor.numpy())


def from_ort(value):
    if value.element_type() == 16:  # bfloat16: numpy has none, DLPack does
        return torch.from_dlpack(value).clone()
    return torch.from_numpy(value.numpy().copy())


def user_output_slots(exported):
    from torch.export.graph_signature import ConstantArgument, OutputKind

    specs = exported.graph_signature.output_specs
    skipped = sum(1 for s in specs if s.kind != OutputKind.USER_OUTPUT)
    slots = [None if isinstance(s.arg, ConstantArgument) and s.arg.value is None else True
             for s in specs if s.kind == OutputKind.USER_OUTPUT]
    return slots, skipped


def tensor_inputs(exported, args, kwargs):
    from torch.export.graph_signature import InputKind, TensorArgument
    from torch.fx._pytree import tree_flatten_spec

    specs = [s for s in exported.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    leaves = tree_flatten_spec((args, kwargs), exported.call_spec.in_spec)
    return [leaf for spec, leaf in zip(specs, leaves, strict=True) if isinstance(spec.arg, TensorArgument)]


def session_feeds(session, exported, args, kwargs):
    flat = tensor_inputs(exported, args, kwargs)
    names = [i.name for i in session.get_inputs()]
    if len(names) != len(flat):
        raise ValueError(f"the ONNX graph has {len(names)} inputs ({names}), the export {len(flat)}")
    return {name: to_ort(t) for name, t in zip(names, flat, strict=True)}


def reassemble(raw, exported):
    slots, skipped = user_output_slots(exported)
    raw = raw[skipped:]
    if len(raw) != sum(1 for s in slots if s is not None):
        return tuple(raw), False
    outputs = iter(raw)
    leaves = [None if s is None else next(outputs) for s in slots]
    return pytree.tree_unflatten(leaves, exported.call_spec.out_spec), True


class Model(torch.nn.Module):
    def forward(self, x0, x1):
        x0.copy_(x1)
        v0 = x0
        return v0


model = Model().eval()
args, kwargs = (torch.full((2,), 0.0, dtype=torch.float32), torch.tensor(0.0, dtype=torch.float32), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
raw = [from_ort(v) for v in session.run_with_ort_values(None, session_feeds(session, exported, args, kwargs))]
actual = reassemble(raw, exported)[0]  # flat: re-assembled as a user would
e, a = expected, actual
print("eager:   ", e.dtype, tuple(e.shape), e)
print("onnx:    ", a.dtype, tuple(a.shape), a)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), (dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True, rtol=0.0001, atol=1e-05)
