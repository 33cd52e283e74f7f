# input_update: dtype: torch.int8 -> torch.int64 (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0, x1):
        x0 += x1
        v0 = x0
        return v0


model = Model().eval()
args, kwargs = (torch.full((3,), 0, dtype=torch.int8), torch.tensor(0, dtype=torch.int64), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("eager:   ", expected.dtype, tuple(expected.shape), expected)
print("tvm-dynamo:", actual.dtype, tuple(actual.shape), actual)
torch.testing.assert_close(actual, expected, equal_nan=True)
