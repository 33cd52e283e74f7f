# cast, logical_and, roll, silu: BackendCompilerFailed: TypeError: Unsupported type for shift/dim: <class 'tvm.ir.expr.Var'> (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from torch.export import Dim
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.roll(x0, 1, 0)
        v1 = torch.logical_and(x0, v0)
        v2 = v1.to(torch.bfloat16)
        v3 = torch.nn.functional.silu(v2)
        return v3


model = Model().eval()
args, kwargs = (torch.full((3,), False, dtype=torch.bool), ), {}
s0 = Dim('s0', min=0, max=48)
dynamic_shapes = {'x0': {0: s0}}
eager_model = copy.deepcopy(model)
compiled = torch.compile(model, backend=relax_dynamo(), dynamic=True)
eager_args, eager_kwargs = copy.deepcopy((args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
actual = compiled(*args, **kwargs)
print("no error: the bug is gone")
