# tests.real_models:opt: ValueError: code: co_varnames is too small @activation_form+add+add_buffer+add_scalar+arange+arange… (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
# Run it where the factory's module imports (its project's root).
import copy
import sys

import torch
from torch.utils import _pytree as pytree
sys.path.insert(0, '.')  # the factory's project root, where it runs
import tests.real_models

factory = tests.real_models.opt


def flat_tensor_module(model, args, kwargs):
    leaves, spec = pytree.tree_flatten((args, kwargs))
    tensors = [i for i, leaf in enumerate(leaves) if isinstance(leaf, torch.Tensor)]

    class FlatInputs(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def call(self, inputs):
            tree = list(leaves)
            for i, tensor in zip(tensors, inputs):
                tree[i] = tensor
            call_args, call_kwargs = pytree.tree_unflatten(tree, spec)
            return self.model(*call_args, **call_kwargs)

    # One named parameter per tensor: fx makes a placeholder of each (not of *args).
    names = ", ".join(f"input{i}" for i in range(len(tensors)))
    namespace = {}
    exec(f"def forward(self, {names}):\n    return self.call([{names}])", namespace)  # noqa: S102
    FlatInputs.forward = namespace["forward"]
    return FlatInputs(), [leaves[i] for i in tensors]


made = factory()  # (model, args, kwargs), (model, args) or (model, inputs)
model = made[0].eval()
args, kwargs = made[1:] if len(made) == 3 else made[1]() if callable(made[1]) else (made[1], {})
args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
flat, inputs = flat_tensor_module(model, args, kwargs)  # the placeholders: the input tensors
graph_module = torch.fx.symbolic_trace(flat)
print("no error: the bug is gone")
