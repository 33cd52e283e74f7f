# buffer_update, slice_negative: ValueError: broadcast_to expects the input tensor shape is broadcastable to the target shape. The t… (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from tvm.relax.frontend.torch import from_fx


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s1', torch.empty((1, 0), dtype=torch.float32))

    def forward(self, x0):
        v0 = x0[..., 1:-1]
        self.s1.copy_(v0)
        v1 = self.s1
        return v1


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s1.copy_(torch.empty((1, 0), dtype=torch.float32))
args, kwargs = (torch.tensor([[0.0]], dtype=torch.float32), ), {}
print("eager:   ", copy.deepcopy(model)(*copy.deepcopy(args), **copy.deepcopy(kwargs)))
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
print("no error: the bug is gone")
