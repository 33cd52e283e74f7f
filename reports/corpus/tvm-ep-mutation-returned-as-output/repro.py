# buffer_update: arity (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
from torch.utils import _pytree as pytree
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_exported_program


def to_torch(value):
    if hasattr(value, "__dlpack__"):
        return torch.from_dlpack(value).clone().cpu()
    is_array = isinstance(value, (tuple, list)) or type(value).__name__ == "Array"  # tvm_ffi's, imported lazily
    return tuple(map(to_torch, value)) if is_array else value


def reassemble(raw, out_spec):
    leaves = list(raw) if isinstance(raw, tuple) else [raw]
    fits = len(leaves) == out_spec.num_leaves
    return (pytree.tree_unflatten(leaves, out_spec) if fits else raw), fits


def tensor_inputs(exported, args, kwargs):
    from torch.export.graph_signature import InputKind, TensorArgument
    from torch.fx._pytree import tree_flatten_spec

    specs = [s for s in exported.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    leaves = tree_flatten_spec((args, kwargs), exported.call_spec.in_spec)
    return [leaf for spec, leaf in zip(specs, leaves, strict=True) if isinstance(spec.arg, TensorArgument)]


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((), dtype=torch.float32))

    def forward(self, x0):
        self.s0.add_(x0)
        v0 = self.s0
        return ()


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor(-2.6336803436279297, dtype=torch.float32))
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
inputs = tensor_inputs(exported, args, kwargs)
raw = to_torch(vm['main'](*map(tvm.runtime.from_dlpack, inputs)))
actual = reassemble(raw, exported.call_spec.out_spec)[0]  # flat: re-assembled as a user would
print("eager:   ", expected)
print("tvm-ep:  ", actual)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), (dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True, rtol=0.0001, atol=1e-05)
