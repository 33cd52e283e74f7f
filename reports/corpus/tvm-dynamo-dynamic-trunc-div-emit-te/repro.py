# div, stack: BackendCompilerFailed: AssertionError: emit_te now only supports Tensor that has ShapeExpr shape (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.stack([x0, x0], dim=1)
        v1 = torch.div(v0, (x0.abs() + 1), rounding_mode='trunc')
        return v1


model = Model().eval()
args, kwargs = (torch.full((2, 2), 0, dtype=torch.int16), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo(), dynamic=True)(*args, **kwargs)
print("no error: the bug is gone")
