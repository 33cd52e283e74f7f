# interpolate: ValueError: index_tensor: cannot broadcast index shapes. Mismatch at axis N: T.intN(N) vs T.intN(N) (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.nn.functional.interpolate(x0, scale_factor=2, mode='nearest')
        return v0


model = Model().eval()
args, kwargs = (torch.full((1, 3, 1, 1, 1), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
print("no error: the bug is gone")
