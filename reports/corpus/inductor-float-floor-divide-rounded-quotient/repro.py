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
e, a = expected, actual
print("eager:   ", e.dtype, tuple(e.shape), e)
print("inductor:", a.dtype, tuple(a.shape), a)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
