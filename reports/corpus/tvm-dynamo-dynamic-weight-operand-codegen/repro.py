# add_buffer: BackendCompilerFailed: InternalError: CodeGenVM cannot emit this Relax operator directly. Run the a… (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((2,), dtype=torch.float32))

    def forward(self, x0):
        v0 = x0 + self.s0
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor([-2.6336803436279297, -1.6526730060577393], dtype=torch.float32))
args, kwargs = (torch.full((2,), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo(), dynamic=True)(*args, **kwargs)
print("no error: the bug is gone")
