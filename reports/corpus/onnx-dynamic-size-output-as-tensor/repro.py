# shape: leaf_type: int 2 -> Tensor (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import copy

import torch
from torch.export import Dim
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
    def forward(self, x0):
        v0 = x0.shape[0]
        return v0


model = Model().eval()
args, kwargs = (torch.full((2, 3), 0.0, dtype=torch.float32), ), {}
s0 = Dim('s0', min=2, max=4)
dynamic_shapes = {'x0': {0: s0}}
eager_model = copy.deepcopy(model)
exported = torch.export.export(model, args, kwargs, dynamic_shapes=dynamic_shapes)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
eager_args, eager_kwargs = copy.deepcopy((args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
raw = [from_ort(v) for v in session.run_with_ort_values(None, session_feeds(session, exported, args, kwargs))]
actual = reassemble(raw, exported)[0]  # flat: re-assembled as a user would
print("eager:   ", expected)
print("onnx:    ", actual)
e, a = expected, actual
assert type(a) is type(e) and list(getattr(a, 'keys', list)()) == list(getattr(e, 'keys', list)()), f'{type(e).__name__} expected, got {type(a).__name__}'
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
