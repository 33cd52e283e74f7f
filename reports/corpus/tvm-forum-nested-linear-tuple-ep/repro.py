# linear: :  (tvm-ep)
# apache-tvm 0.27.0.post1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
from torch.utils import _pytree as pytree
import tvm
from tvm import relax
from tvm.relax.frontend.torch import from_exported_program


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s0 = torch.nn.Linear(3, 1, bias=True, dtype=torch.float32)
        self.s1 = torch.nn.Linear(3, 2, bias=True, dtype=torch.float32)
        self.s2 = torch.nn.Linear(3, 3, bias=True, dtype=torch.float32)
        self.s3 = torch.nn.Linear(3, 1, bias=True, dtype=torch.float32)

    def forward(self, x0):
        v0 = self.s0(x0.to(torch.float32))
        v1 = self.s1(x0.to(torch.float32))
        v2 = self.s2(x0.to(torch.float32))
        v3 = self.s3(x0.to(torch.float32))
        return (((v0, v1), v2), v3)


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.weight.copy_(torch.tensor([[-2.6336803436279297, -1.6526730060577393, -1.5944849252700806]], dtype=torch.float32))
    model.s0.bias.copy_(torch.tensor([-1.9374046325683594], dtype=torch.float32))
    model.s1.weight.copy_(torch.tensor([[0.3364083468914032, -2.343336820602417, -0.23452267050743103], [1.2501916885375977, 0.4786575436592102, -0.019996128976345062]], dtype=torch.float32))
    model.s1.bias.copy_(torch.tensor([0.06225103512406349, -1.02277410030365], dtype=torch.float32))
    model.s2.weight.copy_(torch.tensor([[1.3092368841171265, -0.6929333806037903, -2.461219310760498], [-2.295264482498169, 0.8414367437362671, -1.8194005489349365], [0.07468397170305252, 1.2710288763046265, 2.5492336750030518]], dtype=torch.float32))
    model.s2.bias.copy_(torch.tensor([2.998197078704834, 2.35638165473938, 2.2603182792663574], dtype=torch.float32))
    model.s3.weight.copy_(torch.tensor([[2.0698294639587402, -2.073312282562256, -1.9767813682556152]], dtype=torch.float32))
    model.s3.bias.copy_(torch.tensor([2.905189275741577], dtype=torch.float32))
args, kwargs = (torch.full((4, 3), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
mod = from_exported_program(exported)
vm = relax.VirtualMachine(relax.build(mod, target='llvm'), tvm.cpu())
inputs = pytree.tree_leaves((args, kwargs))
raw = [torch.from_dlpack(t).cpu() for t in vm['main'](*map(tvm.runtime.from_dlpack, inputs))]
actual = pytree.tree_unflatten(raw, exported.call_spec.out_spec)
print("no error: the bug is gone")
