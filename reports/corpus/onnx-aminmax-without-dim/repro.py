# aminmax: ConversionError: ValueError: Required parameter 'dim' is not provided. Signature: pkg.onnxscript.to… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.aminmax(x0)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
print("no error: the bug is gone")
