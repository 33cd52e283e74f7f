# input: ValueError: Cannot determine shape and dtype for input "kN" (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, t0, k0):
        x0 = t0[0]
        v0 = x0
        return v0


model = Model().eval()
x0 = torch.tensor(0.0, dtype=torch.float32)
args, kwargs = ((x0, ), None, ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
print("no error: the bug is gone")
