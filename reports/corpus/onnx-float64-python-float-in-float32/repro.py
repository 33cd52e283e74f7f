# clamp: values: float64 (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch
import onnxruntime
from torch.utils import _pytree as pytree


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.clamp(min=0.1)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(-0.0, dtype=torch.float64), ), {}
expected = model(*args, **kwargs)
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
feeds = {i.name: t.numpy() for i, t in zip(session.get_inputs(), pytree.tree_leaves((args, kwargs)))}
raw = [torch.from_numpy(v) for v in session.run(None, feeds)]
out_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs
actual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)
torch.set_printoptions(precision=17)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("onnx:    ", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=8.881784197001252e-16, atol=2.2250738585072014e-308)
