# lstm: Fail: [ONNXRuntimeError] : N : FAIL : Non-zero status code returned while running LSTM node. Name:'… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import copy
import torch
from torch.utils import _pytree as pytree
import onnxruntime


torch.manual_seed(0)
model = torch.nn.LSTM(input_size=4, hidden_size=8, num_layers=1, bidirectional=False, batch_first=False, proj_size=4).eval().to(torch.float32)
g = torch.Generator().manual_seed(0)
x = torch.randn((1, 1, 4), generator=g).to(torch.float32)
args, kwargs = (x,), {}
expected = model(*copy.deepcopy(args), **copy.deepcopy(kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
feeds = {i.name: t.numpy() for i, t in zip(session.get_inputs(), pytree.tree_leaves((args, kwargs)))}
raw = [torch.from_numpy(v) for v in session.run(None, feeds)]
out_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs
actual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)
print("no error: the bug is gone")
