# add_buffer, buffer_update, full, parameter: Timeout: no answer within N s @add_buffer+buffer_update+full+parameter on int32 0-size (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import os, signal, subprocess, sys

if "REPRO_CHILD" not in os.environ:  # a native crash kills its process: run in a child, say how it ended
    code = subprocess.run([sys.executable, __file__], env={**os.environ, "REPRO_CHILD": "1"}, timeout=600).returncode
    sys.exit(code and f"the frontend's process ended with {signal.Signals(-code).name if code < 0 else f'exit code {code}'}")

import copy

import torch
import openvino
from torch.utils import _pytree as pytree


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s1', torch.empty((1,), dtype=torch.float64))
        self.register_buffer('s2', torch.empty((1,), dtype=torch.float64))
        self.register_buffer('s3', torch.empty((1,), dtype=torch.float64))
        self.register_buffer('s4', torch.empty((1,), dtype=torch.float64))
        self.s5 = torch.nn.Parameter(torch.empty((), dtype=torch.float32))

    def forward(self, x0):
        v0 = torch.full((1,), 0.5, dtype=torch.float64)
        v1 = v0 + self.s1
        v2 = v1 + self.s2
        v3 = v2 + self.s3
        self.s4.add_(v3)
        v4 = self.s4
        v5 = self.s5
        return (v4, v5)


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s5.copy_(torch.tensor(-2.6336803436279297, dtype=torch.float32))
    model.s1.copy_(torch.tensor([-1.6526729605940975], dtype=torch.float64))
    model.s2.copy_(torch.tensor([-1.5944849163309638], dtype=torch.float64))
    model.s3.copy_(torch.tensor([-1.9374046353134668], dtype=torch.float64))
    model.s4.copy_(torch.tensor([0.33640833689396743], dtype=torch.float64))
args, kwargs = (torch.empty((0,), dtype=torch.int32), ), {}
print("eager:   ", copy.deepcopy(model)(*copy.deepcopy(args), **copy.deepcopy(kwargs)))
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
names = {n for port in compiled.inputs for n in port.get_names()}
feeds = {n: t.numpy() for n, t in zip(exported.graph_signature.user_inputs, pytree.tree_leaves((args, kwargs))) if n in names}
raw = [torch.from_numpy(v.copy()) for v in compiled(feeds).to_tuple()]
out_spec = exported.call_spec.out_spec  # the user's outputs come after the mutated buffers and inputs
actual = pytree.tree_unflatten(raw[len(raw) - out_spec.num_leaves:], out_spec)
print("no error: the bug is gone")
