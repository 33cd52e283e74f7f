# group_norm: InternalError: Check failed: (data_type == PrimType::Float(N) || data_type == PrimType::Float(N)) i… (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s0 = torch.nn.GroupNorm(3, 3, dtype=torch.float64)

    def forward(self, x0):
        v0 = self.s0(x0.to(torch.float64))
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.weight.copy_(torch.tensor([-1.8666238575921408, 2.9399187478592514, 1.1711730876027562], dtype=torch.float64))
    model.s0.bias.copy_(torch.tensor([-1.4994231469987658, -2.3943606771304866, -1.9806607135314773], dtype=torch.float64))
args, kwargs = (torch.full((3, 3, 1), 0.0, dtype=torch.float64), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
print("no error: the bug is gone")
