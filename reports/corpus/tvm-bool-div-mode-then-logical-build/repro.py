# div, logical_or: InternalError: Check failed: (lhs.ty().MatchesCode(DLDataTypeCode::kDLBool)) is false: Expected boo… (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_fx


class Model(torch.nn.Module):
    def forward(self, x0, x1):
        v0 = torch.div(x1, (x0.abs() + 1), rounding_mode='trunc')
        v1 = torch.logical_or(v0, x0)
        return v1


model = Model().eval()
args, kwargs = (torch.tensor([0.0], dtype=torch.float32), torch.tensor(False, dtype=torch.bool), ), {}
print("eager:   ", model(*args, **kwargs))
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
print("no error: the bug is gone")
