# mask_softmax: values: float64 NaN lost (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import openvino
from torch.utils import _pytree as pytree


class Model(torch.nn.Module):
    def forward(self, x0, x1):
        v0 = x0.masked_fill(x1, float("-inf")).softmax(-1)
        return v0


model = Model().eval()
args, kwargs = (torch.full((2,), 0.0, dtype=torch.float64), torch.full((2,), True, dtype=torch.bool), ), {}
expected = model(*args, **kwargs)
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
names = {n for port in compiled.inputs for n in port.get_names()}
feeds = {n: t.numpy() for n, t in zip(exported.graph_signature.user_inputs, pytree.tree_leaves((args, kwargs))) if n in names}
raw = [torch.from_numpy(v.copy()) for v in compiled(feeds).to_tuple()]
out_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs
actual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)
torch.set_printoptions(precision=17)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("openvino:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=8.881784197001252e-16, atol=2.2250738585072014e-308)
