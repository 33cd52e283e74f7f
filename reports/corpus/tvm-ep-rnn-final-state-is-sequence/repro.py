# gru: shape (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy
import torch
from torch.utils import _pytree as pytree
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_exported_program


torch.manual_seed(0)
model = torch.nn.GRU(input_size=4, hidden_size=8, num_layers=1, bidirectional=False, batch_first=False).eval().to(torch.float32)
g = torch.Generator().manual_seed(0)
x = torch.randn((2, 1, 4), generator=g).to(torch.float32)
args, kwargs = (x,), {}
expected = model(*copy.deepcopy(args), **copy.deepcopy(kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported, run_ep_decomposition=False)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
inputs = pytree.tree_leaves((args, kwargs))
raw = [torch.from_dlpack(t).cpu() for t in vm['main'](*map(tvm.runtime.from_dlpack, inputs))]
actual = pytree.tree_unflatten(raw, exported.call_spec.out_spec)
e, a = expected[1], actual[1]
print("eager:   ", e.dtype, tuple(e.shape), e)
print("tvm-ep:  ", a.dtype, tuple(a.shape), a)
torch.testing.assert_close(pytree.tree_leaves(actual), pytree.tree_leaves(expected), equal_nan=True, rtol=0.0001, atol=1e-05)
