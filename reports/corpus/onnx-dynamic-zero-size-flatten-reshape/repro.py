# flatten, isnan, maximum, relu, tril, where: Fail: [ONNXRuntimeError] : N : FAIL : Node (node_Reshape_N) Op (Reshape) [ShapeInferenceError] Inva… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import copy

import torch
from torch.export import Dim
import onnxruntime


class Model(torch.nn.Module):
    def forward(self, x0, x1):
        v0 = torch.isnan(x0)
        v1 = torch.where(x1, v0, x0)
        v2 = torch.relu(v1)
        v3 = torch.flatten(v2, start_dim=1)
        v4 = torch.relu(v3)
        v5 = torch.tril(v4, diagonal=-1)
        v6 = torch.maximum(v5, v2)
        return [v6]


model = Model().eval()
args, kwargs = (torch.empty((0,), dtype=torch.float32), torch.empty((2, 1, 0), dtype=torch.bool), ), {}
s0 = Dim('s0', min=2, max=3)
dynamic_shapes = {'x0': None, 'x1': {0: s0}}
eager_model = copy.deepcopy(model)
exported = torch.export.export(model, args, kwargs, dynamic_shapes=dynamic_shapes)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
print("no error: the bug is gone")
