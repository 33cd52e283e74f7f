# squeeze: Fail: [ONNXRuntimeError] : N : FAIL : Node (node_squeeze) Op (Squeeze) [ShapeInferenceError] Dimens… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch
import onnxruntime


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.squeeze(0)
        return v0


model = Model().eval()
args, kwargs = (torch.full((2,), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
print("no error: the bug is gone")
