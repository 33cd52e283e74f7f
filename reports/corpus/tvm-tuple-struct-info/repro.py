# input: InternalError: Check failed: (opt) is false: The type of Tuple must be TupleType, but expression NA… (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported, keep_params_as_input=False, no_bind_return_tuple=True, unwrap_unit_return_tuple=True)
print("no error: the bug is gone")
