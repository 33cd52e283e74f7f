# flatten, relu: shape (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from torch.export import Dim
import openvino
from torch.utils import _pytree as pytree


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.flatten(x0, start_dim=1)
        v1 = torch.relu(v0)
        return v1


model = Model().eval()
args, kwargs = (torch.empty((2, 1, 0), dtype=torch.float32), ), {}
s0 = Dim('s0', min=2, max=3)
dynamic_shapes = {'x0': {0: s0}}
eager_model = copy.deepcopy(model)
exported = torch.export.export(model, args, kwargs, dynamic_shapes=dynamic_shapes)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
eager_args, eager_kwargs = copy.deepcopy((args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
names = {n for port in compiled.inputs for n in port.get_names()}
feeds = {n: t.numpy() for n, t in zip(exported.graph_signature.user_inputs, pytree.tree_leaves((args, kwargs))) if n in names}
raw = [torch.from_numpy(v.copy()) for v in compiled(feeds).to_tuple()]
out_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs
actual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("openvino:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
