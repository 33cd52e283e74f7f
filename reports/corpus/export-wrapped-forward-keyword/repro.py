# tests.real_models:clip_text: TypeError: got an unexpected keyword argument 'return_dict' @own model tests.real_models:clip_text (reference)
# torch 2.13.0+cpu. Exits 1 while the bug reproduces.
# Run it where the factory's module imports (its project's root).
import copy
import sys

import torch
from torch.utils import _pytree as pytree
sys.path.insert(0, '.')  # the factory's project root, where it runs
import tests.real_models

factory = tests.real_models.clip_text
made = factory()  # (model, args, kwargs), (model, args) or (model, inputs)
model = made[0].eval()
args, kwargs = made[1:] if len(made) == 3 else made[1]() if callable(made[1]) else (made[1], {})
args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))
expected = eager_model(*eager_args, **eager_kwargs)
exported = torch.export.export(model, args, kwargs)
print("no error: the bug is gone")
