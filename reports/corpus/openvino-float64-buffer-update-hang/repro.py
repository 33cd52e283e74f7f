# add_buffer, buffer_update, full: Timeout: no answer within N s @add_buffer+buffer_update+full on no input (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import os, signal, subprocess, sys

if "REPRO_CHILD" not in os.environ:  # a native crash kills its process: run in a child, say how it ended
    code = subprocess.run([sys.executable, __file__], env={**os.environ, "REPRO_CHILD": "1"}, timeout=600).returncode
    sys.exit(code and f"the frontend's process ended with {signal.Signals(-code).name if code < 0 else f'exit code {code}'}")

import copy

import torch
import openvino


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s1', torch.empty((1,), dtype=torch.float64))
        self.register_buffer('s2', torch.empty((1,), dtype=torch.float64))

    def forward(self):
        v0 = torch.full((1,), 0.5, dtype=torch.float64)
        v1 = v0 + self.s1
        self.s2.add_(v1)
        v2 = self.s2
        return v2


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s1.copy_(torch.tensor([-2.6336803516822584], dtype=torch.float64))
    model.s2.copy_(torch.tensor([-1.6526729605940975], dtype=torch.float64))
args, kwargs = (), {}
print("eager:   ", copy.deepcopy(model)(*copy.deepcopy(args), **copy.deepcopy(kwargs)))
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
compiled({})
print("no error: the bug is gone")
