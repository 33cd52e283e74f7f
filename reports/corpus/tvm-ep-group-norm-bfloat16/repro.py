# group_norm: TypeError: ir.Op(relax.nn.group_norm) expects that data must be float, but got T.bfloatN (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s0 = torch.nn.GroupNorm(1, 2, dtype=torch.bfloat16)

    def forward(self, x0):
        v0 = self.s0(x0.to(torch.bfloat16))
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.weight.copy_(torch.tensor([-2.640625, -1.65625], dtype=torch.bfloat16))
    model.s0.bias.copy_(torch.tensor([-1.59375, -1.9375], dtype=torch.bfloat16))
args, kwargs = (torch.full((1, 2), 0.0, dtype=torch.bfloat16), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
print("no error: the bug is gone")
