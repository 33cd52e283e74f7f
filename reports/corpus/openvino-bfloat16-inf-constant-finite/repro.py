# isfinite: values: bool (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
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
    def forward(self, x0):
        v0 = torch.isfinite(x0)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor([float("-inf"), 0.0], dtype=torch.bfloat16), ), {}
expected = model(*args, **kwargs)
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
actual = reassemble(infer(compiled, exported, args, kwargs), exported)[0]  # re-assembled
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("openvino:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True)
