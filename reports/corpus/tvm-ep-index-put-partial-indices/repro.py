# setitem_list: ValueError: IndexPut requires the number of index tensors (N) to match the data tensor dimensions (… (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.clone()
        v0[[-1]] = 2.0
        return v0


model = Model().eval()
args, kwargs = (torch.full((2, 3), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
print("no error: the bug is gone")
