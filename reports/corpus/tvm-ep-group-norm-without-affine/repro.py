# sample_native_group_norm: InternalError: Check failed: (n.defined()) is false: Found null pointer node while traversing AST. … (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.native_group_norm(x0.reshape(-1).repeat(2).reshape((1, 2)), None, None, 1, 2, 1, 1, 1e-05)[0].clamp(-3.0, 3.0)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
print("no error: the bug is gone")
