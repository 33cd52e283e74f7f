# tensor_split: AssertionError: Cannot create Dim with inconsistent min=N, max=N (reference)
# torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from torch.export import Dim


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.tensor_split(x0, 3, dim=0)
        return v0


model = Model().eval()
args, kwargs = (torch.full((3,), 0.0, dtype=torch.float32), ), {}
s0 = Dim('s0', min=3, max=4)
dynamic_shapes = {'x0': {0: s0}}
eager_model = copy.deepcopy(model)
exported = torch.export.export(model, args, kwargs, dynamic_shapes=dynamic_shapes)
print("no error: the bug is gone")
