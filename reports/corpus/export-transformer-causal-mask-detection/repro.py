# transformer: GuardOnDataDependentSymNode: Could not guard on data-dependent expression Eq(uN, N) (unhinted: Eq(u… (reference)
# torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy
import torch
from torch.utils import _pytree as pytree


torch.manual_seed(0)
model = torch.nn.Transformer(d_model=8, nhead=1, dim_feedforward=16, dropout=0.0, activation='relu', batch_first=False, norm_first=False, num_encoder_layers=1, num_decoder_layers=1).eval().to(torch.float32)
g = torch.Generator().manual_seed(0)
src = torch.randn((2, 1, 8), generator=g).to(torch.float32)
tgt = torch.randn((2, 1, 8), generator=g).to(torch.float32)
tgt_mask = torch.ones(2, 2, dtype=torch.bool).triu(1)
args, kwargs = (src, tgt,), {'tgt_mask': tgt_mask}
expected = model(*copy.deepcopy(args), **copy.deepcopy(kwargs))
exported = torch.export.export(model, args, kwargs)
print("no error: the bug is gone")
