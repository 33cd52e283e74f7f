# div, leaky_relu: TypeError: ir.Op(relax.nn.leakyrelu) requires the input tensor to have float dtype. However, the gi… (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.div(x0, (x0 + 1))
        v1 = torch.nn.functional.leaky_relu(v0, negative_slope=0.125)
        return v1


model = Model().eval()
args, kwargs = (torch.tensor([False], dtype=torch.bool), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
print("no error: the bug is gone")
