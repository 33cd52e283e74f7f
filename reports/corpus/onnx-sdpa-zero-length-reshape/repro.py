# cross_attention: Fail: [ONNXRuntimeError] : N : FAIL : Node (node_Reshape_N) Op (Reshape) [ShapeInferenceError] Inva… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch
import onnxruntime


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.nn.functional.scaled_dot_product_attention(x0, x0, x0)
        return v0


model = Model().eval()
args, kwargs = (torch.empty((1, 1, 0, 1), dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
print("no error: the bug is gone")
