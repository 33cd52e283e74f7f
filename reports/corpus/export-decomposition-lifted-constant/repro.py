# gpt2: SpecViolationError: Constant tensor lifted_tensor_N is not in the constants dictionary. (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy
import torch
from transformers import GPT2Config, GPT2Model
from transformers.integrations.executorch import register_dynamic_cache_export_support
from torch.utils import _pytree as pytree
from tvm.relax.frontend.torch import from_exported_program


torch.manual_seed(0)
config = GPT2Config(vocab_size=32, n_embd=8, n_layer=1, n_head=1, n_inner=16, n_positions=16, activation_function='gelu_new', attn_implementation='eager')
model = GPT2Model(config).eval().to(torch.float32)
g = torch.Generator().manual_seed(0)
register_dynamic_cache_export_support()  # DynamicCache as a pytree node (transformers 4.57)
input_ids = torch.randint(0, 32, (1, 1), generator=g)
args, kwargs = (input_ids,), {'use_cache': True, 'return_dict': False, 'output_hidden_states': False, 'output_attentions': False}
expected = model(*copy.deepcopy(args), **copy.deepcopy(kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
print("no error: the bug is gone")
