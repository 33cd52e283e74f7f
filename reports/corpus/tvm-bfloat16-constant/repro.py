# add_buffer: TypeError: Got unsupported ScalarType BFloatN (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_fx


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((), dtype=torch.bfloat16))

    def forward(self, x0):
        v0 = x0 + self.s0
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(-2.640625, dtype=torch.bfloat16))
args, kwargs = (torch.tensor(0.0, dtype=torch.bfloat16), ), {}
print("eager:   ", model(*args, **kwargs))
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
print("no error: the bug is gone")
