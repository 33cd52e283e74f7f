# abs, add_buffer, bitwise_and, fmod, maximum: InductorError: CppCompileError: C++ compile error: error: no matching function for call to ‘max_pro… (inductor)
# torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import collections
Output0 = collections.namedtuple('Output0', ['c'])


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((), dtype=torch.int8))

    def forward(self, *, x1):
        v0 = x1 + self.s0
        v1 = torch.abs(v0)
        v2 = torch.maximum(v0, v1)
        v3 = x1 & v2
        v4 = torch.fmod(v3, (v0.abs() + 1))
        return Output0(v4)


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(3, dtype=torch.int8))
args, kwargs = (), {'x1': torch.tensor(0, dtype=torch.int8)}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model)(*args, **kwargs)
print("no error: the bug is gone")
