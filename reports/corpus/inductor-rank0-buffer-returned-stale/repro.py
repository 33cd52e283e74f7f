# buffer_update: values: float64 (inductor)
# torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((), dtype=torch.float64))

    def forward(self, x0):
        self.s0.add_(x0)
        v0 = self.s0
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(-2.6336803516822584, dtype=torch.float64))
args, kwargs = (torch.tensor(1.0, dtype=torch.float64), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
actual = torch.compile(model)(*args, **kwargs)
torch.set_printoptions(precision=17)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("inductor:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=8.881784197001252e-16, atol=2.2250738585072014e-308)
torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), (dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True, rtol=8.881784197001252e-16, atol=2.2250738585072014e-308)
