# buffer_update: state mutation_lost 0-d (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
import openvino
from torch.utils import _pytree as pytree


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((), dtype=torch.float32))

    def forward(self, x0):
        self.s0.add_(x0)
        v0 = self.s0
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(-2.6336803436279297, dtype=torch.float32))
args, kwargs = (torch.tensor(1.0, dtype=torch.float32), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
names = {n for port in compiled.inputs for n in port.get_names()}
feeds = {n: t.numpy() for n, t in zip(exported.graph_signature.user_inputs, pytree.tree_leaves((args, kwargs))) if n in names}
raw = [torch.from_numpy(v.copy()) for v in compiled(feeds).to_tuple()]
out_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs
actual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)
print("eager:   ", dict(eager_model.named_buffers()), eager_args, eager_kwargs)
print("openvino:", dict(model.named_buffers()), args, kwargs)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), (dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True, rtol=0.0001, atol=1e-05)
