# input: RuntimeError: Check '!shape.rank().is_dynamic()' failed at src/plugins/intel_cpu/src/node.cpp:N: Un… (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import openvino


class Model(torch.nn.Module):
    def forward(self, t0, t1, k0):
        x0 = t0[0]
        x1 = t1[0]
        v0 = x0
        return v0


model = Model().eval()
x0 = torch.tensor(0.0, dtype=torch.float32)
x1 = torch.tensor(0.0, dtype=torch.float32)
args, kwargs = ((x0, ), (x1, ), None, ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
print("no error: the bug is gone")
