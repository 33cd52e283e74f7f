# tests.real_models:opt: ValueError: code: co_varnames is too small (tvm-fx, at torch.fx's trace step)
# torch 2.13.0+cpu, apache-tvm 0.27.0.post1. Exits 1 while the bug reproduces.
# Run it from the project's root (the factory's module imports from there).
import sys

import torch
sys.path.insert(0, '.')
import tests.real_models

model, args, kwargs = tests.real_models.opt()
model = model.eval()
print("eager:   ", type(model(*args, **kwargs)).__name__)
graph_module = torch.fx.symbolic_trace(model)  # ValueError: code: co_varnames is too small
print("no error: the bug is gone")
