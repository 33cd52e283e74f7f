# buffer_update, cast, lt: BackendCompilerFailed: InternalError: CodeGenVM cannot emit this Relax operator directly. Run the a… (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
import collections
import torch.utils._pytree as pytree


class ModelOutput(collections.OrderedDict):
    """A dict subclass registered with pytree, the way transformers' ModelOutput is."""


pytree.register_pytree_node(
    ModelOutput,
    lambda d: (list(d.values()), list(d.keys())),
    lambda values, keys: ModelOutput(zip(keys, values)),
    serialized_type_name="roundtrip.ModelOutput",
    flatten_with_keys_fn=lambda d: ([(pytree.MappingKey(k), v) for k, v in d.items()], list(d.keys())),
)
from tvm.relax.frontend.torch import relax_dynamo


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s0', torch.empty((2, 1, 2), dtype=torch.int8))

    def forward(self, x0):
        self.s0.mul_(x0)
        v0 = self.s0
        v1 = v0.to(torch.int16)
        v2 = v1 < x0
        return {'b': (ModelOutput([('logits', v2)]),)}


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.copy_(torch.tensor([[[-2, 5]], [[-2, 4]]], dtype=torch.int8))
args, kwargs = (torch.full((2, 1, 2), 0, dtype=torch.int8), ), {}
print("eager:   ", copy.deepcopy(model)(*copy.deepcopy(args), **copy.deepcopy(kwargs)))
actual = torch.compile(model, backend=relax_dynamo(), dynamic=True)(*args, **kwargs)
print("no error: the bug is gone")
