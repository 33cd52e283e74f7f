# cumprod: ConversionError: DispatchError: No ONNX function found for <OpOverload(op='prims.prod', overload='d… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch


class Model(torch.nn.Module):
    def forward(self, *, x1):
        v0 = x1.cumprod(dim=0)
        return v0


model = Model().eval()
args, kwargs = (), {'x1': torch.full((3, 1), 0.0, dtype=torch.float32)}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
print("no error: the bug is gone")
