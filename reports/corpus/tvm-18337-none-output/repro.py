# add_scalar, none: :  (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
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
    def forward(self, x0):
        v0 = x0 + 1
        v1 = None
        return (v0, v1)


model = Model().eval()
args, kwargs = (torch.full((2, 3), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
inputs = tensor_inputs(exported, args, kwargs)
raw = to_torch(vm['main'](*map(tvm.runtime.from_dlpack, inputs)))
actual = reassemble(raw, exported.call_spec.out_spec)[0]  # flat: re-assembled as a user would
print("no error: the bug is gone")
