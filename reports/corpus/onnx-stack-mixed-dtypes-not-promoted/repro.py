# stack: Fail: [ONNXRuntimeError] : N : FAIL : Type Error: Type parameter (T) of Optype (Concat) bound to di… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch
import onnxruntime


class Model(torch.nn.Module):
    def forward(self, x0, x1):
        v0 = torch.stack([x0, x1], dim=0)
        return v0


model = Model().eval()
args, kwargs = (torch.full((2,), False, dtype=torch.bool), torch.full((2,), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
print("no error: the bug is gone")
