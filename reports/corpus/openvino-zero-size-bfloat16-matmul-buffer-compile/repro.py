# buffer_update, matmul, sum: RuntimeError: object is not initialized (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import copy

import torch
import openvino


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('s1', torch.empty((3, 2, 2), dtype=torch.bfloat16))

    def forward(self, x0):
        v0 = torch.matmul(x0.to(torch.bfloat16), x0.transpose(-1, -2).to(torch.bfloat16))
        self.s1.add_(v0)
        v1 = self.s1
        v2 = v1.sum()
        return {'logits': {'logits': {'logits': v2}}}


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s1.copy_(torch.tensor([[[-2.96875, -0.5], [-2.703125, 2.578125]], [[1.3515625, -0.77734375], [0.6953125, -2.296875]], [[0.46875, -2.96875], [-0.71875, 1.8125]]], dtype=torch.bfloat16))
args, kwargs = (torch.empty((3, 2, 0), dtype=torch.float64), ), {}
print("eager:   ", copy.deepcopy(model)(*copy.deepcopy(args), **copy.deepcopy(kwargs)))
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
print("no error: the bug is gone")
