# abs, clamp, gt, sum, transpose, triu: BackendCompilerFailed: ValueError: Check failed: (value == N || value == N) is false: N exceeds ran… (tvm-dynamo)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
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
Output0 = collections.namedtuple('Output0', ['past_key_values'])


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.abs(x0)
        v1 = v0.transpose(0, 1)
        v2 = torch.triu(v1, diagonal=-1)
        v3 = v2 > v0
        v4 = v3.clamp(min=-1.25, max=2.5)
        v5 = v4.sum(dim=0)
        return ModelOutput([('b', Output0((v5,)))])


model = Model().eval()
args, kwargs = (torch.full((3, 1), 0, dtype=torch.int8), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("no error: the bug is gone")
