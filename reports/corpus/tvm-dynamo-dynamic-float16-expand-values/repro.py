# expand, max_pool: :  (tvm-dynamo)
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


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.nn.functional.max_pool2d(x0, 2, stride=2)
        v1 = v0.expand((1, 2, 3, 3, 2))
        return ModelOutput([('logits', v1)])


model = Model().eval()
args, kwargs = (torch.full((2, 3, 3, 2), 0.0, dtype=torch.float16), ), {}
print("eager:   ", model(*args, **kwargs))
actual = torch.compile(model, backend=relax_dynamo())(*args, **kwargs)
print("no error: the bug is gone")
