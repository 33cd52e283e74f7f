# mod_scalar: BackendCompilerFailed: InternalError: Check failed: (!divisor.is_const(N)) is false: Find divide by… (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0 % 0.1
        return v0


model = Model().eval()
args, kwargs = (torch.full((3,), 0, dtype=torch.uint8), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("no error: the bug is gone")
