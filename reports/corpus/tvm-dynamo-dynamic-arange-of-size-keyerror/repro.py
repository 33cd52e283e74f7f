# arange_of: BackendCompilerFailed: KeyError: NAME (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x1):
        v0 = torch.arange(x1.shape[-2], dtype=torch.int64)
        return (v0,)


model = Model().eval()
args, kwargs = (torch.empty((2, 0), dtype=torch.int8), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo(), dynamic=True)(*args, **kwargs)
print("no error: the bug is gone")
