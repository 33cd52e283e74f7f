# group_norm: RuntimeError: Check 'newNode' failed at src/plugins/intel_cpu/src/node.cpp:N: Unsupported operation… (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import openvino


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s0 = torch.nn.GroupNorm(1, 2, dtype=torch.float32)

    def forward(self, x0):
        v0 = self.s0(x0.to(torch.float32))
        return v0


model = Model().eval()
with torch.no_grad():  # the weights the suite drew
    model.s0.weight.copy_(torch.tensor([-2.6336803436279297, -1.6526730060577393], dtype=torch.float32))
    model.s0.bias.copy_(torch.tensor([-1.5944849252700806, -1.9374046325683594], dtype=torch.float32))
args, kwargs = (torch.full((1, 2), 0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
print("no error: the bug is gone")
