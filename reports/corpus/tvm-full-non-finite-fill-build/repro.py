# causal_softmax: TypeError: argument of type 'PrimType' is not iterable (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = (x0 + torch.full((x0.shape[-2], x0.shape[-1]), float("-inf"), dtype=x0.dtype, device=x0.device).triu(1)).softmax(-1)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor([[0.0]], dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
print("no error: the bug is gone")
