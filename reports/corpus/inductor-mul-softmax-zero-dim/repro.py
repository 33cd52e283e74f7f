# mul, softmax: IndexError: list index out of range (inductor)
# torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch


class Model(torch.nn.Module):
    def forward(self, x0, x1):
        v0 = x0 * x1
        v1 = torch.softmax(v0, dim=-1)
        return v1


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model)(*args, **kwargs)
print("no error: the bug is gone")
