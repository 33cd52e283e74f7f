# clamp: BackendCompilerFailed: ValueError: Check failed: (value == N || value == N) is false: N exceeds ran… (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.clamp(max=2)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(False, dtype=torch.bool), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("no error: the bug is gone")
