# narrow_half: BackendCompilerFailed: TypeError: Cannot convert floordiv with type <class 'torch.fx.node.Node'> to… (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.narrow(0, 0, x0.size(0) // 2)
        return v0


model = Model().eval()
args, kwargs = (torch.full((5,), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo(), dynamic=True)(*args, **kwargs)
print("no error: the bug is gone")
