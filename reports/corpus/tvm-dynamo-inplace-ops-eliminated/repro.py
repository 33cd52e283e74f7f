# buffer_update: values: float32 (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((), dtype=torch.float32))

    def forward(self, x0):
        self.s0.add_(x0)
        v0 = self.s0
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(-2.6336803436279297, dtype=torch.float32))
args, kwargs = (torch.tensor(1.0, dtype=torch.float32), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
torch.set_printoptions(precision=9)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("tvm-dynamo:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), (dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True, rtol=0.0001, atol=1e-05)
