# shape: leaf_type: int 2 -> Tensor (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import copy

import torch
from torch.export import Dim
import onnxruntime
from torch.utils import _pytree as pytree


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
feeds = {i.name: t.numpy() for i, t in zip(session.get_inputs(), pytree.tree_leaves((args, kwargs)))}
raw = [torch.from_numpy(v) for v in session.run(None, feeds)]
out_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs
actual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)
print("eager:   ", expected)
print("onnx:    ", actual)
e, a = expected, actual
assert type(a) is type(e) and list(getattr(a, 'keys', list)()) == list(getattr(e, 'keys', list)()), f'{type(e).__name__} expected, got {type(a).__name__}'
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
