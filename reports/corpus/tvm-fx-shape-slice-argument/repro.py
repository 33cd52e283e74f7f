# new_zeros_rows, view: TypeError: '>=' not supported between instances of 'slice' and 'int' (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_fx


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.reshape(-1)
        v1 = v0.new_zeros(v0.shape[:-1])
        return v1


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
print("no error: the bug is gone")
