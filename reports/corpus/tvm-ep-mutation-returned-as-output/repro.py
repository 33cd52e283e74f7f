# buffer_update: arity (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from torch.utils import _pytree as pytree
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((), dtype=torch.float32))

    def forward(self, x0):
        self.s0.add_(x0)
        v0 = self.s0
        return ()


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(-2.6336803436279297, dtype=torch.float32))
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
inputs = pytree.tree_leaves((args, kwargs))
raw = [torch.from_dlpack(t).cpu() for t in vm['main'](*map(tvm.runtime.from_dlpack, inputs))]
out_spec = exported.call_spec.out_spec
actual = pytree.tree_unflatten(raw, out_spec) if len(raw) == out_spec.num_leaves else tuple(raw)
print("eager:   ", expected)
print("tvm-ep:  ", actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
