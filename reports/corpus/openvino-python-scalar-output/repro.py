# const_int: ValueError: N is not in list (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import openvino


class Model(torch.nn.Module):
    def forward(self):
        v0 = 0
        return v0


model = Model().eval()
args, kwargs = (), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
print("no error: the bug is gone")
