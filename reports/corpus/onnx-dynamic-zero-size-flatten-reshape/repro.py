# flatten: Fail: [ONNXRuntimeError] : N : FAIL : Node (node_Reshape_N) Op (Reshape) [ShapeInferenceError] Inva… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import copy

import torch
from torch.export import Dim
import onnxruntime


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.flatten(x0, start_dim=1)
        return v0


model = Model().eval()
args, kwargs = (torch.empty((2, 0, 1), dtype=torch.float32), ), {}
s0 = Dim('s0', min=2, max=3)
dynamic_shapes = {'x0': {0: s0}}
eager_model = copy.deepcopy(model)
exported = torch.export.export(model, args, kwargs, dynamic_shapes=dynamic_shapes)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
print("no error: the bug is gone")
