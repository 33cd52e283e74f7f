# clamp_tensor, view: BackendCompilerFailed: ValueError: broadcast_to expects the input shape to have the number of ndim … (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.reshape(-1)
        v1 = torch.clamp(x0, min=x0, max=v0)
        return v1


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("no error: the bug is gone")
