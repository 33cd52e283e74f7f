# buffer_update: values: int64 (tvm-ep)
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
        self.register_buffer('s0', torch.empty((2, 2), dtype=torch.int64))

    def forward(self, x0):
        self.s0[:, 0:1] = x0
        v0 = self.s0
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor([[-5, -2], [0, -5]], dtype=torch.int64))
args, kwargs = (torch.full((2, 1), 0, dtype=torch.int64), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported, run_ep_decomposition=False)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
inputs = pytree.tree_leaves((args, kwargs))
raw = [torch.from_dlpack(t).cpu() for t in vm['main'](*map(tvm.runtime.from_dlpack, inputs))]
actual = pytree.tree_unflatten(raw, exported.call_spec.out_spec)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("tvm-ep:  ", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True)
torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), (dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True)
