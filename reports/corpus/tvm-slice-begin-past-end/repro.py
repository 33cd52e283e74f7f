# slice_negative: InternalError: Check failed: (strides[i] < N ? (end_i <= begin_i) : (begin_i <= end_i)) is false: :… (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_fx


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0[..., 1:-1]
        return v0


model = Model().eval()
args, kwargs = (torch.tensor([0.0], dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
print("no error: the bug is gone")
