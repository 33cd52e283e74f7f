# decoder_layer: AssertionError: Provided inputs is less than actual inputs (tvm-fx)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy
import torch
from torch.utils import _pytree as pytree
from tvm.relax.frontend.torch import from_fx


torch.manual_seed(0)
model = torch.nn.TransformerDecoderLayer(d_model=8, nhead=1, dim_feedforward=16, dropout=0.0, activation='relu', batch_first=False, norm_first=False).eval().to(torch.float32)
g = torch.Generator().manual_seed(0)
tgt = torch.randn((1, 1, 8), generator=g).to(torch.float32)
memory = torch.randn((1, 1, 8), generator=g).to(torch.float32)
args, kwargs = (tgt, memory,), {}
expected = model(*copy.deepcopy(args), **copy.deepcopy(kwargs))
graph_module = torch.fx.symbolic_trace(model)
inputs = [*args, *kwargs.values()]  # the placeholders: forward's parameters, in order
mod = from_fx(graph_module, [(tuple(t.shape), str(t.dtype)[6:]) for t in inputs])
print("no error: the bug is gone")
