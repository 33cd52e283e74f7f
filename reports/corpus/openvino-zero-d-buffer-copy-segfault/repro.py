# buffer_update: WorkerDied: the worker process died: signal SIGSEGV @buffer_update on int8 (openvino)
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
        self.register_buffer('s0', torch.empty((), dtype=torch.int8))

    def forward(self, x0):
        self.s0.copy_(x0)
        v0 = self.s0
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(-5, dtype=torch.int8))
args, kwargs = (torch.tensor(0, dtype=torch.int8), ), {}
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
