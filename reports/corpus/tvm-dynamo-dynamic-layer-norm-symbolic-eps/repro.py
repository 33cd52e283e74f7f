# layer_norm: BackendCompilerFailed: TypeError: Mismatched type on argument #N when calling: `relax.op.nn.layer_n… (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s0 = torch.nn.LayerNorm(3, dtype=torch.float32)

    def forward(self, x0):
        v0 = self.s0(x0.to(torch.float32))
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.weight.copy_(torch.tensor([-2.6336803436279297, -1.6526730060577393, -1.5944849252700806], dtype=torch.float32))
    model.s0.bias.copy_(torch.tensor([-1.9374046325683594, 0.3364083468914032, -2.343336820602417], dtype=torch.float32))
args, kwargs = (torch.full((2, 3), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo(), dynamic=True)(*args, **kwargs)
print("no error: the bug is gone")
