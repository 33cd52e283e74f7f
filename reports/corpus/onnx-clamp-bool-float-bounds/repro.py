# clamp: ConversionError: RuntimeError: Cannot find a compatible OpOverload for aten.clamp with the provided… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.clamp(min=1, max=2.5)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(False, dtype=torch.bool), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
print("no error: the bug is gone")
