# argsort: WorkerDied: the worker process died: signal SIGSEGV @argsort on float32 (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import os, signal, subprocess, sys

if "REPRO_CHILD" not in os.environ:  # a native crash kills its process: run in a child, say how it ended
    code = subprocess.run([sys.executable, __file__], env={**os.environ, "REPRO_CHILD": "1"}, timeout=600).returncode
    sys.exit(code and f"the frontend's process ended with {signal.Signals(-code).name if code < 0 else f'exit code {code}'}")

import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.argsort(x0, dim=-1, stable=True)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("no error: the bug is gone")
