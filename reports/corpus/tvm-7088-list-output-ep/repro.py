# add_scalar, mul: :  (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from torch.utils import _pytree as pytree
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0 + 1
        v1 = x0 * x0
        return [v0, v1]


model = Model().eval()
args, kwargs = (torch.full((2, 3), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
inputs = pytree.tree_leaves((args, kwargs))
raw = [torch.from_dlpack(t).cpu() for t in vm['main'](*map(tvm.runtime.from_dlpack, inputs))]
actual = pytree.tree_unflatten(raw, exported.call_spec.out_spec)
print("no error: the bug is gone")
