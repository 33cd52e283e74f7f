# slice_but_last: AssertionError: Unsupported function types ['sym_max'] (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from torch.export import Dim
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0[..., :torch.sym_max(x0.shape[-1] - 1, 1)]
        return {'a': [{'c': {'c': v0}}]}


model = Model().eval()
args, kwargs = (torch.full((3, 2, 1, 3), 0, dtype=torch.int8), ), {}
s0 = Dim('s0', min=3, max=11)
dynamic_shapes = {'x0': {0: s0, 3: s0}}
eager_model = copy.deepcopy(model)
exported = torch.export.export(model, args, kwargs, dynamic_shapes=dynamic_shapes)
mod = from_exported_program(exported)
print("no error: the bug is gone")
