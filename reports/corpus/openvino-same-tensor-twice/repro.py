# view: GeneralFailure: Check 'is_number(name)' failed at src/frontends/pytorch/src/translate_session.cpp:N: (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import openvino


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.reshape(-1)
        return (v0, v0)


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
print("no error: the bug is gone")
