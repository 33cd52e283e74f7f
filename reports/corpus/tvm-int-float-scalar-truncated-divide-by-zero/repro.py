# floordiv_scalar: BackendCompilerFailed: InternalError: Check failed: pb->value != N (N vs. N) : Divide by zero (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0 // 0.75
        return v0


model = Model().eval()
args, kwargs = (torch.full((2,), 0, dtype=torch.uint8), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("no error: the bug is gone")
