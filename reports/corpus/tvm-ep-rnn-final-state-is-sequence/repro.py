# gru: shape (tvm-ep)
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


torch.manual_seed(0)
model = torch.nn.GRU(input_size=4, hidden_size=8, num_layers=1, bidirectional=False, batch_first=False).eval().to(torch.float32)
g = torch.Generator().manual_seed(0)
x = torch.randn((2, 1, 4), generator=g).to(torch.float32)
args, kwargs = (x,), {}
expected = model(*copy.deepcopy(args), **copy.deepcopy(kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported, run_ep_decomposition=False)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
inputs = tensor_inputs(exported, args, kwargs)
raw = to_torch(vm['main'](*map(tvm.runtime.from_dlpack, inputs)))
actual = reassemble(raw, exported.call_spec.out_spec)[0]  # flat: re-assembled as a user would
e, a = expected[1], actual[1]
print("eager:   ", e.dtype, tuple(e.shape), e)
print("tvm-ep:  ", a.dtype, tuple(a.shape), a)
torch.testing.assert_close(pytree.tree_leaves(actual), pytree.tree_leaves(expected), equal_nan=True, rtol=0.0001, atol=1e-05)
