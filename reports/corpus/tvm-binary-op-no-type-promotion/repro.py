# arange, fmod: TypeError: Binary operators must have the same datatype for both operands.  However, R.mod(NAME, lv… (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.arange(1, dtype=torch.int64)
        v1 = torch.fmod(x0, (v0 + 1))
        return v1


model = Model().eval()
args, kwargs = (torch.tensor(0, dtype=torch.int8), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
print("no error: the bug is gone")
