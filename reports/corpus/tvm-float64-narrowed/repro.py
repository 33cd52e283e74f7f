# matmul: dtype: torch.float64 -> torch.float32 (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_fx


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.matmul(x0.to(torch.float64), x0.transpose(-1, -2).to(torch.float64))
        return v0


model = Model().eval()
args, kwargs = (torch.tensor([[0.0]], dtype=torch.float64), ), {}
expected = model(*args, **kwargs)
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
actual = torch.from_dlpack(vm['main'](*map(tvm.runtime.from_dlpack, inputs))).cpu()
print("eager:   ", expected)
print("tvm-fx:  ", actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=8.881784197001252e-16, atol=2.2250738585072014e-308)
