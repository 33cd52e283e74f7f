"""Container classes that generated models return, shared by the suite and reproducers.

``PRELUDE`` is the one definition: it is executed here, and ``to_source`` pastes the
same text into every standalone reproducer, so both build identical classes.
"""

from __future__ import annotations

__all__ = ["MODEL_OUTPUT", "PLAIN_DICT_SUBCLASS", "PRELUDE", "ModelOutput", "PlainDictSubclass"]

#: The classes, each on its own: a reproducer pastes only those its case returns.
MODEL_OUTPUT = '''\
class ModelOutput(collections.OrderedDict):
    """A dict subclass registered with pytree, the way transformers' ModelOutput is."""


pytree.register_pytree_node(
    ModelOutput,
    lambda d: (list(d.values()), list(d.keys())),
    lambda values, keys: ModelOutput(zip(keys, values)),
    serialized_type_name="roundtrip.ModelOutput",
    flatten_with_keys_fn=lambda d: ([(pytree.MappingKey(k), v) for k, v in d.items()], list(d.keys())),
)
'''
PLAIN_DICT_SUBCLASS = '''\
class PlainDictSubclass(dict):
    """A dict subclass NOT registered with pytree: fine in eager, rejected by torch.export."""
'''
PRELUDE = f'''\
import collections

import torch
import torch.utils._pytree as pytree


{MODEL_OUTPUT}

{PLAIN_DICT_SUBCLASS}'''

exec(compile(PRELUDE, "<roundtrip-prelude>", "exec"), globals())
