# sub_scalar: ConversionError: RuntimeError: Cannot find a compatible OpOverload for aten.sub with the provided a… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = 2.5 - x0
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(0, dtype=torch.int64), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
print("no error: the bug is gone")
