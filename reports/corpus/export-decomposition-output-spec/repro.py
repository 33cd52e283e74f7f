# add, buffer_update: SpecViolationError: User output NAME is not in the correct order or is not found in the exported pr… (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((1,), dtype=torch.float32))
        self.register_buffer('s1', torch.empty((1,), dtype=torch.float32))

    def forward(self, x0):
        self.s0.copy_(x0)
        v0 = self.s0
        self.s1.copy_(x0)
        v1 = self.s1
        v2 = v0 + v1
        return v2


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor([-2.6336803436279297], dtype=torch.float32))
    model.s1.copy_(torch.tensor([-1.6526730060577393], dtype=torch.float32))
args, kwargs = (torch.tensor([0.0], dtype=torch.float32), ), {}
print("eager:   ", copy.deepcopy(model)(*copy.deepcopy(args), **copy.deepcopy(kwargs)))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
print("no error: the bug is gone")
