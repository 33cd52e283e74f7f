# buffer_update: values: bool (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_fx


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((), dtype=torch.bool))

    def forward(self, x0):
        self.s0.copy_(x0)
        v0 = self.s0
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(True, dtype=torch.bool))
args, kwargs = (torch.tensor(False, dtype=torch.bool), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
actual = torch.from_dlpack(vm['main'](*map(tvm.runtime.from_dlpack, inputs))).cpu()
print("eager:   ", expected)
print("tvm-fx:  ", actual)
torch.testing.assert_close(actual, expected, equal_nan=True)
torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), (dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True)
