# sample_avg_pool2d: values: float32 (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from torch.utils import _pytree as pytree
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.nn.functional.avg_pool2d(x0.reshape(-1).repeat(16).reshape((1, 1, 4, 4)), (2, 2), (), (0,), False, True, -2)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(1.0, dtype=torch.float32), ), {}
expected = model(*args, **kwargs)
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
inputs = pytree.tree_leaves((args, kwargs))
raw = [torch.from_dlpack(t).cpu() for t in vm['main'](*map(tvm.runtime.from_dlpack, inputs))]
actual = pytree.tree_unflatten(raw, exported.call_spec.out_spec)
torch.set_printoptions(precision=9)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("tvm-ep:  ", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
