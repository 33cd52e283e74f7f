# const_bool: leaf_type: bool True -> int 1 (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_fx


def to_torch(value):
    if hasattr(value, "__dlpack__"):
        return torch.from_dlpack(value).clone().cpu()
    is_array = isinstance(value, (tuple, list)) or type(value).__name__ == "Array"  # tvm_ffi's, imported lazily
    return tuple(map(to_torch, value)) if is_array else value


class Model(torch.nn.Module):
    def forward(self):
        v0 = True
        return v0


model = Model().eval()
args, kwargs = (), {}
expected = model(*args, **kwargs)
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
actual = to_torch(vm['main'](*map(tvm.runtime.from_dlpack, inputs)))
print("eager:   ", expected)
print("tvm-fx:  ", actual)
same = lambda a, e: isinstance(a, (tuple, list)) and len(a) == len(e) and all(map(same, a, e)) if isinstance(e, tuple) else type(a) is type(e)
assert same(actual, expected), f'{actual!r} does not nest as {expected!r}'
torch.testing.assert_close(actual, expected, equal_nan=True)
