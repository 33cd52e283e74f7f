# roll: BackendCompilerFailed: TypeError: Unsupported type for shift/dim: <class 'tvm.ir.expr.Var'> (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x1):
        v0 = torch.roll(x1, 1, 0)
        return v0


model = Model().eval()
args, kwargs = (torch.full((2,), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo(), dynamic=True)(*args, **kwargs)
print("no error: the bug is gone")
