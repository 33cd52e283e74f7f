# flatten, isnan, relu, where: shape (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from torch.export import Dim
import openvino
from torch.utils import _pytree as pytree


def to_ov(tensor):
    import openvino

    tensor = tensor.detach().cpu().contiguous()
    if tensor.dtype == torch.bfloat16:
        return openvino.Tensor(tensor.view(torch.int16).numpy(), list(tensor.shape), openvino.Type.bf16)
    return openvino.Tensor(tensor.numpy())


def from_ov(tensor):
    import openvino

    data = tensor.data.copy()
    if tensor.element_type == openvino.Type.bf16:  # numpy has no bfloat16: raw 16-bit words
        return torch.from_numpy(data.view("int16")).view(torch.bfloat16)
    return torch.from_numpy(data)


def infer(compiled, exported, args, kwargs):
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
    from torch.export.graph_signature import ConstantArgument, OutputKind

    specs = [s for s in exported.graph_signature.output_specs if s.kind == OutputKind.USER_OUTPUT]
    raw = raw[len(exported.graph_signature.output_specs) - len(specs):]  # buffer mutations come first
    slots = [not (isinstance(s.arg, ConstantArgument) and s.arg.value is None) for s in specs]
    if len(raw) != sum(slots):
        return tuple(raw), False
    outputs = iter(raw)
    return pytree.tree_unflatten([next(outputs) if s else None for s in slots], exported.call_spec.out_spec), True


class Model(torch.nn.Module):
    def forward(self, x0, x1):
        v0 = torch.isnan(x0)
        v1 = torch.where(x1, v0, x0)
        v2 = torch.relu(v1)
        v3 = torch.flatten(v2, start_dim=1)
        v4 = torch.relu(v3)
        return [{'a': v4}]


model = Model().eval()
args, kwargs = (torch.empty((0,), dtype=torch.float32), torch.empty((2, 1, 0), dtype=torch.bool), ), {}
s0 = Dim('s0', min=2, max=3)
dynamic_shapes = {'x0': None, 'x1': {0: s0}}
eager_model = copy.deepcopy(model)
exported = torch.export.export(model, args, kwargs, dynamic_shapes=dynamic_shapes)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
eager_args, eager_kwargs = copy.deepcopy((args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
actual = reassemble(infer(compiled, exported, args, kwargs), exported)[0]  # re-assembled
e, a = expected[0]['a'], actual[0]['a']
print("eager:   ", e.dtype, tuple(e.shape), e)
print("openvino:", a.dtype, tuple(a.shape), a)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
