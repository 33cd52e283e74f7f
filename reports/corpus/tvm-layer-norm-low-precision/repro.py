# layer_norm: BackendCompilerFailed: InternalError: Check failed: (data_type == PrimType::Float(N) || data_type =… (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s0 = torch.nn.LayerNorm(2, dtype=torch.float64)

    def forward(self, x0):
        v0 = self.s0(x0.to(torch.float64))
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.weight.copy_(torch.tensor([-2.6336803516822584, -1.6526729605940975], dtype=torch.float64))
    model.s0.bias.copy_(torch.tensor([-1.5944849163309638, -1.9374046353134668], dtype=torch.float64))
args, kwargs = (torch.full((2,), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("no error: the bug is gone")
