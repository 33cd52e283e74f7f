# cross_attention: values: float32 (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0, x1):
        v0 = torch.nn.functional.scaled_dot_product_attention(x0, x1, x1)
        return v0


model = Model().eval()
args, kwargs = (torch.full((2, 1), 0.0, dtype=torch.float32), torch.tensor([[1.0], [0.0]], dtype=torch.float32), ), {}
expected = model(*args, **kwargs)
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
torch.set_printoptions(precision=9)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("tvm-dynamo:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
