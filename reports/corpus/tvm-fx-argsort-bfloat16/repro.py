# argsort: values: int64 (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.argsort(x0, dim=0, stable=True)
        return v0


model = Model().eval()
args, kwargs = (torch.full((8,), 1.0, dtype=torch.bfloat16), ), {}
expected = model(*args, **kwargs)
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("tvm-dynamo:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True)
