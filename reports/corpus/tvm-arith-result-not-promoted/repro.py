# mul_scalar: dtype: torch.int64 -> torch.bool (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0 * 1
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(False, dtype=torch.bool), ), {}
expected = model(*args, **kwargs)
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("tvm-dynamo:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True)
