# buffer_update: state mutation_lost 0-d (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import copy

import torch
import onnxruntime
from torch.utils import _pytree as pytree


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((), dtype=torch.float16))

    def forward(self, x0):
        self.s0.add_(x0)
        v0 = self.s0
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(-2.6328125, dtype=torch.float16))
args, kwargs = (torch.tensor(1.0, dtype=torch.float16), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
feeds = {i.name: t.numpy() for i, t in zip(session.get_inputs(), pytree.tree_leaves((args, kwargs)))}
raw = [torch.from_numpy(v) for v in session.run(None, feeds)]
out_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs
actual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)
print("eager:   ", dict(eager_model.named_buffers()), eager_args, eager_kwargs)
print("onnx:    ", dict(model.named_buffers()), args, kwargs)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.01, atol=0.01)
torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), (dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True, rtol=0.01, atol=0.01)
