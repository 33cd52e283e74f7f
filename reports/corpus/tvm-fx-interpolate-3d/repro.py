# interpolate: ValueError: In ir.Op(relax.image.resizeNd), layout NCHW requires the input to be N-dim tensor. Howe… (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_fx


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.nn.functional.interpolate(x0, scale_factor=2, mode='nearest')
        return v0


model = Model().eval()
args, kwargs = (torch.tensor([[[0.0]]], dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
print("no error: the bug is gone")
