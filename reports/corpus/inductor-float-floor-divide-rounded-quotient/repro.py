# floordiv_scalar: values: float32 (inductor)
# torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0 // 0.1
        return v0


model = Model().eval()
args, kwargs = (torch.full((2,), 1, dtype=torch.uint8), ), {}
expected = model(*args, **kwargs)
actual = torch.compile(model)(*args, **kwargs)
torch.set_printoptions(precision=9)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("inductor:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
